// The ledger against the reference mock: pre-existing records come back exactly as found
// (fields absent before are removed again), server-stamped fields are reported when they cannot
// be written back, created records are deleted or counted as left, and everything is journaled.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { requireConfig } from '../../contract/config.js';
import { readAccounting } from '../../contract/journal.js';
import type { Rec } from '../../contract/json.js';
import type { Settings } from '../../contract/settings.js';
import { type RunningMock, start } from '../../mock/index.js';
import { differingFields, Ledger } from './ledger.js';
import { resetTrafficForTests, stopTraffic } from './run/context.js';
import { useJournal } from './run/journal.js';
import type { ProvidedTarget } from './run/target.js';
import { ApiClient } from './transport/client.js';

let mock: RunningMock;
let dir: string;
let journalFile: string;

beforeAll(async () => {
  mock = await start({ port: 0, seed: 11 });
  dir = mkdtempSync(join(tmpdir(), 'ledger-test-'));
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => resetTrafficForTests());

let n = 0;
function fixture(extra: Record<string, string> = {}, baseUrl?: string): { api: ApiClient; ledger: Ledger; target: ProvidedTarget; } {
  const settings = requireConfig({ ...mock.settings, ...(baseUrl ? { CONFORMANCE_BASE_URL: baseUrl } : {}), ...extra }) as Settings & { baseUrl: string; };
  journalFile = join(dir, `journal-${n++}.jsonl`);
  useJournal(journalFile);
  const target: ProvidedTarget = { settings, runId: 'cfm-test', seed: 1, kind: 'deployment', journal: journalFile };
  const api = new ApiClient(settings);
  return { api, ledger: new Ledger(() => api, target), target };
}

async function projects(api: ApiClient): Promise<Rec[]> {
  return ((await api.send({ method: 'GET', path: '/projects', query: { limit: 100 } })).body as { data: Rec[]; }).data;
}
const get = async (api: ApiClient, id: unknown) => (await api.send({ method: 'GET', path: `/projects/${String(id)}` })).body as Rec;
const withoutUpdatedAt = (p: Rec) => JSON.stringify({ ...p, updated_at: undefined });

describe('pre-existing records', () => {
  test('closing an open project is undone as far as the API allows: title and status written back, the close fields (absent before) reported', async () => {
    const { api, ledger } = fixture();
    const open = (await projects(api)).find((p) => !p.closed_at && !p.archived_at)!;
    const before = await ledger.before('projects', open);
    expect(before).toEqual(await get(api, open.id));
    const closed = await api.send({
      method: 'PATCH',
      path: `/projects/${open.id}`,
      json: { close_reason: 'conformance x', close_reason_category: 'other', title: 'changed' },
    });
    expect((closed.body as Rec).closed_at).toBeTypeOf('string');
    const [outcome] = await ledger.cleanup();
    // null is refused where §2 does not type a field nullable, and no other way to remove a field is shown
    expect(outcome).toMatchObject({ resource: 'projects', id: open.id, back: false });
    expect([...outcome!.differences].sort()).toEqual(['close_reason', 'close_reason_category', 'closed_at']);
    const now = await get(api, open.id);
    expect({ title: now.title, status: now.status }).toEqual({ title: before.title, status: before.status });
  });

  test('archiving: the server-stamped archived_from_* cannot be written back, and the report says which fields differ', async () => {
    const { api, ledger } = fixture();
    const open = (await projects(api)).filter((p) => !p.closed_at && !p.archived_at)[1]!;
    await ledger.before('projects', open);
    await api.send({ method: 'PATCH', path: `/projects/${open.id}`, json: { archived_at: new Date().toISOString() } });
    const [outcome] = await ledger.cleanup();
    expect(outcome).toMatchObject({ back: false, differences: ['archived_from_stage', 'archived_from_status'] });
    const now = await get(api, open.id);
    expect(now.archived_at).toBeUndefined();
    expect(now.status).toBe(open.status);
  });

  test('a record snapshotted twice keeps its first snapshot; patching() restores only the fields it names', async () => {
    const { api, ledger } = fixture();
    const p = (await projects(api))[2]!;
    ledger.patching('projects', p, ['title']);
    await api.send({ method: 'PATCH', path: `/projects/${p.id}`, json: { title: 'first change' } });
    await ledger.before('projects', p); // upgraded to a whole snapshot; the title as found wins
    await api.send({ method: 'PATCH', path: `/projects/${p.id}`, json: { notes: 'second change' } });
    const [outcome] = await ledger.cleanup();
    expect(outcome!.back).toBe(true);
    expect(withoutUpdatedAt(await get(api, p.id))).toBe(withoutUpdatedAt(p));
  });

  test('irreversible(): fields absent now, or stamped by the server, cannot be undone, except on scratch projects', () => {
    const id = '0b6f4c1e-8d2a-4f3b-9c4d-5e6f7a8b9c0d';
    const { ledger } = fixture({ CONFORMANCE_SCRATCH_PROJECTS: id });
    expect(
      ledger.irreversible({ id: 'x', closed_at: 't', close_reason: 'r', close_reason_category: 'c', status: 'closed' }, [
        'closed_at',
        'close_reason',
        'close_reason_category',
        'status',
      ]),
    ).toBeUndefined();
    expect(ledger.irreversible({ id: 'x', status: 'active' }, ['closed_at', 'status'])).toMatch(
      /would add closed_at, which the API may not let a request remove.*CONFORMANCE_SCRATCH_PROJECTS/,
    );
    expect(ledger.irreversible({ id: 'x' }, [], ['stage_changed_at'])).toMatch(/the server stamps stage_changed_at/);
    expect(ledger.irreversible({ id }, ['closed_at'], ['stage_changed_at'])).toBeUndefined();
  });

  test('differingFields: absent and present differ, updated_at never counts, key order does not matter', () => {
    expect(differingFields({ a: 1, b: { x: 1, y: 2 }, updated_at: 1 }, { b: { y: 2, x: 1 }, c: null, updated_at: 2 })).toEqual(['a', 'c']);
  });
});

describe('a deployment whose GET by id answers another record', () => {
  test('is not snapshotted, so nothing of another record is ever written over this one', async () => {
    const faulty = await start({ port: 0, seed: 11, fault: 'get-by-id-wrong-record' });
    try {
      const settings = requireConfig(faulty.settings) as Settings & { baseUrl: string; };
      const api = new ApiClient(settings);
      const ledger = new Ledger(() => api, { settings, runId: 'cfm-test', seed: 1, kind: 'deployment' });
      const p = (await projects(api))[0]!;
      await expect(ledger.before('projects', p)).rejects.toThrow(/GET answered the record/);
      expect(await ledger.cleanup()).toEqual([]);
      await api.close();
    } finally {
      await faulty.close();
    }
  });
});

describe('records the run created', () => {
  test('deleted at cleanup; those without a delete, or whose delete failed, are leftovers with ids', async () => {
    const { api, ledger } = fixture({ CONFORMANCE_PATH_FILE_DELETE: '' });
    const project = (await projects(api))[0]!;
    const emp = (await api.send({ method: 'POST', path: '/employees', json: { first_name: 'conformance cfm-test' } })).body as Rec;
    ledger.keep('employee', String(emp.id));
    const asg = (await api.send({ method: 'POST', path: '/assignments', json: { employee_id: emp.id, project_id: project.id } })).body as Rec;
    ledger.add('assignment', String(asg.id));
    ledger.add('file', '0b6f4c1e-8d2a-4f3b-9c4d-5e6f7a8b9c0d');
    await ledger.cleanup();
    expect((await api.send({ method: 'GET', path: `/assignments/${asg.id}` })).status).toBe(404);
    const { leftovers } = readAccounting(journalFile);
    expect(leftovers).toEqual({
      // named as the create answered it: a person can tell it for the run's
      employees: { count: 1, ids: [emp.id], why: ['the API offers no way to delete it'], names: { [String(emp.id)]: expect.stringContaining('cfm-test') } },
      files: { count: 1, ids: ['0b6f4c1e-8d2a-4f3b-9c4d-5e6f7a8b9c0d'], why: ['not deleted: CONFORMANCE_PATH_FILE_DELETE is not set'] },
    });
  });
});

describe('cleanup after the target stopped answering', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    silent = createServer((s) => {
      sockets.push(s);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  });
  afterAll(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });

  test('one short attempt, then every remaining record is reported left, without waiting for each', async () => {
    const { ledger } = fixture({ CONFORMANCE_TIMEOUT_MS: '20000' }, `http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    for (let i = 0; i < 5; i += 1) ledger.add('assignment', `0b6f4c1e-8d2a-4f3b-9c4d-5e6f7a8b9c0${i}`);
    stopTraffic({ cause: 'target-unresponsive', message: 'test' });
    const started = Date.now();
    await ledger.cleanup();
    expect(Date.now() - started).toBeLessThan(8_000);
    const { leftovers } = readAccounting(journalFile);
    expect(leftovers.assignments!.count).toBe(5);
    expect(leftovers.assignments!.why.join()).toMatch(/did not answer/);
  }, 20_000);
});
