// A read answered before the framework must be the framework's answer, byte for byte and
// header for header, and the matcher must leave every request it does not take as is to the
// framework. One mock state serves two fastify apps, with and without the direct reads, so the
// two answer from the same records, page cache and cursor key.
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../reference/app.js';
import { createState, type MockState } from '../state.js';
import { API } from '../testing/client.js';
import { DirectReads } from './direct-reads.js';
import { fastLayer } from './index.js';
import { PageCache } from './page-cache.js';

/** Two servers on one state: the reference with the fast layer, and the reference alone. */
async function fastAndReference(state: MockState): Promise<FastifyInstance[]> {
  const fast = fastLayer(state.ctx, state.table);
  return [await buildServer(state.ctx, fast.table, fast.front), await buildServer(state.ctx, state.table)];
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

async function send(origin: string, method: string, path: string, token: string | undefined, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(origin + path, { method: method as 'GET', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.body.text();
  const { date: _date, ...rest } = res.headers;
  return { status: res.statusCode, headers: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)])), text };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('DirectReads.answer', () => {
  const FALLTHROUGH = 599;
  let state: MockState;
  let server: Server;
  let origin: string;
  let projectId: string;

  beforeAll(async () => {
    state = await createState({ seed: 2, deprecate: ['getProject'] });
    const direct = new DirectReads(state.ctx, state.table, new PageCache());
    server = createServer((req, res) => {
      if (!direct.answer(req, res)) res.writeHead(FALLTHROUGH).end();
    });
    origin = await listen(server);
    projectId = JSON.parse((await send(origin, 'GET', `${API}/projects?limit=1`, state.keys.teamA)).text).data[0].id;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await state.dispose();
  });

  const get = (path: string, token: string | null = state.keys.teamA) => send(origin, 'GET', API + path, token ?? undefined);

  it('answers a plain GET of a list or a record, with its deprecation headers', async () => {
    expect((await get('/projects?limit=2&order=desc')).status).toBe(200);
    expect((await get('/assignments')).status).toBe(200);
    expect((await get('/projects?limit=2', state.keys.readOnly)).status).toBe(200);
    const record = await get(`/projects/${projectId}`);
    expect(record.status).toBe(200);
    expect(record.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', deprecation: expect.stringMatching(/^@\d+$/) });
  });

  it.each([
    ['a percent-encoded query', '/projects?limit=%35'],
    ['a + in the query', '/projects?q=Atlas+Migration'],
    ['a repeated parameter', '/projects?limit=2&limit=3'],
    ['a parameter without a value', '/projects?limit'],
    ['an empty pair', '/projects?limit=2&&order=asc'],
    ['a trailing slash', '/projects/'],
    ['another case', '/Projects'],
    ['a double slash', '//projects'],
    ['a malformed id', '/projects/not-an-id'],
    ['a percent-encoded id', `/projects/%30${'0'.repeat(7)}-0000-0000-0000-000000000000`],
    ['an unknown path', '/nowhere'],
    ['a write-only route', '/employees'],
    ['an error of the handler', '/projects?limit=0'],
    ['a tampered cursor', '/projects?cursor=nonsense'],
    ["another team's record", '/projects/0b7f3c1e-6a2d-4c8e-9f10-2a3b4c5d6e7f'],
  ])('leaves %s to the framework', async (_what, path) => {
    expect((await get(path)).status).toBe(FALLTHROUGH);
  });

  it.each([
    ['no key', null],
    ['an unknown key', 'mock_unknown'],
    ['a key without API access', 'noApiAccess'],
  ])('leaves a request with %s to the framework', async (_what, key) => {
    const token = key === 'noApiAccess' ? state.keys.noApiAccess : key;
    expect((await get('/projects', token)).status).toBe(FALLTHROUGH);
  });

  it('leaves other methods and requests with a body to the framework', async () => {
    expect((await send(origin, 'POST', `${API}/projects`, state.keys.teamA)).status).toBe(FALLTHROUGH);
    expect((await send(origin, 'HEAD', `${API}/projects`, state.keys.teamA)).status).toBe(FALLTHROUGH);
    expect((await send(origin, 'GET', `${API}/projects`, state.keys.teamA, {})).status).toBe(FALLTHROUGH);
  });
});

describe("a direct answer is the framework's answer", () => {
  let state: MockState;
  let apps: FastifyInstance[];
  let direct: string;
  let framework: string;
  const ids: Record<'project' | 'otherProject' | 'assignment' | 'employee', string[]> = { project: [], otherProject: [], assignment: [], employee: [] };

  beforeAll(async () => {
    state = await createState({ seed: 4, deprecate: ['listProjects', 'getAssignment'] });
    apps = await fastAndReference(state);
    const [first, second] = await Promise.all(apps.map((app) => app.listen({ port: 0, host: '127.0.0.1' })));
    direct = first!;
    framework = second!;
    const data = async (path: string, token: string) => JSON.parse((await send(framework, 'GET', API + path, token)).text).data as Record<string, string>[];
    ids.project = (await data('/projects?limit=100', state.keys.teamA)).map((p) => p.id!);
    ids.otherProject = (await data('/projects?limit=3', state.keys.teamB)).map((p) => p.id!);
    const assignments = await data('/assignments?limit=100', state.keys.teamA);
    ids.assignment = assignments.map((a) => a.id!);
    ids.employee = assignments.map((a) => a.employee_id!);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await state.dispose();
  });

  // Requests as data: the path, query and key are drawn; ids and cursors are filled in from the
  // mock's own records and from the last page either server answered.
  const idRef = fc.constantFrom('project', 'otherProject', 'assignment', 'random', 'malformed', 'upper', 'nil');
  const value = fc.constantFrom('1', '3', '37', '100', '101', '0', '-1', 'abc', '', 'asc', 'desc', 'title', 'name', 'updated_at', 'nope', 'project', 'a',
    'shared');
  const param = fc.oneof(
    fc.tuple(fc.constantFrom('limit', 'order', 'sort', 'q', 'entity_type', 'unknown'), value.map((v) => ({ literal: v }))),
    fc.tuple(fc.constantFrom('cursor'), fc.constantFrom({ cursor: 'last' }, { literal: 'nonsense' }, { literal: '' })),
    fc.tuple(fc.constantFrom('project_id', 'employee_id', 'entity_id'), idRef.map((ref) => ({ ref }))),
  );
  const read = fc.record({
    kind: fc.constant('read' as const),
    route: fc.constantFrom('/projects', '/projects/{id}', '/assignments', '/assignments/{id}', '/organizations', '/cvs', '/attachments', '/files/{id}'),
    id: idRef,
    params: fc.array(param, { maxLength: 4 }),
    key: fc.constantFrom('teamA', 'teamA', 'teamA', 'teamB', 'readOnly', 'noApiAccess', 'none'),
  });
  const change = fc.record({
    kind: fc.constant('change' as const),
    what: fc.constantFrom('notes', 'title', 'organization', 'assignment', 'employee'),
    n: fc.nat(99),
  });

  let lastCursor = '';

  function idOf(ref: string, n: number): string {
    const pick = (list: string[]) => list[n % list.length]!;
    if (ref === 'project') return pick(ids.project);
    if (ref === 'otherProject') return pick(ids.otherProject);
    if (ref === 'assignment') return pick(ids.assignment);
    if (ref === 'upper') return pick(ids.project).toUpperCase();
    if (ref === 'nil') return '00000000-0000-0000-0000-000000000000';
    if (ref === 'malformed') return 'not-an-id';
    return '0b7f3c1e-6a2d-4c8e-9f10-2a3b4c5d6e7f';
  }

  async function apply(op: { what: string; n: number; }): Promise<void> {
    const token = state.keys.teamA;
    const project = ids.project[op.n % ids.project.length]!;
    const bodies: Record<string, [string, string, unknown]> = {
      notes: ['PATCH', `/projects/${project}`, { notes: `note ${op.n}` }],
      title: ['PATCH', `/projects/${project}`, { title: `${String.fromCharCode(65 + (op.n % 26))} retitled` }],
      organization: ['POST', '/organizations', { name: `Org ${op.n}` }],
      assignment: ['POST', '/assignments', { employee_id: ids.employee[op.n % ids.employee.length], project_id: project }],
      employee: ['PATCH', `/employees/${ids.employee[op.n % ids.employee.length]}`, { first_name: `Name${op.n}` }],
    };
    const [method, path, body] = bodies[op.what]!;
    expect((await send(op.n % 2 === 0 ? direct : framework, method, API + path, token, body)).status).toBeLessThan(300);
  }

  it.each([
    '/projects',
    '/projects?limit=7&sort=title&order=desc',
    '/projects?limit=3&q=shared',
    '/projects?limit=1000',
    '/projects?limit=5&cursor=',
    '/projects?sort=nope',
    '/projects?limit=5&order=asc&unknown=1',
    '/organizations?limit=4&sort=name',
    '/assignments?order=desc&limit=9',
    '/assignments?project_id=not-a-uuid',
    '/cvs?limit=3',
    '/attachments',
    '/attachments?entity_type=project&entity_id=0b7f3c1e-6a2d-4c8e-9f10-2a3b4c5d6e7f',
    '/projects/00000000-0000-0000-0000-000000000000',
    '/files/0b7f3c1e-6a2d-4c8e-9f10-2a3b4c5d6e7f',
  ])('for GET %s, three times, with every key', async (path) => {
    for (const key of ['teamA', 'teamB', 'readOnly', 'noApiAccess'] as const) {
      for (const time of ['first', 'second', 'third']) {
        const expected = await send(framework, 'GET', API + path, state.keys[key]);
        expect(await send(direct, 'GET', API + path, state.keys[key]), `${key}, ${time}`).toEqual(expected);
      }
    }
  });

  it('for every page of a walk and every record by id', async () => {
    for (const list of ['/projects?limit=4&sort=updated_at', '/assignments?limit=6&order=desc', '/organizations?limit=10']) {
      let path: string | undefined = API + list;
      while (path) {
        const got = await send(direct, 'GET', path, state.keys.teamA);
        expect(got).toEqual(await send(framework, 'GET', path, state.keys.teamA));
        const cursor = /"nextCursor":"([^"]+)"/.exec(got.text)?.[1];
        path = cursor ? `${API}${list}&cursor=${cursor}` : undefined;
      }
    }
    for (const path of [...ids.project.slice(0, 10).map((id) => `/projects/${id}`), ...ids.assignment.slice(0, 10).map((id) => `/assignments/${id}`)]) {
      expect(await send(direct, 'GET', API + path, state.keys.teamA)).toEqual(await send(framework, 'GET', API + path, state.keys.teamA));
    }
  });

  it('for random reads between random changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof({ weight: 5, arbitrary: read }, { weight: 1, arbitrary: change }), { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const [i, op] of ops.entries()) {
          if (op.kind === 'change') {
            await apply(op);
            continue;
          }
          const query = op.params.map(([name, v]) => {
            const text = 'literal' in v ? v.literal : 'cursor' in v ? lastCursor : idOf(v.ref, i);
            return `${name}=${text}`;
          });
          const path = API + op.route.replace('{id}', idOf(op.id, i)) + (query.length ? `?${query.join('&')}` : '');
          const token = op.key === 'none' ? undefined : state.keys[op.key as keyof typeof state.keys];
          const expected = await send(framework, 'GET', path, token);
          const got = await send(direct, 'GET', path, token);
          expect(got, path).toEqual(expected);
          lastCursor = /"nextCursor":"([^"]+)"/.exec(got.text)?.[1] ?? lastCursor;
        }
      }),
      { numRuns: 60, seed: 20261123 },
    );
  });
});

