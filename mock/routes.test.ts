// The mock's routes and its served OpenAPI description come from one operation table: every
// operation of the description has a route at its method and path, and every route an operation.
import { describe, expect, it } from 'vitest';
import { routeTable } from './reference/app.js';
import { BASE_PATH } from './reference/context.js';
import { servedOpenApi } from './reference/openapi.js';

const METHODS = ['get', 'post', 'patch', 'delete'];

describe('routes and the served description', () => {
  const openapi = servedOpenApi({ deprecate: [], shape: 'full', baseUrl: 'http://127.0.0.1:0' });
  const described = Object.entries(openapi.doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => `${method.toUpperCase()} ${path.replace(BASE_PATH, '')} ${String((op as { operationId: string; }).operationId)}`)
  );
  const { routes } = routeTable(openapi);
  const routed = routes.map((r) => `${r.method} ${r.path} ${r.operationId}`);

  it('every described operation has a route at its method and path', () => {
    expect(described.filter((d) => !routed.includes(d))).toEqual([]);
  });

  it('every route is a described operation', () => {
    expect(routed.filter((r) => !described.includes(r))).toEqual([]);
  });

  it('every GET that answers JSON is a read route, and only GETs are, so that new reads are answered before the framework too', () => {
    expect(routes.filter((r) => r.method === 'GET' && (r.kind ?? 'json') === 'json').map((r) => r.operationId)).toEqual([]);
    expect(routes.filter((r) => r.kind === 'read' && r.method !== 'GET').map((r) => r.operationId)).toEqual([]);
    expect(routes.filter((r) => r.kind === 'read')).toHaveLength(9);
  });

  it('the table has the operations of §4, the chosen paths and the served description', () => {
    expect(routed.length).toBe(23);
  });
});
