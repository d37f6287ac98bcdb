import addFormatsModule from 'ajv-formats';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { bundleSchemas } from './bundle.js';
import { PATH_ID_PATTERN_SOURCE } from './ids.js';
import { buildOpenApi, OPENAPI_PATH, OpenApiBuildError, serializeOpenApi } from './openapi/build.js';

type Json = Record<string, any>;
const PREFIX = '/api/public/v1';
const doc = buildOpenApi() as Json;

// §4, every endpoint whose path is shown (written out here, independently of the builder).
const SHOWN = [
  'get /projects',
  'get /projects/{id}',
  'patch /projects/{id}',
  'get /assignments',
  'get /assignments/{id}',
  'post /assignments',
  'patch /assignments/{id}',
  'delete /assignments/{id}',
  'post /employees',
  'patch /employees/{id}',
  'get /organizations',
  'patch /organizations/{id}',
  'post /organizations',
  'get /cvs',
  'post /attachments',
  'get /attachments',
  'delete /attachments/{id}',
  'post /files',
  'get /files/{id}',
];

function operations(d: Json): { key: string; path: string; method: string; op: Json; }[] {
  return Object.entries(d.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({ key: `${method} ${path.slice(PREFIX.length)}`, path, method, op: op as Json }))
  );
}
const paramNames = (op: Json) => ((op.parameters ?? []) as Json[]).map((p) => resolve(doc, p.$ref).name as string);

function resolve(d: Json, pointer: string): any {
  if (!pointer.startsWith('#/')) throw new Error(`not a local ref: ${pointer}`);
  return pointer.slice(2).split('/').reduce((node: any, t) => node?.[t.replace(/~1/g, '/').replace(/~0/g, '~')], d);
}

describe('specs/openapi.json', () => {
  test('the committed file equals a fresh build', () => {
    expect(readFileSync(OPENAPI_PATH, 'utf8')).toBe(serializeOpenApi(buildOpenApi()));
  });

  test('is OpenAPI 3.1 of v1 1.6.0 with the 2020-12 dialect and a {base_url} server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.6.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.servers[0].url).toBe('{base_url}');
    expect(Object.keys(doc.paths).every((p) => p.startsWith(`${PREFIX}/`))).toBe(true);
  });

  test('has exactly the §4 endpoints whose path is shown, each with a unique operationId', () => {
    const ops = operations(doc);
    expect(ops.map((o) => o.key).sort()).toEqual([...SHOWN].sort());
    const ids = ops.map((o) => o.op.operationId as string);
    expect(ids.every((id) => /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('every mutating operation takes the optional idempotency-key header; reads do not', () => {
    for (const { key, method, op } of operations(doc)) {
      expect(paramNames(op).includes('idempotency-key'), key).toBe(method !== 'get');
    }
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ in: 'header', required: false });
  });

  test('path ids carry the §4 pattern', () => {
    for (const { key, path, op } of operations(doc)) expect(paramNames(op).includes('id'), key).toBe(path.includes('{id}'));
    expect(doc.components.parameters.Id.schema.pattern).toBe(PATH_ID_PATTERN_SOURCE);
  });

  test('lists take limit, cursor, sort, order (asc|desc), q and their filters', () => {
    const lists = operations(doc).filter((o) => o.method === 'get' && !o.path.includes('{id}'));
    expect(lists).toHaveLength(5);
    for (const { key, op } of lists) {
      expect(paramNames(op), key).toEqual(expect.arrayContaining(['limit', 'cursor', 'sort', 'order', 'q']));
      expect(op.responses['400'], key).toBeDefined();
    }
    expect(doc.components.parameters.Order.schema.enum).toEqual(['asc', 'desc']);
    const byKey = (k: string) => operations(doc).find((o) => o.key === k)!.op;
    expect(paramNames(byKey('get /assignments'))).toEqual(expect.arrayContaining(['project_id', 'employee_id']));
    expect(paramNames(byKey('get /cvs'))).toContain('employee_id');
    expect(doc.components.parameters.EntityType).toMatchObject({ required: true });
    expect(doc.components.parameters.EntityId).toMatchObject({ required: true });
  });

  test('uploads are multipart with file, entity_type, entity_id and optional category', () => {
    const upload = doc.paths[`${PREFIX}/attachments`].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.required).toEqual(['file', 'entity_type', 'entity_id']);
    expect(Object.keys(upload.properties)).toEqual(['file', 'entity_type', 'entity_id', 'category']);
    const file = doc.paths[`${PREFIX}/files`].post.requestBody.content['multipart/form-data'].schema;
    expect(file.required).toEqual(['file']);
    expect(doc.paths[`${PREFIX}/attachments`].post.responses['422']).toBeDefined();
  });

  test('single-resource operations document 404 and every operation an error default', () => {
    for (const { key, path, op } of operations(doc)) {
      if (path.includes('{id}')) expect(op.responses['404'], key).toEqual({ $ref: '#/components/responses/NotFound' });
      expect(op.responses.default, key).toEqual({ $ref: '#/components/responses/Error' });
    }
  });

  test('uses a bearer scheme that lists the scope tokens', () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.bearerAuth['x-scopes'].shown).toContain('files:write');
  });

  test('component schemas are the bundled specs/schemas, and every $ref resolves', () => {
    const bundled = bundleSchemas('#/components/schemas/');
    for (const [name, schema] of Object.entries(bundled)) expect(doc.components.schemas[name]).toEqual(schema);
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"$id"');
    for (const [, pointer] of text.matchAll(/"\$ref":"([^"]+)"/g)) expect(resolve(doc, pointer!), pointer).toBeDefined();
  });

  test('page components judge the page fixtures as the loader does', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormatsModule.default(ajv);
    ajv.addSchema({ ...doc, $id: 'https://conformance.local/openapi.json' });
    const names: Record<string, string> = {
      project: 'ProjectPage',
      assignment: 'AssignmentPage',
      organization: 'OrganizationPage',
      cv: 'CvPage',
      attachment: 'AttachmentPage',
    };
    for (const [item, component] of Object.entries(names)) {
      const check = ajv.compile({ $ref: `https://conformance.local/openapi.json#/components/schemas/${component}` });
      for (const kind of ['valid', 'invalid'] as const) {
        const dir = fileURLToPath(new URL(`../fixtures/schemas/${kind}/page-of-${item}/`, import.meta.url));
        for (const f of readdirSync(dir)) {
          expect(check(JSON.parse(readFileSync(join(dir, f), 'utf8'))), `${kind} ${item} ${f}`).toBe(kind === 'valid');
        }
      }
    }
  });
});

