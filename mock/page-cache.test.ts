// The page cache answers a repeated list request before the framework. It must answer
// exactly what the pipeline answers, and only when the pipeline would answer that page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Authenticator, resolveKeys } from './auth.js';
import { Faults } from './faults.js';
import { PageCache, versionsOf } from './page-cache.js';
import { Collection } from './store.js';
import { startTestMock, type Reply, type TestMock } from './testing.js';

describe('PageCache.answer', () => {
  const keys = resolveKeys();
  const pages = new PageCache(new Authenticator(keys, new Faults(undefined)));
  const projects = new Collection('projects');
  const FALLTHROUGH = 599;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    pages.set('A', '/p?limit=2', { body: Buffer.from('{"a":1}'), headers: { 'content-type': 'application/json', 'x-page': 'A' }, scope: 'projects:read', collections: [projects], versions: versionsOf([projects]) });
    server = createServer((req, res) => {
      if (!pages.answer(req, res)) res.writeHead(FALLTHROUGH).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (path: string, key: string | undefined, extra: { method?: 'GET' | 'POST'; body?: string } = {}) => {
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

  it.each(['/projects?limit=7&sort=title', '/organizations', '/assignments?order=desc', '/cvs?q=a', '/attachments?entity_type=project&entity_id=0b7f3c1e-6a2d-4c8e-9f10-2a3b4c5d6e7f'])('GET %s twice: same status, headers and bytes', async (path) => {
    const first = await t.call('GET', path);
    expect(first.status).toBe(200);
    const again = await t.call('GET', path);
    expect(comparable(again)).toEqual(comparable(first));
    const readOnly = await t.call('GET', path, { key: 'readOnly' });
    expect(comparable(readOnly)).toEqual(comparable(first));
  });

  it('carries the deprecation headers of a deprecated list', async () => {
    await t.call('GET', '/cvs?limit=3');
    const cached = await t.call('GET', '/cvs?limit=3');
    expect(cached.headers).toMatchObject({ deprecation: expect.stringMatching(/^@\d+$/), sunset: expect.any(String) });
  });

  it('shows a change made after the page was cached', async () => {
    const path = '/organizations?sort=created_at&order=desc&limit=5';
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
    const ids = (r: Reply) => r.json.data.map((p: { id: string }) => p.id);
    expect(ids(theirs).some((id: string) => ids(mine).includes(id))).toBe(false);
    expect((await t.call('GET', path, { key: 'none' })).status).toBe(401);
    expect((await t.call('GET', path, { key: 'mock_not_a_key' })).status).toBe(401);
    expect((await t.call('GET', path, { key: 'noApi' })).json.error.code).toBe('plan_limit_exceeded');
  });
});
