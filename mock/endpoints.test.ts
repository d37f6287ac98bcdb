// Every §4 endpoint answers with a schema-valid body; auth, ids, isolation and errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, type TestMock, uploadForm } from './testing/client.js';

let t: TestMock;
let projectId: string;
let otherProjectId: string;
let employeeId: string;
let orgId: string;

beforeAll(async () => {
  t = await startTestMock();
  projectId = (await t.call('GET', '/projects?limit=1')).json.data[0].id;
  otherProjectId = (await t.call('GET', '/projects?limit=1', { key: 'other' })).json.data[0].id;
  employeeId = (await t.call('GET', '/assignments?limit=1')).json.data[0].employee_id;
  orgId = (await t.call('GET', '/organizations?limit=1')).json.data[0].id;
});
afterAll(() => t.close());

describe('endpoints (§4)', () => {
  it('serves every list with a valid page', async () => {
    for (const path of ['/projects', '/assignments', '/organizations', '/cvs', `/attachments?entity_type=project&entity_id=${projectId}`]) {
      const r = await t.call('GET', path);
      expect(r.status, path).toBe(200);
    }
  });

  it('gets, patches and reads back a project', async () => {
    expect((await t.call('GET', `/projects/${projectId}`)).json.id).toBe(projectId);
    const r = await t.call('PATCH', `/projects/${projectId}`, { body: { title: 'Renamed', unknown_field: 1, id: 'ignored' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: projectId, title: 'Renamed' });
    expect((await t.call('GET', `/projects/${projectId}`)).json.title).toBe('Renamed');
  });

  it('creates, gets, patches and deletes an assignment (with the embedded employee)', async () => {
    const c = await t.call('POST', '/assignments', { body: { employee_id: employeeId, project_id: projectId, role: 'Dev' } });
    expect(c.status).toBe(201);
    expect(c.json.employee.id).toBe(employeeId);
    expect((await t.call('GET', `/assignments/${c.json.id}`)).json.role).toBe('Dev');
    expect((await t.call('PATCH', `/assignments/${c.json.id}`, { body: { role: 'Lead' } })).json.role).toBe('Lead');
    const listed = await t.call('GET', `/assignments?project_id=${projectId}&limit=100`);
    expect(listed.json.data.map((a: { id: string; }) => a.id)).toContain(c.json.id);
    const d = await t.call('DELETE', `/assignments/${c.json.id}`);
    expect(d.json).toEqual({ success: true });
    expect((await t.call('GET', `/assignments/${c.json.id}`)).status).toBe(404);
  });

  it('requires employee_id and project_id on assignment create, and own-team references', async () => {
    for (const body of [{ project_id: projectId }, { employee_id: employeeId }]) {
      const r = await t.call('POST', '/assignments', { body });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('bad_request');
    }
    const cross = await t.call('POST', '/assignments', { body: { employee_id: employeeId, project_id: otherProjectId } });
    expect(cross.status).toBe(400);
    expect(cross.json.detail.project_id).toBeTypeOf('string');
  });

  it('creates and patches employees; first_name is required', async () => {
    const c = await t.call('POST', '/employees', { body: { first_name: 'Ada', is_active: true } });
    expect(c.status).toBe(201);
    const p = await t.call('PATCH', `/employees/${c.json.id}`, { body: { is_active: false, last_name: 'L' } });
    expect(p.json).toMatchObject({ is_active: false, last_name: 'L', first_name: 'Ada' });
    const bad = await t.call('POST', '/employees', { body: { last_name: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toEqual({ first_name: expect.any(String) });
    expect((await t.call('GET', '/employees')).status).toBe(404); // §4 shows no employee list
  });

  it('creates and patches organizations with addresses', async () => {
    const c = await t.call('POST', '/organizations', { body: { name: 'Org', addresses: [{ city: 'Berlin', country: 'DE' }] } });
    expect(c.status).toBe(201);
    expect(c.json.addresses[0].id).toMatch(/^[0-9a-f-]{36}$/);
    const p = await t.call('PATCH', `/organizations/${orgId}`, { body: { notes: 'n' } });
    expect(p.json.notes).toBe('n');
  });

  it('uploads, gets and deletes files; DELETE /files/{id} answers the delete result', async () => {
    const c = await t.call('POST', '/files', { raw: uploadForm('abc', { category: 'contract' }, 'a.txt', 'text/plain') });
    expect(c.status).toBe(201);
    expect(c.json).toMatchObject({ filename: 'a.txt', size: 3, category: 'contract', mime: 'text/plain' });
    expect((await t.call('GET', `/files/${c.json.id}`)).json.id).toBe(c.json.id);
    expect((await t.call('DELETE', `/files/${c.json.id}`)).json).toEqual({ success: true });
    expect((await t.call('GET', `/files/${c.json.id}`)).status).toBe(404);
  });

  it('dedupes captures per team, source and external_id', async () => {
    const body = { source: 'gmail', external_id: 'thread-A-1', thread: { subject: 'Hi' } };
    const first = await t.call('POST', '/intake/captures', { body });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ status: 'pending', source: 'gmail', external_id: 'thread-A-1' });
    expect(first.json.proposed_project_id).toMatch(/^[0-9a-f-]{36}$/);
    const again = await t.call('POST', '/intake/captures', { body });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(first.json.id);
    const other = await t.call('POST', '/intake/captures', { body, key: 'other' });
    expect(other.status).toBe(201);
    expect(other.json.id).not.toBe(first.json.id);
    expect((await t.call('POST', '/intake/captures', { body: { source: 'gmail' } })).status).toBe(400);
  });

  it('serves the OpenAPI document with the chosen paths and info.version 1.6.0', async () => {
    const r = await t.call('GET', '/openapi.json');
    expect(r.json.info.version).toBe('1.6.0');
    for (const p of ['/attachments/{id}/download', '/files/{id}', '/intake/captures', '/organizations']) {
      expect(r.json.paths[`/api/public/v1${p}`]).toBeDefined();
    }
    expect(r.json.servers[0].variables.base_url.default).toBe(t.mock.url);
  });
});

describe('authentication (§5)', () => {
  it('answers 401 for missing, malformed and unknown keys', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer ' }, { authorization: 'Bearer nope' }] as Record<string, string>[]) {
      const r = await t.call('GET', '/projects', { key: 'none', headers });
      expect(r.status).toBe(401);
      expect(r.json.error.code).toBe('unauthorized');
    }
  });

  it('lets the read-only key read but not write (403 forbidden)', async () => {
    expect((await t.call('GET', '/projects', { key: 'readOnly' })).status).toBe(200);
    const w = await t.call('PATCH', `/projects/${projectId}`, { key: 'readOnly', body: { title: 'x' } });
    expect(w.status).toBe(403);
    expect(w.json.error.code).toBe('forbidden');
    expect((await t.call('GET', `/projects/${projectId}`)).json.title).not.toBe('x');
  });

  it('answers the plan-limit error to the key without API access', async () => {
    const r = await t.call('GET', '/projects', { key: 'noApi' });
    expect(r.status).toBe(402);
    expect(r.json.error).toMatchObject({ code: 'plan_limit_exceeded', feature: 'api_access', plan: 'free', resource: 'projects', current: 0, limit: 0 });
  });
});

