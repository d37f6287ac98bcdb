// Property-based fuzzing of the whole mock over raw HTTP/1.1: random methods (known,
// unknown, malformed), paths (every route, good and bad ids, bad percent-encodings,
// long segments, random queries), headers (keys, content types, idempotency keys,
// Expect, random names and values with control characters) and bodies (random JSON,
// schema-derived bodies, deep nesting, random bytes, multipart). Every request must be
// answered below 500, every 4xx in the §7 full envelope, and the mock must keep serving.
// Bounded and reproducible: MOCK_FUZZ_SEED (default 1414) and MOCK_FUZZ_RUNS (default
// 4000 requests); a failure prints the seed and the failing request.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignmentPatch, employeeCreate, employeePatch, organizationCreate } from '../specs/arbitraries.js';
import { validate } from '../specs/index.js';
import { startTestMock, type TestMock } from './testing/client.js';
import { rawExchange, type RawReply } from './testing/raw-http.js';

const SEED = Number(process.env.MOCK_FUZZ_SEED ?? 1414);
const RUNS = Number(process.env.MOCK_FUZZ_RUNS ?? 4000);
const API = '/api/public/v1';

let t: TestMock;
let ids: string[];
beforeAll(async () => {
  // Short timeouts, so a request the fuzzer leaves incomplete is answered quickly.
  t = await startTestMock({ bodyTimeoutMs: 500, requestTimeoutMs: 2_000 });
  const a = (await t.call('GET', '/assignments?limit=1')).json.data[0];
  const org = (await t.call('GET', '/organizations?limit=1')).json.data[0].id;
  const other = (await t.call('GET', '/projects?limit=1', { key: 'other' })).json.data[0].id;
  ids = [a.id, a.employee_id, a.project_id, org, other];
});
afterAll(() => t.close());

interface FuzzRequest {
  method: string;
  target: string;
  headers: [string, string][];
  body: Buffer;
}

const TEMPLATES = [
  '/projects',
  '/projects/{id}',
  '/assignments',
  '/assignments/{id}',
  '/employees',
  '/employees/{id}',
  '/organizations',
  '/organizations/{id}',
  '/cvs',
  '/attachments',
  '/attachments/{id}',
  '/attachments/{id}/download',
  '/files',
  '/files/{id}',
  '/documents',
  '/intake/captures',
  '/openapi.json',
  '',
  '/{id}',
];

const idArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...[0, 1, 2, 3, 4].map((i) => () => ids[i]!)).map((f) => f()) },
  { weight: 2, arbitrary: fc.uuid() },
  {
    weight: 1,
    arbitrary: fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '%ZZ', '%', '%00', '%2F', '..', '.', '%E0%A4%A',
      '{id}', 'a'.repeat(5_000)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[\r\n ]/g, '')) },
);

const queryArb = fc.array(
  fc.tuple(
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom('limit', 'cursor', 'sort', 'order', 'q', 'entity_type', 'entity_id', 'project_id', 'employee_id') }, {
      weight: 1,
      arbitrary: fc.string({ maxLength: 8 }),
    }),
    fc.oneof({
      weight: 4,
      arbitrary: fc.constantFrom('1', '0', '-1', '100', '101', 'abc', 'asc', 'desc', 'title', 'created_at', 'project', 'eyJ4IjoxfQ.x', ''),
    }, idArb, fc.string({ maxLength: 30 })),
    fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  ).map(([k, v, encode]) => (encode ? `${encodeURIComponent(k)}=${encodeURIComponent(v)}` : `${k}=${v}`.replace(/[\r\n #]/g, ''))),
  { maxLength: 3 },
).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));

/** The routes the mock serves, so that a good share of requests gets past routing. */
const ROUTES: [string, string][] = [
  ['GET', '/projects'],
  ['GET', '/projects/{id}'],
  ['PATCH', '/projects/{id}'],
  ['GET', '/assignments'],
  ['GET', '/assignments/{id}'],
  ['POST', '/assignments'],
  ['PATCH', '/assignments/{id}'],
  ['DELETE', '/assignments/{id}'],
  ['POST', '/employees'],
  ['PATCH', '/employees/{id}'],
  ['GET', '/organizations'],
  ['POST', '/organizations'],
  ['PATCH', '/organizations/{id}'],
  ['GET', '/cvs'],
  ['POST', '/attachments'],
  ['GET', '/attachments'],
  ['DELETE', '/attachments/{id}'],
  ['GET', '/attachments/{id}/download'],
  ['POST', '/files'],
  ['GET', '/files/{id}'],
  ['DELETE', '/files/{id}'],
  ['POST', '/intake/captures'],
  ['GET', '/openapi.json'],
];

const targetArb = fc.oneof(
  { weight: 16, arbitrary: fc.tuple(fc.constantFrom(...TEMPLATES), idArb, queryArb).map(([p, id, q]) => `${API}${p.replace('{id}', id)}${q}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('*', '/', '//', 'http://127.0.0.1/api/public/v1/projects', '/api/public/v2/projects', '/api/public/v1/projects/../files',
      `${API}/projects?${'q='.repeat(2_000)}`),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => `/${s.replace(/[\r\n ]/g, '')}`) },
);

const methodArb = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE') },
  { weight: 2, arbitrary: fc.constantFrom('HEAD', 'PUT', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE', 'CONNECT', 'BREW', 'get', 'M-SEARCH', 'SEARCH', 'QUERY') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z!#$%&'*+.^_`|~-]{1,12}$/) },
);

const authArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant(() => `Bearer ${t.keys.team}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<() => string | undefined>(
      () => `Bearer ${t.keys.other}`,
      () => `Bearer ${t.keys.readOnly}`,
      () => `Bearer ${t.keys.noApi}`,
      () => 'Bearer nope',
      () => 'Basic dXNlcjpwYXNz',
      () => 'Bearer',
      () => undefined,
    ),
  },
).map((f) => f());

const boundary = 'fuzzboundary';
const multipart = (fields: [string, string][], file: Uint8Array | undefined) =>
  Buffer.concat([
    ...fields.map(([k, v]) => Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
    ...(file
      ? [
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="f.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`),
        Buffer.from(file),
        Buffer.from('\r\n'),
      ]
      : []),
    Buffer.from(`--${boundary}--\r\n`),
  ]);

const nested = (d: number) => `{"a":${'['.repeat(d)}${']'.repeat(d)}}`;

/** [content-type or undefined, body]. */
const bodyArb: fc.Arbitrary<[string | undefined, Buffer]> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<[string | undefined, Buffer]>([undefined, Buffer.alloc(0)]) },
  fc.jsonValue().map((v): [string, Buffer] => ['application/json', Buffer.from(JSON.stringify(v) ?? 'null')]),
  {
    weight: 4,
    arbitrary: fc.oneof(employeeCreate, organizationCreate, assignmentPatch, employeePatch).map((
      v,
    ): [string, Buffer] => ['application/json', Buffer.from(JSON.stringify(v))]),
  },
  fc.record({ employee_id: idArb, project_id: idArb, role: fc.string() }).map((v): [string, Buffer] => ['application/json', Buffer.from(JSON.stringify(v))]),
  fc.record({ source: fc.string({ maxLength: 5 }), external_id: fc.string({ maxLength: 5 }), thread: fc.jsonValue() }).map((
    v,
  ): [string, Buffer] => ['application/json', Buffer.from(JSON.stringify(v))]),
  fc.integer({ min: 1, max: 20_000 }).map((d): [string, Buffer] => ['application/json', Buffer.from(nested(d))]),
  fc.tuple(
    fc.constantFrom('application/json', 'application/merge-patch+json', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded',
      'application/octet-stream', 'multipart/form-data', 'json', '', ';;;', 'application/json; charset=utf-8; x="'),
    fc.uint8Array({ maxLength: 2_000 }),
  )
    .map(([ct, b]): [string, Buffer] => [ct, Buffer.from(b)]),
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.array(
        fc.tuple(fc.constantFrom('entity_type', 'entity_id', 'category', 'file', 'x'), fc.oneof(idArb, fc.constantFrom('project', 'employee', 'contract'))),
        { maxLength: 4 },
      ),
      fc.option(fc.uint8Array({ maxLength: 4_000 })),
      fc.constantFrom(`multipart/form-data; boundary=${boundary}`, 'multipart/form-data; boundary=other', 'multipart/form-data',
        'multipart/mixed; boundary=' + boundary),
    ).map(([fields, file, ct]): [string, Buffer] => [ct, multipart(fields, file ?? undefined)]),
  },
);

