// Idempotency keys on mutating endpoints (§4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, type TestMock, uploadForm, walk } from '../testing/client.js';
import { canonicalJson, fingerprintOf, IDEMPOTENCY_DEFAULTS, IdempotencyStore, RETENTION_MS } from './idempotency-store.js';

let t: TestMock;
let projectId: string;
let employeeId: string;
beforeAll(async () => {
  t = await startTestMock();
  const a = (await t.call('GET', '/assignments?limit=1')).json.data[0];
  projectId = a.project_id;
  employeeId = a.employee_id;
});
afterAll(() => t.close());

const key = () => `k-${Math.random().toString(36).slice(2)}`;

describe('JSON endpoints', () => {
  it('replays the original status and body with idempotent-replayed: true', async () => {
    const k = key();
    const first = await t.call('POST', '/employees', { body: { first_name: 'A', last_name: 'B' }, headers: { 'idempotency-key': k } });
    // the same body with keys in another order is the same request
    const again = await t.call('POST', '/employees', { body: { last_name: 'B', first_name: 'A' }, headers: { 'idempotency-key': k } });
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
  });

  it('answers 422 idempotency_key_reused for a different request with the same key', async () => {
    const k = key();
    await t.call('POST', '/employees', { body: { first_name: 'A' }, headers: { 'idempotency-key': k } });
    const r = await t.call('POST', '/employees', { body: { first_name: 'Z' }, headers: { 'idempotency-key': k } });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('idempotency_key_reused');
  });

  it('scopes keys per team and per operation', async () => {
    const k = key();
    const a = await t.call('POST', '/employees', { body: { first_name: 'A' }, headers: { 'idempotency-key': k } });
    const b = await t.call('POST', '/employees', { body: { first_name: 'A' }, headers: { 'idempotency-key': k }, key: 'other' });
    expect(b.status).toBe(201);
    expect(b.json.id).not.toBe(a.json.id);
    const o = await t.call('POST', '/organizations', { body: { name: 'A' }, headers: { 'idempotency-key': k } });
    expect(o.status).toBe(201);
  });

  it('creates exactly one record for 20 concurrent requests with one key', async () => {
    const k = key();
    const body = { employee_id: employeeId, project_id: projectId, role: `race-${k}` };
    const replies = await Promise.all(Array.from({ length: 20 }, () => t.call('POST', '/assignments', { body, headers: { 'idempotency-key': k } })));
    for (const r of replies) expect([201, 409]).toContain(r.status);
    for (const r of replies.filter((x) => x.status === 409)) expect(r.json.error.code).toBe('idempotency_in_flight');
    const created = (await walk(t, `/assignments?project_id=${projectId}&limit=100`)).items.filter((a) => a.role === body.role);
    expect(created).toHaveLength(1);
    const ids = new Set(replies.filter((r) => r.status === 201).map((r) => r.json.id));
    expect(ids.size).toBe(1);
  });

  it('replays PATCH and DELETE', async () => {
    const c = await t.call('POST', '/assignments', { body: { employee_id: employeeId, project_id: projectId } });
    const k = key();
    const d1 = await t.call('DELETE', `/assignments/${c.json.id}`, { headers: { 'idempotency-key': k } });
    const d2 = await t.call('DELETE', `/assignments/${c.json.id}`, { headers: { 'idempotency-key': k } });
    expect(d1.json).toEqual({ success: true });
    expect(d2.status).toBe(200);
    expect(d2.headers['idempotent-replayed']).toBe('true');
  });
});

describe('uploads', () => {
  it('replays the same file and answers 422 for a different file', async () => {
    const k = key();
    const fields = { entity_type: 'project', entity_id: projectId };
    const first = await t.call('POST', '/attachments', { raw: uploadForm('same bytes', fields), headers: { 'idempotency-key': k } });
    expect(first.status).toBe(201);
    const again = await t.call('POST', '/attachments', { raw: uploadForm('same bytes', fields), headers: { 'idempotency-key': k } });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    const diff = await t.call('POST', '/attachments', { raw: uploadForm('other bytes', fields), headers: { 'idempotency-key': k } });
    expect(diff.status).toBe(422);
    const listed = (await walk(t, `/attachments?entity_type=project&entity_id=${projectId}`)).items;
    expect(listed.filter((a) => a.id === first.json.id)).toHaveLength(1);
    expect(listed).toHaveLength(1);
  });
});

