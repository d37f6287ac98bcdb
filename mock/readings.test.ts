// Alternative readings: parsing, refusal of unknown names/values, and each branch served.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { start } from './index.js';
import { formatTimestamp, parseReadings, ReadingError, Readings, readings } from './reference/readings.js';
import { startTestMock, type TestMock, uploadForm } from './testing/client.js';

afterEach(() => vi.restoreAllMocks());

describe('the readings table', () => {
  it('defaults to the first value and parses name=value lists', () => {
    expect(new Readings().value('upload-limit')).toBe('26214400');
    expect(parseReadings(['upload-limit=25000000, create-status=200', 'file-delete=204'])).toEqual({
      'upload-limit': '25000000',
      'create-status': '200',
      'file-delete': '204',
    });
    for (const r of readings) expect(r.values.length, r.name).toBeGreaterThan(1);
  });

  it.each(['nope=1', 'upload-limit=1', 'upload-limit'])('refuses %s', (spec) => {
    expect(() => parseReadings(spec)).toThrow(ReadingError);
  });

  it('start() rejects an unknown reading', async () => {
    await expect(start({ readings: { 'create-status': '202' } as never })).rejects.toThrow(/Unknown value "202" of reading create-status/);
  });

  it('formats timestamps', () => {
    expect(formatTimestamp('2026-01-02T03:04:05.678Z', 'offset')).toBe('2026-01-02T03:04:05.678+00:00');
    expect(formatTimestamp('2026-01-02T03:04:05.678Z', 'space')).toBe('2026-01-02 03:04:05.678+00:00');
    expect(formatTimestamp('not a time', 'space')).toBe('not a time');
  });
});

describe('the mock serving every alternative reading', () => {
  let t: TestMock;
  afterEach(async () => t?.close());

  it('answers with the alternative statuses, pages and timestamps', async () => {
    t = await startTestMock({ readings: Object.fromEntries(readings.map((r) => [r.name, r.values.at(-1)])) as never });
    const emp = await t.call('POST', '/employees', { body: { first_name: 'R' } });
    expect(emp.status).toBe(200);
    expect(emp.json.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    expect((await t.call('GET', '/projects', { key: 'none' })).status).toBe(403);
    expect((await t.call('GET', '/projects', { key: 'noApi' })).status).toBe(403);
    expect((await t.call('GET', '/projects/not-a-uuid')).status).toBe(404);
    // uuid-spellings=accept: other spellings of the same UUID name it; a changed version does not
    const pid: string = (await t.call('GET', '/projects?limit=1')).json.data[0].id;
    for (const form of [pid.replace(/-/g, ''), `{${pid}}`, `urn:uuid:${pid}`, ` ${pid.toUpperCase()} `]) {
      const res = await t.call('GET', `/projects/${encodeURIComponent(form)}`);
      expect([res.status, res.json.id], form).toEqual([200, pid]);
    }
    expect((await t.call('GET', `/projects/${pid.slice(0, 14)}0${pid.slice(15)}`)).status).toBe(404);
    expect((await t.call('GET', '/projects')).json.data).toHaveLength(10);
    expect((await t.call('GET', '/projects/')).json.data).toHaveLength(10);
    const over = await t.call('GET', '/projects?limit=51');
    expect([over.status, over.json.error.code, over.json.detail]).toEqual([422, 'unprocessable_entity', { limit: 'must be at most 50' }]);
    expect((await t.call('GET', '/projects?limit=0')).status).toBe(400); // malformed, not too large
    const first = await t.call('GET', '/projects?limit=50&cursor=');
    expect(first.json.page.hasMore).toBe(true);
    const cursor: string = first.json.page.nextCursor;
    expect(cursor).not.toContain('.'); // unsigned
    const tail = await t.call('GET', `/projects?limit=50&cursor=${cursor}`);
    expect(tail.json.page).toEqual({ hasMore: false });
    const scanned = await t.call('GET', `/assignments?employee_id=${emp.json.id}&limit=1`); // page-scan=window
    expect([scanned.json.data, scanned.json.page.hasMore]).toEqual([[], true]);
    const body = { first_name: 'A' };
    expect((await t.call('POST', '/employees', { body, headers: { 'idempotency-key': 'k1' } })).status).toBe(200);
    expect((await t.call('POST', '/employees', { body: { first_name: 'B' }, headers: { 'idempotency-key': 'k1' } })).status).toBe(409);
    // request-noise=gateway: every error answer carries its own latency header and timing field
    const [m1, m2] = [await t.call('GET', `/projects/${crypto.randomUUID()}`), await t.call('GET', `/projects/${crypto.randomUUID()}`)];
    expect([m1.status, m1.json.error.code, typeof m1.json.took_us, typeof m1.headers['x-upstream-latency-us']]).toEqual([404, 'not_found', 'number', 'string']);
    expect([m1.headers['x-upstream-latency-us'], m1.json.took_us]).not.toEqual([m2.headers['x-upstream-latency-us'], m2.json.took_us]);
    const file = await t.call('POST', '/files', { raw: uploadForm('abc') });
    expect(file.status).toBe(200);
    const del = await t.call('DELETE', `/files/${file.json.id}`);
    expect([del.status, del.text]).toEqual([204, '']);
  });

  it('refuses a limit above the maximum with 400 under limit-over-max=400', async () => {
    t = await startTestMock({ readings: { 'limit-over-max': '400' } });
    const over = await t.call('GET', '/assignments?limit=101');
    expect([over.status, over.json.detail]).toEqual([400, { limit: 'must be at most 100' }]);
    expect((await t.call('GET', '/assignments?limit=100')).status).toBe(200);
  });
});