describe('buildOpenApi(options)', () => {
  const extensions = {
    attachmentDownload: '/attachments/{id}/download',
    fileDelete: '/files/{id}',
    captureIntake: '/intake/captures',
    openapi: '/openapi.json',
  };

  test('adds the operations of chosen paths and marks deprecated ones', () => {
    const ext = buildOpenApi({ extensions, deprecated: ['listCvs', 'PATCH /projects/{id}', `DELETE ${PREFIX}/files/{id}`] }) as Json;
    expect(ext.paths[`${PREFIX}/attachments/{id}/download`].get.operationId).toBe('downloadAttachment');
    expect(ext.paths[`${PREFIX}/files/{id}`].delete.operationId).toBe('deleteFile');
    expect(ext.paths[`${PREFIX}/files/{id}`].get.operationId).toBe('getFile');
    expect(ext.paths[`${PREFIX}/intake/captures`].post.responses['200']).toBeDefined();
    expect(ext.paths[`${PREFIX}/openapi.json`].get.operationId).toBe('getOpenApi');
    const deprecated = operations(ext).filter((o) => o.op.deprecated === true).map((o) => o.key).sort();
    expect(deprecated).toEqual(['delete /files/{id}', 'get /cvs', 'patch /projects/{id}']);
  });

  test('rejects an unknown deprecated entry with a stable code', () => {
    const attempt = () => buildOpenApi({ deprecated: ['GET /nope'] });
    expect(attempt).toThrow(OpenApiBuildError);
    try {
      attempt();
    } catch (e) {
      expect((e as OpenApiBuildError).code).toBe('unknown_deprecated_operation');
    }
  });

  test('documents one shape when asked', () => {
    expect((buildOpenApi({ shape: 'full' }) as Json).components.schemas.ProjectResponse.$ref).toBe('#/components/schemas/Project');
    expect((buildOpenApi({ shape: 'legacy' }) as Json).components.schemas.OrganizationResponse.$ref).toBe('#/components/schemas/OrganizationLegacy');
  });

  test('the fully extended document passes redocly lint without errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, serializeOpenApi(buildOpenApi({ extensions, deprecated: ['listCvs'] })));
    const root = fileURLToPath(new URL('..', import.meta.url));
    // Exits non-zero on any error; warnings are allowed.
    execFileSync(join(root, 'node_modules/.bin/redocly'), ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'stylish'], {
      cwd: root,
      stdio: 'pipe',
    });
  });
});
