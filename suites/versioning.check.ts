// §9 Versioning: the major version in the path, info.version and deprecation signalling. The §9
// rules for clients (unknown fields, enum values, error codes) are the suite's own: see
// specs/client-tolerance.test.ts.
import { check, type CheckContext } from './harness/check.js';
import { httpDate, parseDeprecation } from './harness/deprecation.js';
import { ensure, expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { operationFor, operationsOf, type ServedOperation } from './harness/served-openapi.js';
import { onSessionEnd } from './harness/session.js';
import type { ApiResponse } from './harness/transport/client.js';
import { fetchPage, lists } from './harness/walk.js';

interface Sweep {
  doc?: unknown;
  ops: ServedOperation[];
  responses: { res: ApiResponse; op?: ServedOperation; }[];
}

let sweeping: Promise<Sweep> | undefined;
onSessionEnd(() => {
  sweeping = undefined;
});

/** GET every shown list and by-id endpoint, and every GET operation of the served description. */
function sweep(c: CheckContext): Promise<Sweep> {
  sweeping ??= (async () => {
    let doc: unknown;
    let ops: ServedOperation[] = [];
    const responses: Sweep['responses'] = [];
    const e = c.settings.paths.openapi;
    if (e) {
      const res = await c.api.send({ method: e.method, path: e.path });
      expectStatus(res, '2xx', 'GET of the machine-readable description');
      doc = res.body;
      ops = operationsOf(doc);
      responses.push({ res });
    }
    const project = (await fetchPage(c, lists.projects, { limit: 1 })).page.data[0];
    const assignment = (await fetchPage(c, lists.assignments, { limit: 1 })).page.data[0];
    const paths = new Set(['/api/public/v1/projects', '/api/public/v1/assignments', '/api/public/v1/organizations', '/api/public/v1/cvs']);
    if (project) paths.add(`/api/public/v1/projects/${project.id}`);
    if (assignment) paths.add(`/api/public/v1/assignments/${assignment.id}`);
    for (const op of ops.filter((o) => o.method === 'GET')) {
      const path = op.path.replace('{id}', String(op.path.startsWith('/api/public/v1/assignments') ? assignment?.id : project?.id));
      if (!/[{}]/.test(path) && !op.path.includes('/attachments') && !op.path.includes('/files/')) paths.add(path);
    }
    for (const path of paths) {
      const res = await c.api.send({ method: 'GET', path });
      responses.push({ res, op: operationFor(ops, 'GET', path) });
    }
    if (project) {
      const res = await c.api.send({ method: 'GET', path: '/attachments', query: { entity_type: 'project', entity_id: String(project.id) } });
      responses.push({ res, op: operationFor(ops, 'GET', '/api/public/v1/attachments') });
    }
    return { doc, ops, responses };
  })();
  return sweeping;
}

const LISTS = new Set(['/projects', '/assignments', '/organizations', '/cvs', '/attachments']);

const describe = (r: { res: ApiResponse; op?: ServedOperation; }) =>
  r.op?.operationId ?? `${r.res.exchange.request.method} ${new URL(r.res.exchange.request.url).pathname}`;

check([
  'VER-INFO-VERSION-SEMVER',
  'VER-NONBREAKING-NEW-ENDPOINTS',
], 'info.version of the served description is a semantic version with MAJOR 1', async (c) => {
  const { doc, ops } = await sweep(c);
  const version = (doc as { info?: { version?: unknown; }; })?.info?.version;
  const m = typeof version === 'string' ? /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(version) : null;
  if (!m) fail(`info.version ${JSON.stringify(version)} is not a semantic version`);
  ensure(m[1] === '1', `info.version ${String(version)} has MAJOR ${m[1]}, the path says v1`);
  c.reading('openapi.info.version', String(version));
  c.reading('openapi.operations', String(ops.length));
}, { needs: ['openapi'] });

/** Queries a list request may carry (§4 list parameters): a deprecated list is deprecated under all of them. */
const LIST_QUERIES: Record<string, string>[] = [{ limit: '1' }, { order: 'desc' }, { q: 'conformance' }, { cursor: '' }, { limit: '2', order: 'asc' }];

function expectDeprecation(c: CheckContext, r: { res: ApiResponse; op?: ServedOperation; }): void {
  const value = r.res.headers.deprecation;
  if (value === undefined) fail(`${describe(r)} is deprecated (or carries Sunset) but has no Deprecation header`, r.res);
  const parsed = parseDeprecation(value);
  if (!parsed.ok) fail(`Deprecation: ${value} is neither @<epoch-seconds>, an HTTP-date nor true`, r.res);
  c.reading('deprecation.form', parsed.form);
}

/**
 * Deprecated PATCH operations of records the sweep read: answered to an empty PATCH, which changes
 * nothing (§4 "an empty object is accepted as a request"). Not in read-only runs.
 */
async function deprecatedWrites(c: CheckContext, ops: ServedOperation[], responses: Sweep['responses']): Promise<Sweep['responses']> {
  if (c.settings.readOnly) return [];
  const out: Sweep['responses'] = [];
  for (const op of ops.filter((o) => o.deprecated && o.method === 'PATCH' && /^\/api\/public\/v1\/(projects|assignments)\/\{id\}$/.test(o.path))) {
    const read = responses.find((r) => r.op?.method === 'GET' && r.op.path === op.path && is2xx(r.res));
    const id = (read?.res.body as { id?: unknown; } | undefined)?.id;
    if (typeof id !== 'string') continue;
    const path = op.path.replace('{id}', id);
    if (path.startsWith('/api/public/v1/projects/')) await c.ledger.before('projects', id);
    const res = await c.api.send({ method: 'PATCH', path, json: {} });
    if (is2xx(res)) out.push({ res, op });
  }
  return out;
}

check([
  'VER-DEPRECATION-HEADER',
], 'every response of a deprecated operation, with any query, carries a well-formed Deprecation header', async (c) => {
  const { responses, ops } = await sweep(c);
  // The sweep's own misses (an id of another resource, a query an operation needs) answer errors,
  // which §9's "affected responses" need not cover: a deprecated operation is judged on its 2xx.
  const affected = responses.filter((r) => (r.op?.deprecated && is2xx(r.res)) || r.res.headers.sunset !== undefined || r.res.headers.deprecation !== undefined);
  affected.push(...(await deprecatedWrites(c, ops, responses)));
  if (!affected.length) c.skip('no operation is deprecated on the target');
  for (const r of affected) {
    expectDeprecation(c, r);
    const url = new URL(r.res.exchange.request.url);
    if (!LISTS.has(url.pathname.replace(/^.*\/api\/public\/v1/, ''))) continue;
    for (const query of LIST_QUERIES) {
      const res = await c.api.send({ method: 'GET', path: url.pathname, query: { ...Object.fromEntries(url.searchParams), ...query } });
      if (is2xx(res)) expectDeprecation(c, { res, op: r.op });
    }
  }
});

check([
  'VER-DEPRECATION-ONLY-AFFECTED',
], 'responses of operations not marked deprecated carry no Deprecation header', async (c) => {
  const { responses } = await sweep(c);
  for (const r of responses) {
    if (!r.op || r.op.deprecated) continue;
    if (r.res.headers.deprecation !== undefined) fail(`${describe(r)} is not deprecated in the description but carries Deprecation`, r.res);
  }
}, { needs: ['openapi'] });

check([
  'VER-SUNSET-HEADER',
], 'a Sunset header is an HTTP-date and comes with Deprecation', async (c) => {
  const withSunset = (await sweep(c)).responses.filter((r) => r.res.headers.sunset !== undefined);
  if (!withSunset.length) c.skip('no response carries Sunset');
  for (const r of withSunset) {
    if (httpDate(r.res.headers.sunset!) === undefined) fail(`Sunset: ${r.res.headers.sunset} is not an HTTP-date`, r.res);
    ensure(r.res.headers.deprecation !== undefined, `${describe(r)} carries Sunset without Deprecation`, r.res);
  }
});

check([
  'VER-SUNSET-NOT-BEFORE-DEPRECATION',
], 'the Sunset date is not earlier than the Deprecation date', async (c) => {
  const both = (await sweep(c)).responses.filter((r) => r.res.headers.sunset !== undefined && r.res.headers.deprecation !== undefined);
  if (!both.length) c.skip('no response carries both Sunset and Deprecation');
  for (const r of both) {
    const sunset = httpDate(r.res.headers.sunset!) ?? Date.parse(r.res.headers.sunset!);
    const dep = parseDeprecation(r.res.headers.deprecation!);
    if (!dep.ok || dep.date === undefined || Number.isNaN(sunset)) continue;
    ensure(sunset >= dep.date, `Sunset ${r.res.headers.sunset} is earlier than Deprecation ${r.res.headers.deprecation}`, r.res);
  }
});

check([
  'VER-OPENAPI-DEPRECATED-FLAG',
], 'an operation whose responses carry Deprecation is marked deprecated in the served description', async (c) => {
  const { responses } = await sweep(c);
  const signalled = responses.filter((r) => r.op && r.res.headers.deprecation !== undefined);
  if (!signalled.length) c.skip('no response of a described operation carries Deprecation');
  for (const r of signalled) ensure(r.op!.deprecated, `${describe(r)} carries Deprecation but is not deprecated: true in the description`, r.res);
}, { needs: ['openapi'] });
