// The registry holds: a resource added in memory — its schemas, its rows of the operation table
// (list, get, create, patch, delete, and a reference to projects) and its row of readings, the
// steps of ARCHITECTURE.md "Add a resource" — is served by the mock, listed by the OpenAPI
// document, planned in the coverage table, passes the audit every response passes and the views
// its record must show in, and a fault generated over it is detected. Nothing else is edited.
//
// Every module but the registry is imported after the resource is added: what a module derives at
// load time it derives with the new resource.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addResource, resource } from '../../specs/registry.js';

const ID = { type: 'string', format: 'uuid' };
const STAMP = { type: 'string', format: 'date-time' };
const schemaId = (name: string) => `https://conformance.local/schemas/v1/${name}.json`;

addResource({
  collection: 'widgets',
  row: { sort: ['created_at', 'name'], search: 'name' },
  schemas: {
    widget: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: schemaId('widget'),
      title: 'Widget',
      type: 'object',
      required: ['id', 'name', 'project_id', 'created_at'],
      properties: { id: ID, name: { type: 'string' }, project_id: ID, created_at: STAMP, updated_at: STAMP },
    },
    'widget-create': {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: schemaId('widget-create'),
      title: 'WidgetCreate',
      type: 'object',
      required: ['name', 'project_id'],
      properties: { name: { $ref: 'widget.json#/properties/name' }, project_id: { $ref: 'widget.json#/properties/project_id' } },
    },
    'widget-patch': {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: schemaId('widget-patch'),
      title: 'WidgetPatch',
      type: 'object',
      properties: { name: { $ref: 'widget.json#/properties/name' }, project_id: { $ref: 'widget.json#/properties/project_id' } },
    },
  },
  endpoints: [
    { method: 'get', path: '/widgets', operationId: 'listWidgets', tag: 'Widgets', summary: 'List widgets', list: true, returns: 'WidgetPage' },
    { method: 'get', path: '/widgets/{id}', operationId: 'getWidget', tag: 'Widgets', summary: 'Get a widget', returns: 'Widget', errors: ['NotFound'] },
    {
      method: 'post',
      path: '/widgets',
      operationId: 'createWidget',
      tag: 'Widgets',
      summary: 'Create a widget',
      json: 'WidgetCreate',
      returns: 'Widget',
      creates: true,
    },
    {
      method: 'patch',
      path: '/widgets/{id}',
      operationId: 'updateWidget',
      tag: 'Widgets',
      summary: 'Update a widget',
      json: 'WidgetPatch',
      returns: 'Widget',
      errors: ['NotFound'],
    },
    {
      method: 'delete',
      path: '/widgets/{id}',
      operationId: 'deleteWidget',
      tag: 'Widgets',
      summary: 'Delete a widget',
      returns: 'DeleteResult',
      errors: ['NotFound'],
    },
  ],
});

const { startTestMock } = await import('../../mock/testing/client.js');
const { faults } = await import('../../mock/index.js');
const { buildOpenApi } = await import('../../specs/openapi/build.js');
const { operations } = await import('../../specs/surface.js');
const { requireConfig } = await import('../../contract/config.js');
const { coverageTable } = await import('../harness/plan/table.js');
const { judge } = await import('../harness/judge/audit.js');
const { provideTarget } = await import('../harness/run/target.js');

type TestMock = Awaited<ReturnType<typeof startTestMock>>;
type Reply = Awaited<ReturnType<TestMock['call']>>;

const settings = { ...requireConfig({}), baseUrl: 'http://127.0.0.1' };

/** The audit of a reply, as every response of a run passes it. */
function audited(t: TestMock, method: string, path: string, reply: Reply) {
  const s = { ...settings, baseUrl: t.mock.url };
  provideTarget({ settings: s, runId: 'cfm-synthetic', seed: 1, kind: 'bundled-mock' });
  return judge(s, { method, url: `${t.mock.url}/api/public/v1${path}`, status: reply.status, headers: reply.headers, text: reply.text, body: reply.json });
}

let clean: TestMock;
let project: string;
beforeAll(async () => {
  clean = await startTestMock({ seed: 3 });
  project = (await clean.call('GET', '/projects?limit=1')).json.data[0].id;
});
afterAll(() => clean.close());