describe('retention', () => {
  it('forgets keys after 24 h', () => {
    let now = 0;
    const store = new IdempotencyStore(() => now);
    const c = store.claim('s', 'k', 'fp');
    if (c.kind !== 'claimed') throw new Error('expected a claim');
    c.complete('fp', { status: 201, json: '{}' });
    expect(store.claim('s', 'k', 'fp').kind).toBe('replay');
    now += RETENTION_MS + 1;
    expect(store.claim('s', 'k', 'other').kind).toBe('claimed');
  });
});

describe('keys and fingerprints', () => {
  it('keeps scope and key apart whatever characters they contain', () => {
    const store = new IdempotencyStore();
    const a = store.claim('s\u0000a', 'b', 'fp');
    if (a.kind !== 'claimed') throw new Error('expected a claim');
    a.complete('fp', { status: 201, json: '{"a":1}' });
    expect(store.claim('s', 'a\u0000b', 'fp').kind).toBe('claimed');
    expect(store.claim(['team', 'op|x'], 'k', 'fp').kind).toBe('claimed');
    expect(store.claim(['team|op', 'x'], 'k', 'fp').kind).toBe('claimed');
  });

  it('fingerprints parts without a separator that data can contain', () => {
    expect(fingerprintOf('a\u0000b', 'c')).not.toBe(fingerprintOf('a', 'b\u0000c'));
    expect(fingerprintOf('a', 'b')).toBe(fingerprintOf('a', 'b'));
  });

  it('writes canonical JSON of any depth without recursion', () => {
    expect(canonicalJson({ b: [1, { d: null, c: 'x' }], a: true })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson('\u0000"')).toBe(JSON.stringify('\u0000"'));
    expect(canonicalJson(undefined)).toBe('null');
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = i % 2 ? [deep] : { k: deep };
    const text = canonicalJson(deep);
    expect(text.length).toBeGreaterThan(600_000);
    expect(text.startsWith('[{"k":[{"k":')).toBe(true);
  });
});

describe('bounded memory', () => {
  const complete = (store: IdempotencyStore, key: string, json = '{}') => {
    const c = store.claim('s', key, 'fp');
    if (c.kind !== 'claimed') throw new Error(`expected a claim for ${key}`);
    c.complete('fp', { status: 201, json });
  };

  it('documents its default caps', () => {
    expect(IDEMPOTENCY_DEFAULTS).toEqual({ maxKeys: 10_000, maxBytes: 16 * 1024 * 1024, retentionMs: RETENTION_MS });
  });

  it('forgets the oldest completed keys beyond the key cap', () => {
    const store = new IdempotencyStore(Date.now, { maxKeys: 100 });
    for (let i = 0; i < 1_000; i++) complete(store, `k${i}`);
    expect(store.size).toBeLessThanOrEqual(100);
    expect(store.claim('s', 'k999', 'fp').kind).toBe('replay');
    expect(store.claim('s', 'k0', 'fp').kind).toBe('claimed');
  });

  it('forgets the oldest completed keys beyond the byte cap', () => {
    const store = new IdempotencyStore(Date.now, { maxBytes: 100_000 });
    for (let i = 0; i < 1_000; i++) complete(store, `k${i}`, 'x'.repeat(1_000));
    expect(store.bytes).toBeLessThanOrEqual(100_000);
    expect(store.claim('s', 'k999', 'fp').kind).toBe('replay');
  });

  it('never forgets a key still in flight', () => {
    const store = new IdempotencyStore(Date.now, { maxKeys: 10 });
    expect(store.claim('s', 'busy', undefined).kind).toBe('claimed');
    for (let i = 0; i < 100; i++) complete(store, `k${i}`);
    expect(store.claim('s', 'busy', undefined).kind).toBe('in-flight');
  });

  it('drops expired keys without waiting for new ones', () => {
    let now = 0;
    const store = new IdempotencyStore(() => now);
    for (let i = 0; i < 10; i++) complete(store, `k${i}`);
    now += RETENTION_MS + 1;
    complete(store, 'fresh');
    expect(store.size).toBe(1);
  });
});
