// Document-level parts outside the paths: info texts, tags, external docs and servers.
import type { Collector } from './collector.js';
import { isObject, type Json } from './types.js';

const INFO_DOCUMENTATION = ['title', 'summary', 'description', 'termsOfService', 'contact', 'license'];
const ROOT_DOCUMENTATION = ['tags', 'externalDocs'];

const differs = (a: unknown, b: unknown): boolean => JSON.stringify(a) !== JSON.stringify(b);

export function compareDocument(c: Collector): void {
  const a = c.old.root().value as Json;
  const b = c.now.root().value as Json;
  const [ia, ib] = [isObject(a.info) ? a.info : {}, isObject(b.info) ? b.info : {}];
  const info = [...new Set([...Object.keys(ia), ...Object.keys(ib)])].filter(
    (k) => (INFO_DOCUMENTATION.includes(k) || k.startsWith('x-')) && differs(ia[k], ib[k]),
  );
  if (info.length > 0) c.add('document.documentation', '/info', `info ${info.join(', ')} changed`);
  const root = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => (ROOT_DOCUMENTATION.includes(k) || k.startsWith('x-')) && differs(a[k], b[k]),
  );
  if (root.length > 0) c.add('document.documentation', '', `${root.join(', ')} changed`);
  compareServers(c, a, b);
}

function compareServers(c: Collector, a: Json, b: Json): void {
  const servers = (d: Json) => new Map((Array.isArray(d.servers) ? d.servers : []).filter(isObject).map((s) => [String(s.url), s]));
  const [sa, sb] = [servers(a), servers(b)];
  for (const url of sb.keys()) if (!sa.has(url)) c.add('server.added', '/servers', `server ${url} added`);
  for (const url of sa.keys()) if (!sb.has(url)) c.add('server.removed', '/servers', `server ${url} removed`);
  const reworded = [...sa.keys()].filter((url) => sb.has(url) && differs(sa.get(url), sb.get(url)));
  if (reworded.length > 0) c.add('document.documentation', '/servers', `server ${reworded.join(', ')} description or variables changed`);
}