const FORBIDDEN = /^(content-length|transfer-encoding|connection|host)$/i;
const extraHeaderArb = fc.tuple(
  fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,16}$/).filter((n) => !FORBIDDEN.test(n)),
  fc.oneof(
    { weight: 5, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 60 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  ).map((v) => v.replace(/[\r\n]/g, '')),
);

const requestArb: fc.Arbitrary<FuzzRequest> = fc
  .record({
    route: fc.oneof(
      {
        weight: 2,
        arbitrary: fc.tuple(fc.constantFrom(...ROUTES), idArb, queryArb).map(([[m, p], id, q]) => ({
          method: m,
          target: `${API}${p.replace('{id}', id)}${q}`,
        })),
      },
      { weight: 1, arbitrary: fc.record({ method: methodArb, target: targetArb }) },
    ),
    auth: authArb,
    body: bodyArb,
    idem: fc.option(fc.oneof(fc.string({ maxLength: 10 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x')), fc.constant('k'.repeat(300))), { nil: undefined }),
    expect: fc.oneof({ weight: 19, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('100-continue', 'teapot', '') }),
    extra: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(extraHeaderArb, { minLength: 1, maxLength: 3 }) }),
    keepType: fc.boolean(),
  })
  .map(({ route: { method, target }, auth, body, idem, expect, extra, keepType }) => {
    const headers: [string, string][] = [];
    if (auth !== undefined) headers.push(['Authorization', auth]);
    if (body[0] !== undefined && (keepType || body[1].length > 0)) headers.push(['Content-Type', body[0]]);
    if (idem !== undefined) headers.push(['Idempotency-Key', idem]);
    if (expect !== undefined) headers.push(['Expect', expect]);
    headers.push(...extra);
    return { method, target, headers, body: body[1] };
  });

function serialize(r: FuzzRequest): Buffer {
  const lines = [`${r.method} ${r.target} HTTP/1.1`, 'Host: 127.0.0.1', ...r.headers.map(([k, v]) => `${k}: ${v}`)];
  if (r.body.length > 0 || r.method === 'POST' || r.method === 'PATCH') lines.push(`Content-Length: ${r.body.length}`);
  lines.push('Connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), r.body]);
}

const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.target.slice(0, 200)} ${JSON.stringify(r.headers).slice(0, 300)} body ${r.body.length} bytes: ${r.body.subarray(0, 120).toString('latin1')}`;

function problem(r: FuzzRequest, res: RawReply): string | undefined {
  if (res.status === undefined) return `no answer (${res.closed ? 'closed' : 'still open'}): ${JSON.stringify(res.text.slice(0, 200))}`;
  if (res.status >= 500) return `answered ${res.status}: ${res.body.slice(0, 300)}`;
  if (res.status < 400 || r.method === 'HEAD') return undefined;
  if (!/^application\/json/.test(res.headers['content-type'] ?? '')) {
    return `${res.status} with content-type ${res.headers['content-type']}: ${res.body.slice(0, 200)}`;
  }
  if (res.json === undefined) return `${res.status} body is not JSON: ${res.body.slice(0, 200)}`;
  const errors = validate('error', res.json).errors;
  if (errors.length) return `${res.status} body is not the §7 envelope (${errors.map((e) => `${e.path} ${e.message}`).join('; ')}): ${res.body.slice(0, 200)}`;
  if (!Object.keys(res.json).every((k) => k === 'error' || k === 'detail')) {
    return `${res.status} envelope has other top-level fields: ${res.body.slice(0, 200)}`;
  }
  return undefined;
}

describe('fuzz', () => {
  it(`answers ${RUNS} random requests below 500, every 4xx in the envelope (seed ${SEED})`, async () => {
    const started = Date.now();
    let statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const res = await rawExchange(t.mock.url, serialize(r), { waitMs: 5_000 });
        if (res.status !== undefined) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const p = problem(r, res);
        if (p) throw new Error(`${p}\n  request: ${describeRequest(r)}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    const ms = Date.now() - started;
    statuses = new Map([...statuses].sort((a, b) => a[0] - b[0]));
    console.log(`fuzz: ${RUNS} requests in ${ms} ms (seed ${SEED}); statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
    expect((await t.call('GET', '/projects?limit=1')).status).toBe(200);
  }, 120_000);
});
