// The machine-readable description the target serves (CONFORMANCE_PATH_OPENAPI), and the operation
// a request belongs to. Operations the suite does not know are ignored (§9: new endpoints are allowed).
import { API_PREFIX } from '../../contract/settings.js';
import { escapeRegExp } from '../../specs/patterns.js';

export interface ServedOperation {
  method: string;
  template: string;
  path: string;
  operationId?: string;
  deprecated: boolean;
}

export function operationsOf(doc: unknown): ServedOperation[] {
  const paths = (doc as { paths?: Record<string, Record<string, { operationId?: string; deprecated?: boolean; }>>; })?.paths ?? {};
  const ops: ServedOperation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item ?? {})) {
      if (!['get', 'put', 'post', 'patch', 'delete'].includes(method)) continue;
      const path = template.startsWith('/api/') ? template : `${API_PREFIX}${template}`;
      ops.push({ method: method.toUpperCase(), template, path, operationId: op?.operationId, deprecated: op?.deprecated === true });
    }
  }
  return ops;
}

/** The operation whose path template matches a request URL path. */
export function operationFor(ops: ServedOperation[], method: string, urlPath: string): ServedOperation | undefined {
  return ops.find((op) => op.method === method && new RegExp(`^${op.path.split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+')}$`).test(urlPath));
}
