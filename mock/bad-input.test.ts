// Bad input gets a §7 full envelope with a stable code, never a 5xx: deep nesting,
// bodies that are not JSON objects; and data never collides with a key's separator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../specs/index.js';
import { MAX_JSON_DEPTH } from './context.js';
import { startTestMock, type Reply, type TestMock } from './testing.js';

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
function expectEnvelope(r: Reply, status: number, code: string): void {
  const body = r.text;
  expect(r.status, body.slice(0, 300)).toBe(status);
  expect(r.headers['content-type'], body.slice(0, 300)).toMatch(/^application\/json/);
  const json = JSON.parse(body);
  expect(validate('error', json).errors).toEqual([]);
  expect(json.error.code).toBe(code);
  expect(Object.keys(json).every((k) => k === 'error' || k === 'detail')).toBe(true);
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('deeply nested JSON', () => {
  it.each([3_000, 10_000, 100_000])('answers 400 bad_request with detail for %i levels, with or without an Idempotency-Key', async (depth) => {
    for (const headers of [{ 'idempotency-key': `deep-${depth}` }, {}] as Record<string, string>[]) {
      for (const [method, path, body] of [
        ['POST', '/organizations', `{"name":"deep","x":${nested(depth)}}`],
        ['POST', '/employees', `{"first_name":"deep","x":${nested(depth)}}`],
        ['PATCH', `/projects/${projectId}`, `{"work_locations":${nested(depth)}}`],
        ['POST', '/intake/captures', `{"source":"s","external_id":"deep","thread":{"x":${nested(depth)}}}`],
      ] as const) {
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
    const deeper = await t.call('PATCH', `/projects/${projectId}`, { raw: `{"work_locations":[${nested(MAX_JSON_DEPTH)}]}`, headers: { 'content-type': 'application/json' } });
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
    for (const [method, path] of [
      ['POST', '/organizations'],
      ['POST', '/employees'],
      ['POST', '/assignments'],
      ['PATCH', `/organizations/${orgId}`],
      ['PATCH', `/projects/${projectId}`],
      ['PATCH', `/employees/${employeeId}`],
      ['POST', '/intake/captures'],
    ] as const) {
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
