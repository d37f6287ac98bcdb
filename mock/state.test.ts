// Project state rules (§3), the legacy shape (§2, §7) and deprecation signalling (§9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, type TestMock } from './testing/client.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(() => t.close());

async function openProject(): Promise<any> {
  const all = (await t.call('GET', '/projects?limit=100')).json.data;
  return all.find((p: any) => p.status === 'active' && p.stage.kind === 'open' && !p.archived_at);
}

describe('PATCH /projects/{id} (§3)', () => {
  it('accepts {} and changes nothing but updated_at', async () => {
    const p = await openProject();
    const r = await t.call('PATCH', `/projects/${p.id}`, { body: {} });
    expect(r.status).toBe(200);
    const { updated_at: _a, ...before } = p;
    const { updated_at: after, ...rest } = r.json;
    expect(rest).toEqual(before);
    expect(after >= p.updated_at).toBe(true);
  });

  it('ignores read-only fields', async () => {
    const p = await openProject();
    const r = await t.call('PATCH', `/projects/${p.id}`, {
      body: { id: '6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f', created_at: '2000-01-01T00:00:00Z', stage_changed_at: '2000-01-01T00:00:00Z' },
    });
    expect(r.json).toMatchObject({ id: p.id, created_at: p.created_at, stage_changed_at: p.stage_changed_at });
  });

  it('stamps a stage change (stage_key, stage_id, stage object)', async () => {
    const p = await openProject();
    const t0 = new Date().toISOString();
    const r = await t.call('PATCH', `/projects/${p.id}`, { body: { stage_key: 'proposal' } });
    expect(r.json.stage.key).toBe('proposal');
    expect(r.json.stage_changed_at >= t0).toBe(true);
    const back = await t.call('PATCH', `/projects/${p.id}`, { body: { stage: { id: p.stage.id } } });
    expect(back.json.stage).toEqual(p.stage);
    const same = await t.call('PATCH', `/projects/${p.id}`, { body: { stage_id: p.stage.id } });
    expect(same.json.stage_changed_at).toBe(back.json.stage_changed_at);
  });

  it('records the prior stage and status on archiving', async () => {
    const p = await openProject();
    const r = await t.call('PATCH', `/projects/${p.id}`, { body: { archived_at: '2026-02-03T04:05:06.000Z' } });
    expect(r.json).toMatchObject({ archived_at: '2026-02-03T04:05:06.000Z', status: 'archived', archived_from_stage: p.stage, archived_from_status: p.status });
    const q = await openProject();
    const s = await t.call('PATCH', `/projects/${q.id}`, { body: { status: 'archived' } });
    expect(s.json.archived_at).toBeTypeOf('string');
    expect(s.json.archived_from_status).toBe(q.status);
  });

  it('sets closed_at, close_reason and close_reason_category on closing', async () => {
    const p = await openProject();
    const t0 = new Date().toISOString();
    const r = await t.call('PATCH', `/projects/${p.id}`, { body: { close_reason: 'Budget', close_reason_category: 'budget' } });
    expect(r.json).toMatchObject({ close_reason: 'Budget', close_reason_category: 'budget', status: 'closed' });
    expect(r.json.closed_at >= t0).toBe(true);
    expect((await t.call('GET', `/projects/${p.id}`)).json.closed_at).toBe(r.json.closed_at);
  });
});

describe('legacy shape (§2, §7)', () => {
  let legacy: TestMock;
  beforeAll(async () => {
    legacy = await startTestMock({ shape: 'legacy' });
  });
  afterAll(() => legacy.close());

  it('serves the older project and organization shapes', async () => {
    const p = (await legacy.call('GET', '/projects?limit=5')).json.data[0];
    expect(p.client_org_id).toBeTypeOf('string');
    for (const k of ['close_reason', 'closed_at', 'contacts', 'last_activity_at', 'stage_changed_at']) expect(p).not.toHaveProperty(k);
    const o = (await legacy.call('GET', '/organizations?limit=5')).json.data[0];
    expect(o).not.toHaveProperty('last_activity_at');
    expect(o.addresses[0]).not.toHaveProperty('buyer_identifier');
  });

  it('uses the short envelope on project/organization list and update errors only', async () => {
    const list = await legacy.call('GET', '/projects?limit=abc');
    expect(Object.keys(list.json)).toEqual(['error']);
    expect(Object.keys(list.json.error)).toEqual(['code', 'message']);
    const patch = await legacy.call('PATCH', '/projects/6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f', { body: {} });
    expect(patch.json).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    const other = await legacy.call('GET', '/assignments?limit=abc');
    expect(other.json.detail.limit).toBeTypeOf('string');
  });
});

describe('deprecation (§9)', () => {
  let d: TestMock;
  beforeAll(async () => {
    d = await startTestMock({ deprecate: ['listProjects', 'PATCH /employees/{id}'] });
  });
  afterAll(() => d.close());

  it('signals deprecated operations with Deprecation, Sunset and Link', async () => {
    const r = await d.call('GET', '/projects?limit=1');
    const dep = /^@(\d+)$/.exec(r.headers.deprecation ?? '');
    expect(dep).not.toBeNull();
    const sunset = Date.parse(r.headers.sunset!);
    expect(new Date(sunset).toUTCString()).toBe(r.headers.sunset);
    expect(sunset).toBeGreaterThanOrEqual(Number(dep![1]) * 1000);
    expect(r.headers.link).toMatch(/rel="deprecation"/);
    expect(r.headers.link).toMatch(/rel="sunset"/);
    expect((await d.call('GET', '/cvs?limit=1')).headers.deprecation).toBeUndefined();
  });

  it('marks them deprecated: true in the served OpenAPI document', async () => {
    const doc = (await d.call('GET', '/openapi.json')).json;
    expect(doc.paths['/api/public/v1/projects'].get.deprecated).toBe(true);
    expect(doc.paths['/api/public/v1/employees/{id}'].patch.deprecated).toBe(true);
    expect(doc.paths['/api/public/v1/cvs'].get.deprecated).toBeUndefined();
  });

  it('rejects unknown operations at start', async () => {
    await expect(startTestMock({ deprecate: ['noSuchOperation'] })).rejects.toThrow(/noSuchOperation/);
  });
});
