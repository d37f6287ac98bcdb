// The page cache answers a repeated list request before the framework. It must answer
// exactly what the pipeline answers, and only when the pipeline would answer that page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, startTestMock, type TestMock, walk } from '../testing/mock.js';
import { Authenticator, resolveKeys } from './auth.js';
import { Faults } from './faults.js';
import { PageCache, versionsOf } from './page-cache.js';
import { Collection } from './store.js';

describe('PageCache.answer', () => {
  const keys = resolveKeys();
  const pages = new PageCache(new Authenticator(keys, new Faults(undefined)), { admitOnRepeat: false });
  const projects = new Collection('projects');
  const FALLTHROUGH = 599;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const versions = versionsOf([projects]);
    pages.set('A', '/p?limit=2', {
      body: Buffer.from('{"a":1}'),
      headers: { 'content-type': 'application/json', 'x-page': 'A' },
      scope: 'projects:read',
      current: () => versionsOf([projects]) === versions,
    });
    server = createServer((req, res) => {
      if (!pages.answer(req, res)) res.writeHead(FALLTHROUGH).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (path: string, key: string | undefined, extra: { method?: 'GET' | 'POST'; body?: string; } = {}) => {
    const res = await request(url + path, { method: extra.method ?? 'GET', body: extra.body, headers: key ? { authorization: `Bearer ${key}` } : {} });
    return { status: res.statusCode, page: res.headers['x-page'], text: await res.body.text() };
  };

  it('serves the page to a key of its team that holds the scope', async () => {
    expect(await get('/p?limit=2', keys.teamA)).toEqual({ status: 200, page: 'A', text: '{"a":1}' });
    expect((await get('/p?limit=2', keys.readOnly)).status).toBe(200);
  });

  it.each([
    ['another team', '/p?limit=2', keys.teamB],
    ['a team without API access', '/p?limit=2', keys.noApiAccess],
    ['an unknown key', '/p?limit=2', 'mock_unknown'],
    ['no key', '/p?limit=2', undefined],
    ['another URL', '/p?limit=3', keys.teamA],
  ])('leaves %s to the pipeline', async (_what, path, key) => {
    expect((await get(path, key)).status).toBe(FALLTHROUGH);
  });

  it('leaves a request with a body or another method to the pipeline', async () => {
    expect((await get('/p?limit=2', keys.teamA, { method: 'POST' })).status).toBe(FALLTHROUGH);
    expect((await get('/p?limit=2', keys.teamA, { body: '{}' })).status).toBe(FALLTHROUGH);
  });

  it('leaves a page to the pipeline once a collection it shows has changed', async () => {
    projects.put('B', { id: '0b7f3c1e-6a2d-4c8e-9f10-2a3b4c5d6e7f', created_at: '2026-01-01T00:00:00Z' });
    expect((await get('/p?limit=2', keys.teamA)).status).toBe(FALLTHROUGH);
    expect(pages.get('A', '/p?limit=2')).toBeUndefined();
  });
});

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
  const auth = new Authenticator(resolveKeys(), new Faults(undefined));
  const page = (bytes: number) => ({ body: Buffer.alloc(bytes), headers: {}, scope: 'projects:read' as const, current: () => true });

  it('keeps a page from its second build while the first is still current', () => {
    const pages = new PageCache(auth);
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
    const pages = new PageCache(auth, { maxEntries: 3, admitOnRepeat: false });
    for (const n of [1, 2, 3, 4]) pages.set('A', `/p${n}`, page(10));
    expect(pages.size).toEqual({ entries: 3, bytes: 30 });
    expect(pages.get('A', '/p1')).toBeUndefined();
    expect(pages.get('A', '/p4')).toBeDefined();
  });

  it('keeps at most maxBytes of bodies, and never a page larger than that', () => {
    const pages = new PageCache(auth, { maxBytes: 100, admitOnRepeat: false });
    for (const n of [1, 2, 3]) pages.set('A', `/p${n}`, page(40));
    expect(pages.size).toEqual({ entries: 2, bytes: 80 });
    pages.set('A', '/big', page(101));
    expect(pages.get('A', '/big')).toBeUndefined();
    pages.set('A', '/p3', page(10));
    expect(pages.size).toEqual({ entries: 2, bytes: 50 });
  });

  it('forgets a page that is no longer current', () => {
    const pages = new PageCache(auth, { admitOnRepeat: false });
    let current = true;
    pages.set('A', '/p', { ...page(10), current: () => current });
    current = false;
    expect(pages.get('A', '/p')).toBeUndefined();
    expect(pages.size).toEqual({ entries: 0, bytes: 0 });
  });
});

