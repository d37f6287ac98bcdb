// Keyset pagination and cursors (§4 list rules).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, type TestMock, walk } from '../testing/client.js';
import { SORT_FIELDS } from './lists.js';
import { CursorCodec } from './pagination.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock({ seed: 7 });
});
afterAll(() => t.close());

const ids = (items: { id: string; }[]) => items.map((i) => i.id);
const cmp = (a: unknown, b: unknown) => (a === b ? 0 : a === null || a === undefined ? -1 : b === null || b === undefined ? 1 : String(a) < String(b) ? -1 : 1);

describe('walks', () => {
  for (const [list, fields] of Object.entries(SORT_FIELDS)) {
    if (list === 'attachments') continue;
    for (const sort of fields) {
      it(`${list} sort=${sort}: every record once, ordered, desc = reversed asc`, async () => {
        const all = await walk(t, `/${list}?limit=100`);
        const asc = await walk(t, `/${list}?limit=3&sort=${sort}&order=asc`);
        const desc = await walk(t, `/${list}?limit=4&sort=${sort}&order=desc`);
        expect(new Set(ids(asc.items)).size).toBe(asc.items.length);
        expect(ids(asc.items).sort()).toEqual(ids(all.items).sort());
        expect(asc.pages).toBeGreaterThan(1);
        for (let i = 1; i < asc.items.length; i++) expect(cmp(asc.items[i - 1][sort], asc.items[i][sort])).toBeLessThanOrEqual(0);
        expect(ids(desc.items)).toEqual(ids(asc.items).reverse());
      });
    }
  }

  it('has ties in the seed and keeps them stable across page boundaries', async () => {
    const all = (await walk(t, '/projects?limit=100&sort=title')).items;
    const titles = all.map((p) => p.title);
    expect(new Set(titles).size).toBeLessThan(titles.length);
    for (const limit of [1, 2, 5]) expect(ids((await walk(t, `/projects?limit=${limit}&sort=title`)).items)).toEqual(ids(all));
  });

  it('defaults to 25 items, clamps limit to 100, and ends with hasMore false and nextCursor ""', async () => {
    expect((await t.call('GET', '/projects')).json.data).toHaveLength(25);
    const big = await t.call('GET', '/projects?limit=1000');
    expect(big.json.data.length).toBeLessThanOrEqual(100);
    expect(big.json.page).toEqual({ hasMore: false, nextCursor: '' });
  });

  it('treats an empty cursor as the first page', async () => {
    const a = await t.call('GET', '/projects?limit=5');
    const b = await t.call('GET', '/projects?limit=5&cursor=');
    expect(ids(b.json.data)).toEqual(ids(a.json.data));
  });
});

describe('cursors', () => {
  it('rejects undecodable and tampered cursors with 400 bad_request', async () => {
    const { nextCursor } = (await t.call('GET', '/projects?limit=2')).json.page;
    const [payload, mac] = nextCursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), i: '00000000-0000-0000-0000-000000000000' }))
      .toString('base64url');
    for (
      const c of [
        'garbage',
        'a.b',
        nextCursor.slice(0, -2),
        `${forged}.${mac}`,
        `${payload}.`,
        new CursorCodec().encode({ s: 'created_at', o: 'asc', v: null, i: 'x' }),
      ]
    ) {
      const r = await t.call('GET', `/projects?limit=2&cursor=${encodeURIComponent(c)}`);
      expect(r.status, c).toBe(400);
      expect(r.json.error.code).toBe('bad_request');
    }
  });

  it('rejects a cursor issued for another sort or order with 400', async () => {
    const { nextCursor } = (await t.call('GET', '/projects?limit=2&sort=title&order=asc')).json.page;
    for (const q of ['sort=created_at&order=asc', 'sort=title&order=desc', 'order=asc']) {
      const r = await t.call('GET', `/projects?limit=2&${q}&cursor=${nextCursor}`);
      expect(r.status, q).toBe(400);
      expect(r.json.detail.cursor).toBeTypeOf('string');
    }
    expect((await t.call('GET', `/projects?limit=2&sort=title&order=asc&cursor=${nextCursor}`)).status).toBe(200);
  });

  it('does not accept cursors of another start (per-start secret)', async () => {
    const other = await startTestMock({ seed: 7 });
    try {
      const { nextCursor } = (await other.call('GET', '/projects?limit=2')).json.page;
      expect((await t.call('GET', `/projects?limit=2&cursor=${nextCursor}`)).status).toBe(400);
    } finally {
      await other.close();
    }
  });
});

describe('filters and search', () => {
  it('q matches case-insensitive substrings of the name-like field', async () => {
    const r = await walk(t, '/projects?q=SHARED&limit=3');
    expect(r.items.length).toBeGreaterThan(1);
    for (const p of r.items) expect(p.title.toLowerCase()).toContain('shared');
    const orgs = await walk(t, '/organizations?q=recruiting');
    for (const o of orgs.items) expect(o.name.toLowerCase()).toContain('recruiting');
  });

  it('filters assignments by project_id and employee_id, cvs by employee_id', async () => {
    const a = (await t.call('GET', '/assignments?limit=1')).json.data[0];
    for (const p of (await walk(t, `/assignments?project_id=${a.project_id}&limit=1`)).items) expect(p.project_id).toBe(a.project_id);
    const byEmp = (await walk(t, `/assignments?employee_id=${a.employee_id}`)).items;
    expect(byEmp.length).toBeGreaterThan(0);
    for (const p of byEmp) expect(p.employee_id).toBe(a.employee_id);
    // a CV per employee, three of the first employee's (mock/seed/generate.ts)
    const cvs = (await walk(t, `/cvs?employee_id=${a.employee_id}`)).items;
    expect(cvs.length).toBeGreaterThan(0);
    for (const cv of cvs) expect(cv.employee_id).toBe(a.employee_id);
  });
});
