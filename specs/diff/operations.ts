// Paths and operations. Paths match by their template with parameter names blanked out, since a
// renamed path parameter is invisible to clients; each operation then compares its parameters,
// request body, responses and effective security.
import { compareRequestBody, compareResponses } from './bodies.js';
import type { Collector } from './collector.js';
import { compareParameters, type Operation } from './parameters.js';
import { escapeToken } from './pointer.js';
import type { Located, Resolver } from './resolve.js';
import { compareOperationSecurity } from './security.js';
import { isObject } from './types.js';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const DOCUMENTATION = ['summary', 'description', 'tags', 'operationId', 'externalDocs'];

export const templateKey = (path: string): string => path.replace(/\{[^}]*\}/g, '{}');

function pathItems(resolver: Resolver): Map<string, { path: string; item: Located; }> {
  const paths = resolver.child(resolver.root(), 'paths');
  const found = new Map<string, { path: string; item: Located; }>();
  if (!isObject(paths.value)) return found;
  for (const path of Object.keys(paths.value)) {
    found.set(templateKey(path), { path, item: resolver.deref(resolver.child(paths, path)) });
  }
  return found;
}

export function compareOperations(c: Collector): void {
  const olds = pathItems(c.old);
  const news = pathItems(c.now);
  for (const key of new Set([...olds.keys(), ...news.keys()])) {
    const o = olds.get(key);
    const n = news.get(key);
    const path = n?.path ?? o!.path;
    for (const method of METHODS) {
      const has = (entry: typeof o) => entry !== undefined && isObject(entry.item.value) && isObject(entry.item.value[method]);
      const oldOp = has(o) ? c.old.child(o!.item, method) : undefined;
      const newOp = has(n) ? c.now.child(n!.item, method) : undefined;
      if (!oldOp && !newOp) continue;
      const operation = `${method.toUpperCase()} ${path}`;
      const location = `/paths/${escapeToken(path)}/${method}`;
      if (oldOp && newOp) {
        compareOperation(c, { path: o!.path, pathItem: o!.item, op: oldOp }, { path, pathItem: n!.item, op: newOp }, location, operation);
      } else if (newOp) {
        c.add('endpoint.added', location, `operation ${operation} added`, { operation });
      } else {
        const deprecated = isObject(oldOp!.value) && oldOp!.value.deprecated === true;
        const note = deprecated
          ? ' (it was deprecated, but removal is still breaking within the major version: keep it until the next major is stable, then at least 6 months more)'
          : '';
        c.add('endpoint.removed', location, `operation ${operation} removed${note}`, { operation });
      }
    }
  }
}

function compareOperation(c: Collector, o: Operation, n: Operation, location: string, operation: string): void {
  const a = o.op.value as Record<string, unknown>;
  const b = n.op.value as Record<string, unknown>;
  if (Boolean(a.deprecated) !== Boolean(b.deprecated)) {
    const kind = b.deprecated ? 'endpoint.deprecated' : 'endpoint.undeprecated';
    c.add(kind, `${location}/deprecated`, `operation ${operation} ${b.deprecated ? 'marked deprecated' : 'no longer deprecated'}`, { operation });
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const docs = [...keys].filter((k) => (DOCUMENTATION.includes(k) || k.startsWith('x-')) && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  if (docs.length > 0) c.add('endpoint.documentation', location, `${docs.join(', ')} changed`, { operation });
  compareParameters(c, o, n, location, operation);
  compareRequestBody(c, o.op, n.op, location, operation);
  compareResponses(c, o.op, n.op, location, operation);
  compareOperationSecurity(c, o.op, n.op, location, operation);
}
