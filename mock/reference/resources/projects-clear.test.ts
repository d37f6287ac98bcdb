// The mock's reading for clearing a project field: null removes it (absent, as before it was
// set), so a client can return a project exactly to how it found it. The §3 rules are unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, type TestMock } from '../../testing/client.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(() => t.close());

const without = (p: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(p).filter(([k]) => !keys.includes(k)));

async function openProjects(): Promise<any[]> {
  const all = (await t.call('GET', '/projects?limit=100')).json.data;
  return all.filter((p: any) => p.status === 'active' && !p.archived_at && !p.closed_at);
}

describe('PATCH /projects/{id}: null clears a field', () => {
  it('closing, then the close fields as null with the old status, gives the project back as it was but updated_at', async () => {
    const [p] = await openProjects();
    const closed = await t.call('PATCH', `/projects/${p.id}`, { body: { close_reason: 'conformance', close_reason_category: 'other' } });
    expect(closed.json).toMatchObject({ status: 'closed', close_reason: 'conformance' });
    const back = await t.call('PATCH', `/projects/${p.id}`, { body: { status: p.status, closed_at: null, close_reason: null, close_reason_category: null } });
    expect(back.status).toBe(200);
    expect(without(back.json, 'updated_at')).toEqual(without(p, 'updated_at'));
    expect(without((await t.call('GET', `/projects/${p.id}`)).json, 'updated_at')).toEqual(without(p, 'updated_at'));
  });

  it('null on a close field does not close, and clears an optional field', async () => {
    const [, p] = await openProjects();
    const r = await t.call('PATCH', `/projects/${p.id}`, { body: { closed_at: null, notes: null } });
    expect(r.status).toBe(200);
    expect(r.json.status).toBe(p.status);
    expect(r.json).not.toHaveProperty('closed_at');
    expect(r.json).not.toHaveProperty('notes');
  });

  it('archived_at: null unarchives; the server-stamped archived_from_* stay (null is ignored for them)', async () => {
    const [, , p] = await openProjects();
    await t.call('PATCH', `/projects/${p.id}`, { body: { archived_at: '2026-02-03T04:05:06.000Z' } });
    const r = await t.call('PATCH', `/projects/${p.id}`, {
      body: { status: p.status, archived_at: null, archived_from_stage: null, archived_from_status: null },
    });
    expect(r.json).not.toHaveProperty('archived_at');
    expect(r.json).toMatchObject({ status: p.status, archived_from_stage: p.stage, archived_from_status: p.status });
  });

  it('a value of the wrong type is still refused with a per-field detail', async () => {
    const [p] = await openProjects();
    const r = await t.call('PATCH', `/projects/${p.id}`, { body: { title: 5, notes: null } });
    expect(r.status).toBe(400);
    expect(r.json.detail).toHaveProperty('title');
    expect(r.json.detail).not.toHaveProperty('notes');
  });
});
