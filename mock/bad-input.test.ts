// Bad input at every layer gets a §7 full envelope with a stable code, never a 5xx and
// never a framework's own body: Node's HTTP parser, fastify's router and body parser,
// and the handlers (deep nesting, bodies that are not JSON objects).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../specs/index.js';
import { MAX_JSON_DEPTH } from './reference/context.js';
import { type Reply, startTestMock, type TestMock } from './testing/client.js';
import { rawExchange, type RawReply } from './testing/raw-http.js';

let t: TestMock;
let projectId: string;
let orgId: string;
let employeeId: string;
beforeAll(async () => {
  t = await startTestMock();
  projectId = (await t.call('GET', '/projects?limit=1')).json.data[0].id;
  orgId = (await t.call('GET', '/organizations?limit=1')).json.data[0].id;
  employeeId = (await t.call('GET', '/assignments?limit=1')).json.data[0].employee_id;
});
afterAll(() => t.close());

/** The reply is the §7 full envelope with `status` and `code`; `detail`, when present, maps strings to strings. */
function expectEnvelope(r: Reply | RawReply, status: number, code: string): void {
  const body = 'text' in r && 'closed' in r ? r.body : (r as Reply).text;
  expect(r.status, body.slice(0, 300)).toBe(status);
  expect(r.headers['content-type'], body.slice(0, 300)).toMatch(/^application\/json/);
  const json = JSON.parse(body);
  expect(validate('error', json).errors).toEqual([]);
  expect(json.error.code).toBe(code);
  expect(Object.keys(json).every((k) => k === 'error' || k === 'detail')).toBe(true);
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const head = (method: string, path: string, extra = '') => `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\n${extra}`;

describe('deeply nested JSON', () => {
  it.each([3_000, 10_000, 100_000])('answers 400 bad_request with detail for %i levels, with or without an Idempotency-Key', async (depth) => {
    for (const headers of [{ 'idempotency-key': `deep-${depth}` }, {}] as Record<string, string>[]) {
      for (
        const [method, path, body] of [
          ['POST', '/organizations', `{"name":"deep","x":${nested(depth)}}`],
          ['POST', '/employees', `{"first_name":"deep","x":${nested(depth)}}`],
          ['PATCH', `/projects/${projectId}`, `{"work_locations":${nested(depth)}}`],
          ['POST', '/intake/captures', `{"source":"s","external_id":"deep","thread":{"x":${nested(depth)}}}`],
        ] as const
      ) {
        const r = await t.call(method, path, { raw: body, headers: { 'content-type': 'application/json', ...headers } });
        expectEnvelope(r, 400, 'bad_request');
        expect(r.json.detail.body, `${method} ${path}`).toContain(String(MAX_JSON_DEPTH));
      }
    }
  });

  it(`accepts nesting up to ${MAX_JSON_DEPTH} levels, and replays it`, async () => {
    const body = `{"work_locations":[${nested(MAX_JSON_DEPTH - 2)}]}`;
    const headers = { 'content-type': 'application/json', 'idempotency-key': 'deep-ok' };
    const first = await t.call('PATCH', `/projects/${projectId}`, { raw: body, headers });
    expect(first.status).toBe(200);
    const again = await t.call('PATCH', `/projects/${projectId}`, { raw: body, headers });
    expect(again.headers['idempotent-replayed']).toBe('true');
    const deeper = await t.call('PATCH', `/projects/${projectId}`, {
      raw: `{"work_locations":[${nested(MAX_JSON_DEPTH)}]}`,
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(deeper, 400, 'bad_request');
  });

  it('counts brackets inside strings as text, not nesting', async () => {
    const r = await t.call('POST', '/organizations', { body: { name: '['.repeat(5000) + '{'.repeat(5000) } });
    expect(r.status).toBe(201);
  });
});

describe('bodies that are not JSON objects', () => {
  const cases = ['null', '[]', '[{"name":"x"}]', '1', '"name"', 'true', 'false'];
  it.each(cases)('answers 400 bad_request with detail.body for %s', async (raw) => {
    for (
      const [method, path] of [
        ['POST', '/organizations'],
        ['POST', '/employees'],
        ['POST', '/assignments'],
        ['PATCH', `/organizations/${orgId}`],
        ['PATCH', `/projects/${projectId}`],
        ['PATCH', `/employees/${employeeId}`],
        ['POST', '/intake/captures'],
      ] as const
    ) {
      for (const headers of [{}, { 'idempotency-key': `non-object-${raw}-${path}` }] as Record<string, string>[]) {
        const r = await t.call(method, path, { raw, headers: { 'content-type': 'application/json', ...headers } });
        expectEnvelope(r, 400, 'bad_request');
        expect(typeof r.json.detail?.body, `${method} ${path} ${raw}`).toBe('string');
      }
    }
  });

  it('still takes an absent body as an empty object', async () => {
    const r = await t.call('PATCH', `/projects/${projectId}`, { raw: '', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(200);
  });
});

describe('framework and HTTP parser errors', () => {
  it('answers a malformed percent-encoding in the path (fastify FST_ERR_BAD_URL) in the envelope', async () => {
    for (const path of ['/projects/%ZZ', '/projects/%', '/assignments/%E0%A4%A']) {
      const r = await t.call('GET', path);
      expectEnvelope(r, 400, 'bad_request');
      expect(r.json.detail).toBeTypeOf('object');
    }
  });

  it('answers a path id of any length that is not a UUID as a malformed id (no FST_ERR_MAX_PARAM_LENGTH)', async () => {
    for (const n of [4_097, 10_000]) {
      const r = await t.call('GET', `/projects/${'a'.repeat(n)}`);
      expectEnvelope(r, 400, 'bad_request');
      expect(r.json.detail.id).toBeTypeOf('string');
    }
    const unauthenticated = await t.call('GET', `/projects/${'a'.repeat(5_000)}`, { key: 'none' });
    expectEnvelope(unauthenticated, 401, 'unauthorized');
  });

  it('answers a request head over 16 KB with 431 in the envelope', async () => {
    const r = await rawExchange(t.mock.url, `${head('GET', '/api/public/v1/projects', `X-Big: ${'a'.repeat(17_000)}\r\n`)}\r\n`);
    expectEnvelope(r, 431, 'header_too_large');
    expect(r.closed).toBe(true);
    const url = await rawExchange(t.mock.url, `GET /api/public/v1/projects/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectEnvelope(url, 431, 'header_too_large');
  });

  it.each([
    ['a malformed request line', 'GARBAGE\r\n\r\n'],
    ['an unknown method', 'BREW /api/public/v1/projects HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a lower-case method', 'get /api/public/v1/projects HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a bad HTTP version', 'GET /api/public/v1/projects HTTP/9.9\r\nHost: x\r\n\r\n'],
    ['a header without a colon', 'GET /api/public/v1/projects HTTP/1.1\r\nHost: x\r\nBroken header\r\n\r\n'],
    [
      'both Content-Length and Transfer-Encoding',
      'POST /api/public/v1/organizations HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
    ],
    [
      'a broken chunked body',
      'POST /api/public/v1/organizations HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
    ],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
  ])('answers %s with 400 bad_request in the envelope and closes', async (_what, data) => {
    // Authenticated, so that a body error is met while the body is read (not after a 401).
    const r = await rawExchange(t.mock.url, data.replace('Host: x\r\n', `Host: x\r\nAuthorization: Bearer ${t.keys.team}\r\n`));
    expectEnvelope(r, 400, 'bad_request');
    expect(r.json.detail).toBeTypeOf('object');
    expect(r.closed).toBe(true);
  });

  it('answers CONNECT with 405 method_not_allowed in the envelope', async () => {
    const r = await rawExchange(t.mock.url, 'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n');
    expectEnvelope(r, 405, 'method_not_allowed');
    expect(r.headers.allow).toBeTypeOf('string');
    expect(r.closed).toBe(true);
  });

  it('answers methods it knows but does not serve in the envelope', async () => {
    for (const method of ['PROPFIND', 'TRACE', 'OPTIONS', 'PUT', 'PURGE']) {
      const r = await rawExchange(t.mock.url, `${head(method, '/api/public/v1/projects')}Connection: close\r\n\r\n`);
      expect(r.status, method).toBeGreaterThanOrEqual(400);
      expect(r.status, method).toBeLessThan(500);
      expectEnvelope(r, r.status!, r.json?.error?.code);
    }
  });

  it('answers an HTTP/1.1 request without Host with 400 in the envelope', async () => {
    const r = await rawExchange(t.mock.url, `GET /api/public/v1/projects HTTP/1.1\r\nAuthorization: Bearer ${t.keys.team}\r\nConnection: close\r\n\r\n`);
    expectEnvelope(r, 400, 'bad_request');
    expect(r.json.detail.host).toBeTypeOf('string');
  });

  it('answers an Expect other than 100-continue with 417 in the envelope', async () => {
    const r = await rawExchange(t.mock.url, `${head('GET', '/api/public/v1/projects', 'Expect: teapot\r\n')}Connection: close\r\n\r\n`);
    expectEnvelope(r, 417, 'expectation_failed');
  });

  it('keeps serving after all of it', async () => {
    expect((await t.call('GET', '/projects?limit=1')).status).toBe(200);
  });
});

describe('capture dedupe keys', () => {
  it('never merges captures whose parts only differ in where a separator falls', async () => {
    const a = await t.call('POST', '/intake/captures', { body: { source: 'S\u0000x', external_id: 'y' } });
    const b = await t.call('POST', '/intake/captures', { body: { source: 'S', external_id: 'x\u0000y' } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.json.id).not.toBe(a.json.id);
    const again = await t.call('POST', '/intake/captures', { body: { source: 'S', external_id: 'x\u0000y' } });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(b.json.id);
  });
});