describe('ids and isolation (§1, §4)', () => {
  it("answers the same 404 bytes for a missing id and for another team's id", async () => {
    const missing = await t.call('GET', '/projects/6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f');
    const other = await t.call('GET', `/projects/${otherProjectId}`);
    expect(missing.status).toBe(404);
    expect(other.text).toBe(missing.text);
    expect(other.text).toBe('{"error":{"code":"not_found","message":"Not found"}}');
    expect(other.headers['content-length']).toBe(missing.headers['content-length']);
    expect((await t.call('PATCH', `/projects/${otherProjectId}`, { body: { title: 'x' } })).text).toBe(missing.text);
  });

  it('answers 404 for the nil and max UUIDs and 400 (detail.id) for non-canonical ids', async () => {
    for (const id of ['00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF']) {
      expect((await t.call('GET', `/projects/${id}`)).status).toBe(404);
    }
    const hex = projectId.replace(/-/g, '');
    for (const id of [hex, `{${projectId}}`, `${projectId}0`, projectId.slice(0, 14) + '0' + projectId.slice(15), 'x'.repeat(300)]) {
      const r = await t.call('GET', `/projects/${encodeURIComponent(id)}`);
      expect(r.status, id).toBe(400);
      expect(r.json.detail.id).toBeTypeOf('string');
    }
    expect((await t.call('GET', `/projects/${projectId.toUpperCase()}`)).json.id).toBe(projectId);
  });

  it("never lists another team's records", async () => {
    const a = await t.call('GET', '/projects?limit=100');
    const b = await t.call('GET', '/projects?limit=100', { key: 'other' });
    const ids = new Set(a.json.data.map((p: { id: string; }) => p.id));
    expect(b.json.data.some((p: { id: string; }) => ids.has(p.id))).toBe(false);
    const leak = await t.call('GET', `/assignments?project_id=${otherProjectId}`);
    expect(leak.json.data).toEqual([]);
  });
});

