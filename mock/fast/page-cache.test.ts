// A kept list page must be what the list pipeline would build now: the same bytes and headers,
// for as long as nothing it shows changes, and bounded in entries and bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, startTestMock, type TestMock, walk } from '../testing/client.js';
import { PageCache } from './page-cache.js';

describe('a cached list page is the answer of the pipeline', () => {
  let t: TestMock;
  beforeAll(async () => {
    t = await startTestMock({ deprecate: ['listProjects', 'listCvs'] });
  });
  afterAll(() => t.close());

  const comparable = (r: Reply) => {
    const { date: _date, ...headers } = r.headers;
    return { status: r.status, headers, text: r.text };
  };

  it.each([
    '/projects?limit=7&sort=title',
    '/organizations',
    '/assignments?order=desc',
    '/cvs?q=a',
    '/attachments?entity_type=project&entity_id=0b7f3c1e-6a2d-4c8e-9f10-2a3b4c5d6e7f',
  ])('GET %s three times (built, built and kept, cached): same status, headers and bytes', async (path) => {
    const first = await t.call('GET', path);
    expect(first.status).toBe(200);
    await t.call('GET', path);
    const again = await t.call('GET', path);
    expect(comparable(again)).toEqual(comparable(first));
    const readOnly = await t.call('GET', path, { key: 'readOnly' });
    expect(comparable(readOnly)).toEqual(comparable(first));
  });

  it('carries the deprecation headers of a deprecated list', async () => {
    await t.call('GET', '/cvs?limit=3');
    await t.call('GET', '/cvs?limit=3');
    const cached = await t.call('GET', '/cvs?limit=3');
    expect(cached.headers).toMatchObject({ deprecation: expect.stringMatching(/^@\d+$/), sunset: expect.any(String) });
  });

  it('shows a change made after the page was cached', async () => {
    const path = '/organizations?sort=created_at&order=desc&limit=5';
    await t.call('GET', path);
    await t.call('GET', path);
    const created = await t.call('POST', '/organizations', { body: { name: 'Cache Check Org' } });
    expect(created.status).toBe(201);
    const after = await t.call('GET', path);
    expect(after.json.data[0].id).toBe(created.json.id);
  });

  it('keeps teams apart and still answers auth errors for the same URL', async () => {
    const path = '/projects?limit=4';
    const mine = await t.call('GET', path);
    const theirs = await t.call('GET', path, { key: 'other' });
    const ids = (r: Reply) => r.json.data.map((p: { id: string; }) => p.id);
    expect(ids(theirs).some((id: string) => ids(mine).includes(id))).toBe(false);
    expect((await t.call('GET', path, { key: 'none' })).status).toBe(401);
    expect((await t.call('GET', path, { key: 'mock_not_a_key' })).status).toBe(401);
    expect((await t.call('GET', path, { key: 'noApi' })).json.error.code).toBe('plan_limit_exceeded');
  });
});

describe('the page cache is bounded', () => {
  const page = (bytes: number) => ({ body: Buffer.alloc(bytes), current: () => true });

  it('keeps a page from its second build while the first is still current', () => {
    const pages = new PageCache();
    let current = true;
    pages.set('A', '/p', { ...page(10), current: () => current });
    expect(pages.get('A', '/p')).toBeUndefined();
    current = false;
    pages.set('A', '/p', page(10));
    expect(pages.get('A', '/p')).toBeUndefined();
    pages.set('A', '/p', page(10));
    expect(pages.get('A', '/p')).toBeDefined();
  });

  it('keeps at most maxEntries pages, dropping the oldest', () => {
    const pages = new PageCache({ maxEntries: 3, admitOnRepeat: false });
    for (const n of [1, 2, 3, 4]) pages.set('A', `/p${n}`, page(10));
    expect(pages.size).toEqual({ entries: 3, bytes: 30 });
    expect(pages.get('A', '/p1')).toBeUndefined();
    expect(pages.get('A', '/p4')).toBeDefined();
  });

  it('keeps at most maxBytes of bodies, and never a page larger than that', () => {
    const pages = new PageCache({ maxBytes: 100, admitOnRepeat: false });
    for (const n of [1, 2, 3]) pages.set('A', `/p${n}`, page(40));
    expect(pages.size).toEqual({ entries: 2, bytes: 80 });
    pages.set('A', '/big', page(101));
    expect(pages.get('A', '/big')).toBeUndefined();
    pages.set('A', '/p3', page(10));
    expect(pages.size).toEqual({ entries: 2, bytes: 50 });
  });

  it('forgets a page that is no longer current', () => {
    const pages = new PageCache({ admitOnRepeat: false });
    let current = true;
    pages.set('A', '/p', { ...page(10), current: () => current });
    current = false;
    expect(pages.get('A', '/p')).toBeUndefined();
    expect(pages.size).toEqual({ entries: 0, bytes: 0 });
  });
});

describe('a cached page stays the answer across changes', () => {
  // After each change, every page (cached before it, or not) must equal the same page built
  // afresh: the same query under another URL (an unknown parameter is ignored).
  let t: TestMock;
  beforeAll(async () => {
    t = await startTestMock({ seed: 5 });
  });
  afterAll(() => t.close());

  let fresh = 0;
  async function expectCurrent(paths: string[]) {
    for (const path of paths) {
      const cached = await t.call('GET', path);
      const rebuilt = await t.call('GET', `${path}&fresh=${(fresh += 1)}`);
      expect(cached.text, path).toBe(rebuilt.text);
    }
  }

  it('after PATCH, POST and DELETE of records the pages show or embed', async () => {
    const projects = (await walk(t, '/projects?limit=100')).items;
    const assignments = (await walk(t, '/assignments?limit=100')).items;
    const a0 = assignments[0];
    const paths = [
      ...['created_at', 'updated_at', 'title'].flatMap((sort) => [`/projects?limit=5&sort=${sort}`, `/projects?limit=50&sort=${sort}&order=desc`]),
      '/projects?limit=10&q=shared',
      `/assignments?limit=4&project_id=${a0.project_id}`,
      `/assignments?limit=4&employee_id=${a0.employee_id}`,
      '/assignments?limit=20&sort=updated_at',
      '/organizations?limit=5&sort=name',
    ];
    const changes: (() => Promise<unknown>)[] = [
      () => t.call('PATCH', `/projects/${projects[0].id}`, { body: { notes: 'changed' } }),
      () => t.call('PATCH', `/projects/${projects[7].id}`, { body: { title: 'Shared and renamed' } }),
      () => t.call('PATCH', `/projects/${projects[3].id}`, { body: { title: 'AAA first by title' } }),
      () => t.call('PATCH', `/assignments/${a0.id}`, { body: { project_id: projects[9].id } }),
      () => t.call('PATCH', `/employees/${a0.employee_id}`, { body: { first_name: 'Renamed' } }),
      () => t.call('POST', '/assignments', { body: { employee_id: a0.employee_id, project_id: a0.project_id } }),
      () => t.call('DELETE', `/assignments/${assignments[1].id}`),
      () => t.call('POST', '/organizations', { body: { name: 'AAA Organization' } }),
    ];
    await expectCurrent(paths);
    for (const change of changes) {
      await change();
      await expectCurrent(paths);
    }
  });
});
