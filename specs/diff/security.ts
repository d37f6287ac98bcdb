// Authentication and scoping. §9 lists any observable change of authentication or scoping as
// breaking, so a changed requirement is breaking whichever way it moves; the message says which.
// An operation without its own `security` inherits the document's: a change there is one edit of
// the document-level list, seen in every operation that inherits it.
import type { Collector } from './collector.js';
import { escapeToken } from './pointer.js';
import type { Located } from './resolve.js';
import { isObject, type Json } from './types.js';

type Alternative = Map<string, Set<string>>;

function requirements(value: unknown): Alternative[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((alt) => new Map(Object.entries(alt).map(([k, v]) => [k, new Set(Array.isArray(v) ? v.map(String) : [])])));
}

const show = (alts: Alternative[]): string =>
  alts.length === 0
    ? 'none'
    : alts.map((a) => (a.size === 0 ? '{}' : [...a].map(([k, s]) => `${k}[${[...s].sort().join(' ')}]`).sort().join('+'))).sort().join(' | ');

/** `b` asks no more than `a`: every scheme it needs, `a` provides, with the scopes `b` needs. */
const within = (b: Alternative, a: Alternative): boolean => [...b].every(([k, s]) => a.has(k) && [...s].every((x) => a.get(k)!.has(x)));

export function compareOperationSecurity(c: Collector, oldOp: Located, newOp: Located, location: string, operation: string): void {
  const effective = (op: Located, root: Json) => requirements((op.value as Json).security ?? root.security);
  const a = effective(oldOp, c.old.root().value as Json);
  const b = effective(newOp, c.now.root().value as Json);
  if (show(a) === show(b)) return;
  const inherited = (oldOp.value as Json).security === undefined && (newOp.value as Json).security === undefined;
  // Every old credential still works when each old alternative satisfies some new alternative.
  const oldStillWorks = (a.length === 0 ? [new Map()] : a).every((alt) => b.length === 0 || b.some((nb) => within(nb, alt)));
  const direction = oldStillWorks ? 'loosened' : 'tightened (existing credentials may be refused)';
  c.add('security.changed', `${location}/security`, `security ${direction}: ${show(a)} → ${show(b)}`, {
    operation,
    origin: inherited ? '#/security' : undefined,
  });
}

const SCHEME_FIELDS = ['type', 'scheme', 'in', 'name', 'openIdConnectUrl'];

export function compareSecuritySchemes(c: Collector): void {
  const schemes = (side: 'old' | 'now') => {
    const node = c[side].child(c[side].root(), 'components', 'securitySchemes');
    return isObject(node.value) ? { node, names: Object.keys(node.value) } : { node, names: [] };
  };
  const [o, n] = [schemes('old'), schemes('now')];
  for (const name of new Set([...o.names, ...n.names])) {
    const location = `/components/securitySchemes/${escapeToken(name)}`;
    if (!o.names.includes(name)) {
      c.add('security-scheme.added', location, `security scheme "${name}" added`);
      continue;
    }
    if (!n.names.includes(name)) {
      c.add('security-scheme.removed', location, `security scheme "${name}" removed`);
      continue;
    }
    const a = c.old.deref(c.old.child(o.node, name)).value as Json;
    const b = c.now.deref(c.now.child(n.node, name)).value as Json;
    const norm = (s: Json, k: string) => (k === 'scheme' && typeof s[k] === 'string' ? s[k].toLowerCase() : s[k]);
    const changed = SCHEME_FIELDS.filter((k) => JSON.stringify(norm(a, k)) !== JSON.stringify(norm(b, k)));
    if (changed.length > 0) {
      c.add('security-scheme.changed', location, `security scheme "${name}": ${
        changed.map((k) => `${k} ${JSON.stringify(a[k])} → ${JSON.stringify(b[k])}`).join(', ')
      }`);
    }
    compareFlows(c, a, b, location, name);
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k === 'description' || k === 'bearerFormat' || k.startsWith('x-'));
    const docs = keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    if (docs.length > 0) c.add('security-scheme.documentation', location, `security scheme "${name}": ${docs.join(', ')} changed`);
  }
}

function compareFlows(c: Collector, a: Json, b: Json, location: string, name: string): void {
  const flows = (s: Json) => (isObject(s.flows) ? s.flows : {});
  const [fa, fb] = [flows(a), flows(b)];
  for (const flow of new Set([...Object.keys(fa), ...Object.keys(fb)])) {
    const scopes = (f: unknown) => (isObject(f) && isObject(f.scopes) ? Object.keys(f.scopes) : []);
    const [sa, sb] = [scopes(fa[flow]), scopes(fb[flow])];
    const here = `${location}/flows/${escapeToken(flow)}`;
    if (!(flow in fa) || !(flow in fb)) c.add('security-scheme.changed', here, `security scheme "${name}": flow ${flow} ${flow in fa ? 'removed' : 'added'}`);
    for (const s of sb.filter((x) => !sa.includes(x))) c.add('security-scheme.scope-added', here, `scope "${s}" added`);
    for (const s of sa.filter((x) => !sb.includes(x))) c.add('security-scheme.scope-removed', here, `scope "${s}" removed`);
  }
}