describe('a resource added to the registry in memory', () => {
  test('the registry derives it: schemas, operations, scopes, sort, the reference to projects, its views', () => {
    const widgets = resource('widgets');
    expect(widgets).toMatchObject({ kind: 'widget', record: 'widget', page: 'WidgetPage', pageable: true, scopes: { write: 'widgets:write' } });
    expect(Object.keys(widgets.operations)).toEqual(['list', 'get', 'create', 'patch', 'delete']);
    expect(widgets.references.filter((r) => !r.filter).map((r) => `${r.op}.${r.field}->${r.to.join()}`)).toEqual([
      'createWidget.project_id->projects',
      'updateWidget.project_id->projects',
    ]);
    expect(widgets.views.map((v) => v.name)).toEqual(['GET /widgets', 'GET /widgets?q=', 'GET /widgets/{id}']);
  });

  test('the mock serves it: create, get, list, sort, search, patch, delete, its reference checked within the team', async () => {
    const created = await clean.call('POST', '/widgets', { body: { name: 'Gear', project_id: project.toUpperCase() } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'Gear', project_id: project });
    const id = created.json.id as string;
    expect((await clean.call('GET', `/widgets/${id}`)).json).toMatchObject({ id, name: 'Gear' });
    await clean.call('POST', '/widgets', { body: { name: 'Axle', project_id: project } });
    expect((await clean.call('GET', '/widgets?sort=name')).json.data.map((w: { name: string; }) => w.name)).toEqual(['Axle', 'Gear']);
    expect((await clean.call('GET', '/widgets?q=gea')).json.data.map((w: { id: string; }) => w.id)).toEqual([id]);
    expect((await clean.call('PATCH', `/widgets/${id}`, { body: { name: 'Cog' } })).json).toMatchObject({ id, name: 'Cog', project_id: project });
    const missing = await clean.call('POST', '/widgets', { body: { name: 'Nut', project_id: '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60' } });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.json)).toContain('project_id');
    expect((await clean.call('GET', `/widgets/${id}`, { key: 'other' })).status).toBe(404);
    expect((await clean.call('POST', '/widgets', { key: 'readOnly', body: { name: 'Bolt', project_id: project } })).status).toBe(403);
    expect((await clean.call('DELETE', `/widgets/${id}`)).json).toEqual({ success: true });
    expect((await clean.call('GET', `/widgets/${id}`)).status).toBe(404);
  });

  test('the OpenAPI document lists it, the built one and the one the mock serves', async () => {
    const doc = buildOpenApi();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/public/v1/widgets', '/api/public/v1/widgets/{id}']));
    expect(Object.keys(doc.paths['/api/public/v1/widgets/{id}']!)).toEqual(['get', 'patch', 'delete']);
    expect((doc.components as { schemas: Record<string, unknown>; }).schemas).toHaveProperty('WidgetPage');
    const served = (await clean.call('GET', '/openapi.json', { noValidate: true })).json;
    expect(served.paths['/api/public/v1/widgets'].post.operationId).toBe('createWidget');
  });

  test('its coverage cells appear: fields, references, refusals, views, retries, walks', () => {
    const cells = coverageTable(operations(), settings).filter((c) => /Widget/.test(c.subject) || /widgets/.test(c.subject));
    const dimensions = new Set(cells.map((c) => c.dimension));
    for (const d of ['fields', 'refusals', 'views', 'retries', 'walks']) expect(dimensions, d).toContain(d);
    expect(cells.map((c) => `${c.subject} ${c.aspect}`)).toEqual(expect.arrayContaining([
      'createWidget project_id reference own projects',
      'updateWidget project_id reference missing',
      'createWidget cross-team',
      'updateWidget GET /widgets/{id}',
      'deleteWidget same key',
      'GET /widgets sort=default order=desc',
    ]));
  });

  test('the audit every response passes finds nothing wrong with its answers, and each view shows the record', async () => {
    const made = await clean.call('POST', '/widgets', { body: { name: 'Spring', project_id: project } });
    const id = made.json.id as string;
    const answers: [string, string, Reply][] = [
      ['POST', '/widgets', made],
      ['GET', `/widgets/${id}`, await clean.call('GET', `/widgets/${id}`)],
      ['GET', '/widgets', await clean.call('GET', '/widgets')],
      ['PATCH', `/widgets/${id}`, await clean.call('PATCH', `/widgets/${id}`, { body: { name: 'Coil' } })],
      ['GET', '/widgets/00000000-0000-0000-0000-000000000000', await clean.call('GET', '/widgets/00000000-0000-0000-0000-000000000000')],
    ];
    for (const [method, path, reply] of answers) {
      const j = audited(clean, method, path, reply);
      expect(j.operation, path).toBeDefined();
      expect(j.violations, `${method} ${path}`).toEqual([]);
    }
    // every view of the registry shows the changed record
    for (const v of resource('widgets').views) {
      const path = v.kind === 'get' ? `/widgets/${id}` : v.kind === 'q' ? '/widgets?q=coil' : '/widgets';
      const body = (await clean.call('GET', path)).json;
      const shown = v.kind === 'get' ? body : body.data.find((w: { id: string; }) => w.id === id);
      expect(shown, v.name).toMatchObject({ id, name: 'Coil' });
    }
  });

  test('a fault generated over it is detected: a required field left out of its records', async () => {
    expect(faults.map((f) => f.name)).toEqual(expect.arrayContaining(['required-missing:widget.name', 'reference-accepted:createWidget:project_id']));
    const faulty = await startTestMock({ seed: 3, fault: 'required-missing:widget.name' });
    try {
      const made = await faulty.call('POST', '/widgets', {
        body: { name: 'Lever', project_id: (await faulty.call('GET', '/projects?limit=1')).json.data[0].id },
      });
      const got = await faulty.call('GET', `/widgets/${made.json.id}`);
      expect(audited(faulty, 'GET', `/widgets/${made.json.id}`, got).violations.map((v) => v.requirements).flat()).toContain('RES-INHERENT-FIELDS');
    } finally {
      await faulty.close();
    }
  });
});
