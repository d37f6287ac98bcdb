// The preflight: each failure has a stable code and one line naming the problem, found within
// its short deadline; a conforming deployment passes it, even an empty one.
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningMock, start } from '../../mock/index.js';
import { preflight, type PreflightOptions } from './preflight.js';

let mock: RunningMock;
let keys: PreflightOptions['keys'];
beforeAll(async () => {
  mock = await start({ port: 0, seed: 3 });
  keys = {
    team: mock.settings.CONFORMANCE_API_KEY,
    otherTeam: mock.settings.CONFORMANCE_API_KEY_OTHER_TEAM,
    readOnly: mock.settings.CONFORMANCE_API_KEY_READ_ONLY,
  };
});
afterAll(() => mock.close());

const deployment = (o: Partial<PreflightOptions> = {}): PreflightOptions => ({
  baseUrl: mock.url,
  keys,
  timeoutMs: 1_000,
  checkTeams: true,
  strict: true,
  ...o,
});

/** A stub API: each key sees its own pages (path → data), anything else is 401. */
function stub(
  pages: Record<string, Record<string, { id: string; }[]>>,
  other: (path: string) => [number, string, string] | undefined = () => undefined,
): Promise<Server> {
  const server = createHttpServer((req, res) => {
    const special = other(req.url ?? '');
    if (special) {
      res.writeHead(special[0], { 'content-type': special[1] });
      return void res.end(special[2]);
    }
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const lists = pages[key];
    if (!lists) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return void res.end('{"error":{"code":"unauthorized","message":"no"}}');
    }
    const path = (req.url ?? '').replace(/^\/api\/public\/v1/, '').replace(/\?.*$/, '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: lists[path] ?? [], page: { hasMore: false, nextCursor: '' } }));
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}
const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

describe('preflight against the reference mock', () => {
  test('passes with the right keys, and hands back the first project page', async () => {
    const r = await preflight(deployment());
    expect(r.ok).toBe(true);
    expect(r.ok && r.firstProjects.length).toBeGreaterThan(0);
  });

  test('wrong keys: key_rejected, naming the settings, never the values', async () => {
    const r = await preflight(deployment({ keys: { team: 'wrong-a-123', otherTeam: keys.otherTeam } }));
    expect(r).toMatchObject({ ok: false, code: 'key_rejected', message: expect.stringMatching(/^CONFORMANCE_API_KEY \(401\) was refused/) });
    expect(JSON.stringify(r)).not.toContain('wrong-a-123');
    const both = await preflight(deployment({ keys: { team: 'x1', otherTeam: 'x2', readOnly: 'x3' } }));
    expect(both.ok || both.message).toMatch(
      /CONFORMANCE_API_KEY \(401\) and CONFORMANCE_API_KEY_OTHER_TEAM \(401\) and CONFORMANCE_API_KEY_READ_ONLY \(401\) were refused/,
    );
  });

  test('two keys of one team: keys_same_team', async () => {
    const r = await preflight(deployment({ keys: { team: keys.team, otherTeam: keys.readOnly } }));
    expect(r).toMatchObject({ ok: false, code: 'keys_same_team' });
  });

  test('a base URL that is not the API: not_the_api on a deployment, left to the checks on the bundled mock', async () => {
    expect(await preflight(deployment({ baseUrl: `${mock.url}/nowhere` }))).toMatchObject({ ok: false, code: 'not_the_api' });
    expect(await preflight(deployment({ baseUrl: `${mock.url}/nowhere`, strict: false, checkTeams: false }))).toMatchObject({ ok: true });
  });

  test("a scratch project that is not team A's: scratch_project_not_found", async () => {
    const r = await preflight(deployment({ scratchProjects: ['0b6f4c1e-8d2a-4f3b-9c4d-5e6f7a8b9c0d'] }));
    expect(r).toMatchObject({ ok: false, code: 'scratch_project_not_found' });
  });
});

describe('the two teams, on any conforming deployment', () => {
  const a = { id: 'a1' }, b = { id: 'b1' };
  test.each([
    ['both empty everywhere: passes, with a note', { A: {}, B: {} }, true],
    ['projects empty for both, organizations differ', { A: { '/organizations': [a] }, B: { '/organizations': [b] } }, true],
    ['one team empty, the other not', { A: { '/projects': [a] }, B: {} }, true],
    ['the same first page', { A: { '/projects': [a, b] }, B: { '/projects': [a, b] } }, false],
  ])('%s', async (_name, data, ok) => {
    const server = await stub({ A: data.A, B: data.B });
    try {
      const r = await preflight({ baseUrl: urlOf(server), keys: { team: 'A', otherTeam: 'B' }, timeoutMs: 1_000, checkTeams: true, strict: true });
      expect(r.ok, JSON.stringify(r)).toBe(ok);
      if (!r.ok) expect(r.code).toBe('keys_same_team');
      if (r.ok && Object.keys(data.A).length === 0) expect(r.notes.join()).toMatch(/left to the isolation checks/);
    } finally {
      server.close();
    }
  });

  test('a 5xx is not a misconfiguration: the checks will report it', async () => {
    const server = await stub({}, () => [500, 'application/json', '{}']);
    try {
      const r = await preflight({ baseUrl: urlOf(server), keys: { team: 'A', otherTeam: 'B' }, timeoutMs: 1_000, checkTeams: true, strict: true });
      expect(r.ok).toBe(true);
      expect(r.ok && r.notes[0]).toMatch(/answered 500/);
    } finally {
      server.close();
    }
  });

  test('an HTML page where the API should be: not_the_api', async () => {
    const server = await stub({}, () => [200, 'text/html', '<html>sign in</html>']);
    try {
      const r = await preflight({ baseUrl: urlOf(server), keys: { team: 'A', otherTeam: 'B' }, timeoutMs: 1_000, checkTeams: true, strict: true });
      expect(r).toMatchObject({ ok: false, code: 'not_the_api', message: expect.stringContaining('text/html') });
    } finally {
      server.close();
    }
  });
});

describe('an absent or silent target, within the deadline', () => {
  test('a closed port: target_unreachable at once', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createTcpServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const started = Date.now();
    const r = await preflight(deployment({ baseUrl: `http://127.0.0.1:${port}` }));
    expect(r).toMatchObject({ ok: false, code: 'target_unreachable', message: expect.stringContaining('connection refused') });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('a port that accepts and never answers: target_not_answering after one request timeout', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((s) => {
      sockets.push(s);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const started = Date.now();
      const r = await preflight(deployment({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 800 }));
      expect(r).toMatchObject({ ok: false, code: 'target_not_answering', message: expect.stringContaining('sent no response within 0.8 s') });
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});
