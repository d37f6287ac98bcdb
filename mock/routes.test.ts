// The mock's routes and its served OpenAPI description come from one operation table: every
// operation of the description has a route at its method and path, and every route an operation.
import { describe, expect, it } from 'vitest';
import type { AppContext } from './context.js';
import { Faults } from './faults.js';
import { servedOpenApi } from './openapi.js';
import { routeTable } from './server.js';

const METHODS = ['get', 'post', 'patch', 'delete'];
/** Served by the server itself, before any route: its document, not a resource. */
const SELF_SERVED = new Set(['getOpenApi']);

describe('routes and the served description', () => {
  const faults = new Faults(undefined);
  const doc = servedOpenApi({ deprecate: [], shape: 'full', baseUrl: 'http://127.0.0.1:0', faults }).doc;
  const prefix = '/api/public/v1';
  const described = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => `${method.toUpperCase()} ${path.replace(prefix, '')} ${String((op as { operationId: string; }).operationId)}`)
  );
  const routed = routeTable({ faults } as AppContext).map((r) => `${r.method} ${r.path} ${r.operationId}`);

  it('every described operation has a route at its method and path', () => {
    expect(described.filter((d) => !SELF_SERVED.has(d.split(' ')[2]!) && !routed.includes(d))).toEqual([]);
  });

  it('every route is a described operation', () => {
    expect(routed.filter((r) => !described.includes(r))).toEqual([]);
  });

  it('every GET that answers JSON is a read route, and only GETs are, so that new reads are answered before the framework too', () => {
    const table = routeTable({ faults } as AppContext);
    expect(table.filter((r) => r.method === 'GET' && (r.kind ?? 'json') === 'json').map((r) => r.operationId)).toEqual([]);
    expect(table.filter((r) => r.kind === 'read' && r.method !== 'GET').map((r) => r.operationId)).toEqual([]);
    expect(table.filter((r) => r.kind === 'read')).toHaveLength(8);
  });

  it('the table has the operations of §4 and the chosen paths', () => {
    expect(routed.length).toBe(22);
  });
});
