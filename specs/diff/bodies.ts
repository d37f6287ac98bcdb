// Request bodies and responses of one operation. Request schemas are compared in the request
// direction; response schemas in the response direction, as the pagination envelope when they are
// one, and as the error envelope for error statuses (4xx, 5xx, default). An added or removed member
// is an edit of the map holding it (`at`); a changed one, of the (possibly shared) member itself.
import type { Role } from './collector.js';
import type { Collector } from './collector.js';
import { escapeToken } from './pointer.js';
import type { Located, Resolver } from './resolve.js';
import { type Direction, isObject, type Json } from './types.js';
import { compareSchemas } from './walk-schema.js';

const isError = (status: string): boolean => status === 'default' || /^[45]/.test(status);

interface Entry {
  key: string;
  node: Located;
  at: string;
}

function entries(resolver: Resolver, owner: Located, key: string, fold: (k: string) => string): Map<string, Entry> {
  const container = resolver.child(owner, key);
  const found = new Map<string, Entry>();
  if (isObject(container.value)) {
    for (const k of Object.keys(container.value)) {
      const member = resolver.child(container, k);
      found.set(fold(k), { key: k, node: resolver.deref(member), at: member.origin });
    }
  }
  return found;
}

/** The members of `field` on both sides matched by folded name; `a` or `b` is absent when one was added or removed. */
function paired(c: Collector, o: Located, n: Located, field: string, fold: (k: string) => string): { name: string; key: string; a?: Entry; b?: Entry; }[] {
  const olds = entries(c.old, o, field, fold);
  const news = entries(c.now, n, field, fold);
  return [...new Set([...olds.keys(), ...news.keys()])].map((name) => {
    const [a, b] = [olds.get(name), news.get(name)];
    return { name, key: (b ?? a)!.key, a, b };
  });
}

const lower = (k: string) => k.toLowerCase();

function compareContent(c: Collector, o: Located, n: Located, dir: Direction, role: Role, location: string, operation: string): void {
  for (const { name: mediaType, key, a, b } of paired(c, o, n, 'content', lower)) {
    const here = `${location}/content/${escapeToken(key)}`;
    if (!a) c.add(`${dir}.media-type.added`, here, `${dir} media type ${mediaType} added`, { operation, origin: b!.at });
    else if (!b) c.add(`${dir}.media-type.removed`, here, `${dir} media type ${mediaType} removed`, { operation, origin: a.at });
    else if (isObject(a.node.value) && isObject(b.node.value) && (a.node.value.schema !== undefined || b.node.value.schema !== undefined)) {
      const schema = (r: Resolver, l: Located) => ((l.value as Json).schema === undefined ? { ...l, value: true } : r.child(l, 'schema'));
      compareSchemas(c, schema(c.old, a.node), schema(c.now, b.node), { dir, location: `${here}/schema`, operation, role });
    }
  }
}

export function compareRequestBody(c: Collector, oldOp: Located, newOp: Located, opLocation: string, operation: string): void {
  const [atA, atB] = [c.old.child(oldOp, 'requestBody'), c.now.child(newOp, 'requestBody')];
  const [a, b] = [c.old.deref(atA), c.now.deref(atB)];
  const location = `${opLocation}/requestBody`;
  const [ra, rb] = [isObject(a.value) && a.value.required === true, isObject(b.value) && b.value.required === true];
  if (!isObject(a.value) && !isObject(b.value)) return;
  if (!isObject(a.value)) {
    return c.add(rb ? 'request-body.added-required' : 'request-body.added', location, `${rb ? 'required' : 'optional'} request body added`, {
      operation,
      origin: atB.origin,
    });
  }
  if (!isObject(b.value)) return c.add('request-body.removed', location, 'request body removed', { operation, origin: atA.origin });
  const site = { operation, origin: b.origin };
  if (!ra && rb) c.add('request-body.became-required', location, 'request body became required', site);
  if (ra && !rb) c.add('request-body.became-optional', location, 'request body became optional', site);
  if (a.value.description !== b.value.description) c.add('endpoint.documentation', location, 'request body description changed', site);
  compareContent(c, a, b, 'request', 'plain', location, operation);
}

export function compareResponses(c: Collector, oldOp: Located, newOp: Located, opLocation: string, operation: string): void {
  for (const { key, a, b } of paired(c, oldOp, newOp, 'responses', (k) => k.toUpperCase())) {
    const location = `${opLocation}/responses/${escapeToken(key)}`;
    if (!a) {
      const kind = isError(key) ? 'response.status.added' : 'response.status.added-success';
      c.add(kind, location, `response ${key} added`, { operation, origin: b!.at });
      continue;
    }
    if (!b) {
      c.add('response.status.removed', location, `response ${key} removed`, { operation, origin: a.at });
      continue;
    }
    const [va, vb] = [a.node.value as Json, b.node.value as Json];
    if (va.description !== vb.description) {
      c.add('response.documentation', location, `response ${key} description changed`, { operation, origin: b.node.origin });
    }
    compareHeaders(c, a.node, b.node, location, operation);
    compareContent(c, a.node, b.node, 'response', isError(key) ? 'error-root' : 'response-root', location, operation);
  }
}

function compareHeaders(c: Collector, o: Located, n: Located, location: string, operation: string): void {
  for (const { name, key, a, b } of paired(c, o, n, 'headers', lower)) {
    const here = `${location}/headers/${escapeToken(key)}`;
    if (!a) c.add('response.header.added', here, `response header ${name} added`, { operation, origin: b!.at });
    else if (!b) c.add('response.header.removed', here, `response header ${name} removed`, { operation, origin: a.at });
    else if (isObject(a.node.value) && isObject(b.node.value) && a.node.value.schema !== undefined && b.node.value.schema !== undefined) {
      compareSchemas(c, c.old.child(a.node, 'schema'), c.now.child(b.node, 'schema'), {
        dir: 'response',
        location: `${here}/schema`,
        operation,
        role: 'plain',
      });
    }
  }
}