describe('answers before the framework are the answers through it', () => {
  // Two mocks of the same seed and keys: one answers repeated pages before the framework,
  // the other only through it. Cursors are signed per start, so they are compared as "CURSOR".
  let early: TestMock;
  let pipeline: TestMock;
  const keys = { teamA: 'mock_early_a', teamB: 'mock_early_b', readOnly: 'mock_early_ro', noApiAccess: 'mock_early_none' };
  beforeAll(async () => {
    const options = { seed: 3, keys, deprecate: ['listProjects', 'getAssignment'] };
    early = await startTestMock(options);
    pipeline = await startTestMock({ ...options, cachedPagesFirst: false });
  });
  afterAll(async () => {
    await early.close();
    await pipeline.close();
  });

  const comparable = (r: Reply) => {
    const { date: _date, ...headers } = r.headers;
    return { status: r.status, headers, text: r.text.replace(/"nextCursor":"[^"]+"/, '"nextCursor":"CURSOR"') };
  };

  it.each([
    '/projects',
    '/projects?limit=7&sort=title&order=desc',
    '/projects?limit=3&q=shared',
    '/projects?limit=1000',
    '/projects?limit=0',
    '/projects?limit=5&cursor=',
    '/projects?limit=5&cursor=nonsense',
    '/projects?sort=nope',
    '/projects?limit=2&limit=3',
    '/projects?limit=5&order=asc&unknown=1',
    '/projects?q=Atlas+Migration',
    '/projects/',
    '/projects?limit=%35',
    '/organizations?limit=4&sort=name',
    '/assignments?order=desc&limit=9',
    '/assignments?project_id=not-a-uuid',
    '/cvs?limit=3',
    '/attachments',
    '/attachments?entity_type=project&entity_id=0b7f3c1e-6a2d-4c8e-9f10-2a3b4c5d6e7f',
    '/projects/00000000-0000-0000-0000-000000000000',
    '/projects/not-an-id',
    '/files/0b7f3c1e-6a2d-4c8e-9f10-2a3b4c5d6e7f',
  ])('GET %s, twice', async (path) => {
    for (const key of ['team', 'readOnly', 'other', 'noApi', 'none', 'mock_unknown']) {
      const expected = comparable(await pipeline.call('GET', path, { key, noValidate: true }));
      for (const time of ['first', 'second', 'third']) {
        expect(comparable(await early.call('GET', path, { key, noValidate: true })), `${key}, ${time}`).toEqual(expected);
      }
    }
  });

  it('walks every list page by page, and answers every record by id, alike', async () => {
    for (const list of ['/projects?limit=4&sort=updated_at', '/assignments?limit=6&order=desc', '/organizations?limit=10']) {
      const a = await walk(early, list);
      const b = await walk(pipeline, list);
      expect(a.items).toEqual(b.items);
      expect(a.pages).toBe(b.pages);
    }
    const projects = (await walk(early, '/projects?limit=100')).items;
    const assignments = (await walk(early, '/assignments?limit=100')).items;
    const projectIds: string[] = projects.map((p: { id: string; }) => p.id);
    for (
      const path of [
        ...projectIds.slice(0, 10).map((id) => `/projects/${id}`),
        ...assignments.slice(0, 10).map((a: { id: string; }) => `/assignments/${a.id}`),
      ]
    ) {
      expect(comparable(await early.call('GET', path))).toEqual(comparable(await pipeline.call('GET', path)));
    }
    const byProject = `/assignments?limit=3&project_id=${assignments[0].project_id}`;
    expect((await walk(early, byProject)).items).toEqual((await walk(pipeline, byProject)).items);
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