/** Sends every request on one connection at once, reads nothing for `pauseMs`, then reads the bodies of as many responses. */
async function pipelined(origin: string, paths: string[], token: string, pauseMs: number): Promise<string[]> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (d: Buffer) => chunks.push(d));
  socket.pause();
  socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n\r\n`).join(''));
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  socket.resume();
  const bodies: string[] = [];
  const all = () => Buffer.concat(chunks);
  while (bodies.length < paths.length) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    let data = all();
    bodies.length = 0;
    while (bodies.length < paths.length) {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) break;
      const length = Number(/content-length: (\d+)/i.exec(data.subarray(0, end).toString('latin1'))?.[1]);
      if (data.length < end + 4 + length) break;
      bodies.push(data.subarray(end + 4, end + 4 + length).toString('utf8'));
      data = data.subarray(end + 4 + length);
    }
  }
  socket.destroy();
  return bodies;
}

describe('pages built in reused memory', () => {
  // A page answered before the framework is built in memory reused from one page to the next
  // (page-arena.ts); node may still hold a page's bytes after the write, when a pipelined
  // request waits its turn or the client reads late. Each page must still arrive whole.
  let state: MockState;
  let apps: FastifyInstance[];

  beforeAll(async () => {
    state = await createState({ seed: 6 });
    apps = await fastAndReference(state);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await state.dispose();
  });

  it('arrive intact to a client that pipelines 60 requests and reads them late', async () => {
    const [direct, framework] = await Promise.all(apps.map((app) => app.listen({ port: 0, host: '127.0.0.1' })));
    const paths = Array.from({ length: 60 }, (_, i) => `${API}/projects?limit=${40 + i}&order=${i % 2 ? 'asc' : 'desc'}`);
    const expected = await Promise.all(paths.map(async (p) => (await send(framework!, 'GET', p, state.keys.teamA)).text));
    const got = await pipelined(direct!, paths, state.keys.teamA, 300);
    expect(got.map((body, i) => body === expected[i])).toEqual(paths.map(() => true));
  });
});
