// The fullest conforming shape on every route: a record created, patched, listed or
// fetched carries every field its specs/ schema names (nullable ones null when they have
// no value), whatever the request that made it sent — except a date without a value, for
// which no conforming blank exists ("" is no date): it is left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema, type SchemaName } from '../specs/index.js';
import { startTestMock, type TestMock, uploadForm, walk } from './testing/client.js';

const fields = (name: SchemaName) => Object.keys((schema(name) as { properties: object; }).properties).sort();
const keys = (o: object) => Object.keys(o).sort();

describe('full shape', () => {
  let t: TestMock;
  let projectId: string;
  let seeded: { assignment: any; orgId: string; };
  beforeAll(async () => {
    t = await startTestMock();
    projectId = (await t.call('GET', '/projects?limit=1')).json.data[0].id;
    seeded = { assignment: (await t.call('GET', '/assignments?limit=1')).json.data[0], orgId: (await t.call('GET', '/organizations?limit=1')).json.data[0].id };
  });
  afterAll(() => t.close());

  it('employees: created with first_name only, patched, seeded and embedded all carry every Employee field', async () => {
    const want = fields('employee');
    const created = await t.call('POST', '/employees', { body: { first_name: 'Only' } });
    expect(keys(created.json)).toEqual(want);
    const patched = await t.call('PATCH', `/employees/${created.json.id}`, { body: { last_name: 'Patched' } });
    expect(keys(patched.json)).toEqual(want);
    const seededPatch = await t.call('PATCH', `/employees/${seeded.assignment.employee_id}`, { body: {} });
    expect(keys(seededPatch.json)).toEqual(want);
    expect(keys(seeded.assignment.employee)).toEqual(want);
  });

  it('assignments: created with the two ids only, fetched, patched, listed, with a minimal embedded employee', async () => {
    const want = fields('assignment').filter((f) => !f.endsWith('_date'));
    const emp = await t.call('POST', '/employees', { body: { first_name: 'Embedded' } });
    const created = await t.call('POST', '/assignments', { body: { employee_id: emp.json.id, project_id: projectId } });
    expect(created.status).toBe(201);
    expect(keys(created.json)).toEqual(want);
    expect(keys(created.json.employee)).toEqual(fields('employee'));
    expect(keys((await t.call('GET', `/assignments/${created.json.id}`)).json)).toEqual(want);
    expect(keys((await t.call('PATCH', `/assignments/${created.json.id}`, { body: { role: 'r' } })).json)).toEqual(want);
    const listed = (await walk(t, `/assignments?project_id=${projectId}&limit=100`)).items;
    for (const a of listed) expect(keys(a).filter((f) => !f.endsWith('_date')), a.id).toEqual(want);
    expect(keys(seeded.assignment)).toEqual(fields('assignment'));
  });

  it('organizations: created with a name only carry notes, website, favicon_url (null) and every other field; addresses too', async () => {
    const want = fields('organization');
    const created = await t.call('POST', '/organizations', { body: { name: 'Minimal', addresses: [{ city: 'Berlin' }] } });
    expect(keys(created.json)).toEqual(want);
    expect(created.json.favicon_url).toBeNull();
    expect(created.json.last_activity_at).toBeNull();
    expect(keys(created.json.addresses[0])).toEqual(fields('address'));
    expect(created.json.addresses[0].buyer_identifier).toBeNull();
    const patched = await t.call('PATCH', `/organizations/${created.json.id}`, { body: { notes: 'n' } });
    expect(keys(patched.json)).toEqual(want);
    const listed = (await walk(t, '/organizations?limit=100')).items;
    for (const o of listed) {
      expect(keys(o), o.id).toEqual(want);
      for (const a of o.addresses) expect(keys(a), o.id).toEqual(fields('address'));
    }
    expect(keys((await t.call('PATCH', `/organizations/${seeded.orgId}`, { body: {} })).json)).toEqual(want);
  });

  it('files and attachments: with and without a category, uploaded, fetched and listed', async () => {
    const bare = await t.call('POST', '/files', { raw: uploadForm('a') });
    const withCategory = await t.call('POST', '/files', { raw: uploadForm('b', { category: 'contract' }) });
    for (const f of [bare.json, withCategory.json, (await t.call('GET', `/files/${bare.json.id}`)).json]) expect(keys(f)).toEqual(fields('file'));
    const a = await t.call('POST', '/attachments', { raw: uploadForm('c', { entity_type: 'project', entity_id: projectId }) });
    expect(keys(a.json)).toEqual(fields('attachment'));
    const listed = (await walk(t, `/attachments?entity_type=project&entity_id=${projectId}`)).items;
    for (const x of listed) expect(keys(x)).toEqual(fields('attachment'));
  });

  it('captures: the first answer and a repeat carry the same fields, whatever optional fields were sent', async () => {
    const first = await t.call('POST', '/intake/captures', {
      body: { source: 'mail', external_id: 'shape-1', url: 'https://x.test', title: 't', thread: { a: 1 } },
    });
    const repeat = await t.call('POST', '/intake/captures', { body: { source: 'mail', external_id: 'shape-1' } });
    const other = await t.call('POST', '/intake/captures', { body: { source: 'mail', external_id: 'shape-2' } });
    expect(first.status).toBe(201);
    expect(repeat.status).toBe(200);
    expect(keys(repeat.json)).toEqual(keys(first.json));
    expect(keys(other.json)).toEqual(keys(first.json));
  });
});

describe('legacy shape', () => {
  let t: TestMock;
  beforeAll(async () => {
    t = await startTestMock({ shape: 'legacy' });
  });
  afterAll(() => t.close());

  it('organizations carry every field of the older shape, created or listed', async () => {
    const created = await t.call('POST', '/organizations', { body: { name: 'Old', addresses: [{ city: 'Lyon' }] } });
    expect(keys(created.json)).toEqual(fields('organization-legacy'));
    expect(keys(created.json.addresses[0])).toEqual(fields('address-legacy'));
    for (const o of (await walk(t, '/organizations?limit=100')).items) {
      expect(keys(o)).toEqual(fields('organization-legacy'));
      for (const a of o.addresses) expect(keys(a)).toEqual(fields('address-legacy'));
    }
  });
});