describe('bad input never yields a 5xx', () => {
  const json = { 'content-type': 'application/json' };
  const cases: [string, string, Record<string, unknown>][] = [
    ['POST', '/employees', { raw: '{"first_name":', headers: json }],
    ['POST', '/employees', { raw: '', headers: json }],
    ['POST', '/employees', { raw: '[1,2]', headers: json }],
    ['POST', '/employees', { raw: '"str"', headers: json }],
    ['POST', '/employees', { raw: 'null', headers: json }],
    ['POST', '/employees', { body: { first_name: 42 } }],
    ['POST', '/employees', { body: { first_name: 'a', skills: 'not-an-array' } }],
    ['POST', '/employees', { raw: 'first_name=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
    ['POST', '/employees', { raw: 'hello', headers: { 'content-type': 'text/plain' } }],
    ['POST', '/employees', { raw: `{"first_name":"${'a'.repeat(1_100_000)}"}`, headers: json }],
    ['PATCH', '/projects/PID', { body: { title: 5 } }],
    ['PATCH', '/projects/PID', { body: { stage_key: 'no-such-stage' } }],
    ['PATCH', '/projects/PID', { raw: '{"__proto__":{"x":1}}', headers: json }],
    ['GET', '/projects?limit=abc', {}],
    ['GET', '/projects?limit=0', {}],
    ['GET', '/projects?limit=-1', {}],
    ['GET', '/projects?limit=1.5', {}],
    ['GET', '/projects?limit=1&limit=2', {}],
    ['GET', '/projects?sort=nope', {}],
    ['GET', '/projects?order=sideways', {}],
    ['GET', '/projects?cursor=%00%01', {}],
    ['GET', '/assignments?project_id=not-a-uuid', {}],
    ['GET', '/attachments', {}],
    ['GET', '/attachments?entity_type=project', {}],
    ['GET', '/attachments?entity_type=invoice&entity_id=PID', {}],
    ['POST', '/attachments', { body: { entity_type: 'project' } }],
    ['POST', '/files', { raw: '--x\r\nbroken', headers: { 'content-type': 'multipart/form-data; boundary=x' } }],
    ['POST', '/files', { raw: '', headers: { 'content-type': 'multipart/form-data' } }],
    ['POST', '/intake/captures', { raw: '{', headers: json }],
    ['DELETE', '/assignments/not-an-id', {}],
    ['GET', '/no-such-route', {}],
  ];
  it.each(cases)('%s %s', async (method, path, opts) => {
    const r = await t.call(method, path.replace('PID', projectId), opts as never);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.json.error.code).toBeTypeOf('string');
    if (r.json.detail) { for (const v of Object.values(r.json.detail)) expect(v).toBeTypeOf('string'); }
  });

  it('accepts bodyless JSON requests and +json content types', async () => {
    const c = await t.call('POST', '/assignments', { body: { employee_id: employeeId, project_id: projectId } });
    const d = await t.call('DELETE', `/assignments/${c.json.id}`, { raw: '', headers: json });
    expect(d.status).toBe(200);
    const p = await t.call('PATCH', `/projects/${projectId}`, { raw: '{"notes":"merge"}', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(p.json.notes).toBe('merge');
    expect((await t.call('PATCH', `/projects/${projectId}`, { raw: '', headers: json })).status).toBe(200);
  });

  it('maps specific conditions to specific statuses', async () => {
    expect((await t.call('POST', '/employees', { raw: `{"x":"${'a'.repeat(1_100_000)}"}`, headers: json })).status).toBe(413);
    expect((await t.call('POST', '/employees', { raw: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    expect((await t.call('POST', '/files', { body: { a: 1 } })).status).toBe(415);
    const limit = await t.call('GET', '/projects?limit=abc');
    expect(limit.json).toMatchObject({ error: { code: 'bad_request' }, detail: { limit: expect.any(String) } });
  });
});
