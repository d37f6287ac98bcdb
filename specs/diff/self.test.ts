// The change checker on the project's own specs/openapi.json: against itself (no change) and against
// copies with one kind of change each, with the classification and bump §9 gives that change.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { diffDocuments, loadDocument, type DiffResult } from './index.js';

const path = fileURLToPath(new URL('../openapi.json', import.meta.url));
const present = existsSync(path);
type Doc = Record<string, any>;

function diffWith(edit: (doc: Doc) => void, version?: string): DiffResult {
  const old = loadDocument(path);
  const now: Doc = structuredClone(old.document);
  edit(now);
  if (version !== undefined) now.info.version = version;
  return diffDocuments(old, { ...old, document: now });
}

const kinds = (r: DiffResult, classification?: string) =>
  [...new Set(r.changes.filter((c) => !classification || c.classification === classification).map((c) => c.kind))].sort();
const schemas = (d: Doc) => d.components.schemas;
const v1 = (d: Doc, p: string) => d.paths[`/api/public/v1${p}`];

describe.skipIf(!present)('diff of specs/openapi.json (skipped: specs/openapi.json absent)', () => {
  test('against itself: no change, the version stays, ok', () => {
    const r = diffWith(() => {});
    expect(r.changes).toEqual([]);
    expect(r.version).toMatchObject({ required: 'none', ok: true, problems: [] });
    expect(r.version.new).toMatch(/^1\.\d+\.\d+$/);
  });

  test('a path removed: breaking removal, needs a new major path', () => {
    const r = diffWith((d) => delete d.paths['/api/public/v1/cvs'], '1.7.0');
    expect(kinds(r)).toEqual(['endpoint.removed']);
    expect(r.breaking).toBe(true);
    expect(r.version.required).toBe('major');
    expect(r.version.problems.map((p) => p.code)).toContain('BREAKING_WITHIN_MAJOR');
  });

  test('a response field removed: breaking removal', () => {
    const r = diffWith((d) => delete schemas(d).Assignment.properties.employee, '1.7.0');
    expect(kinds(r)).toEqual(['response.property.removed']);
    expect(r.version).toMatchObject({ required: 'major', ok: false });
  });

  test('a required request field added: breaking tightening', () => {
    const r = diffWith((d) => {
      schemas(d).EmployeeCreate.properties.team_id = { type: 'string', format: 'uuid' };
      schemas(d).EmployeeCreate.required.push('team_id');
    }, '1.7.0');
    expect(kinds(r)).toEqual(['request.property.added-required']);
    expect(r.version.required).toBe('major');
  });

  test("a field's type changed: breaking wherever the field is read or written", () => {
    const r = diffWith((d) => (schemas(d).Employee.properties.bill_rate.type = 'string'), '2.0.0');
    expect(kinds(r, 'breaking')).toContain('response.type.changed');
    expect(kinds(r, 'non-breaking')).toEqual([]);
    expect(r.version.problems.map((p) => p.code).sort()).toEqual(['BREAKING_WITHIN_MAJOR', 'VERSION_MAJOR_PATH_MISMATCH']);
  });

  test('an optional response field added: MINOR', () => {
    const r = diffWith((d) => (schemas(d).Project.properties.priority = { type: 'integer' }), '1.7.0');
    expect(kinds(r)).toEqual(['response.property.added']);
    expect(r.version).toMatchObject({ required: 'minor', ok: true });
  });

  test('an endpoint added: MINOR; unchanged version is refused', () => {
    const add = (d: Doc) => (v1(d, '/projects/{id}').delete = { responses: { '200': { description: 'Deleted.' } } });
    expect(diffWith(add, '1.7.0').version).toMatchObject({ required: 'minor', ok: true });
    const same = diffWith(add);
    expect(kinds(same)).toEqual(['endpoint.added']);
    expect(same.version.problems.map((p) => p.code)).toEqual(['VERSION_NOT_RAISED']);
  });

  test('a description changed: documentation only, PATCH', () => {
    const r = diffWith((d) => (schemas(d).Project.properties.title.description = 'The project title.'), '1.6.1');
    expect(kinds(r, 'documentation')).toEqual(['schema.documentation']);
    expect(kinds(r).length).toBe(1);
    expect(r.version).toMatchObject({ required: 'patch', ok: true });
  });

  test('an enum value added to a response field: non-breaking (clients tolerate unknown values)', () => {
    const r = diffWith((d) => schemas(d).Attachment.properties.entity_type.enum.push('task'), '1.7.0');
    expect(kinds(r)).toContain('response.enum.value-added');
    expect(r.breaking).toBe(false);
    expect(r.version).toMatchObject({ required: 'minor', ok: true });
  });

  test('an enum value removed: breaking', () => {
    const r = diffWith((d) => (schemas(d).Attachment.properties.entity_type.enum = ['project', 'organization', 'employee']), '1.7.0');
    expect(kinds(r, 'breaking')).toContain('response.enum.value-removed');
    expect(kinds(r, 'breaking')).toContain('request.enum.value-removed');
    expect(r.version.required).toBe('major');
  });

  test('security changed: a new required scope is breaking', () => {
    const r = diffWith((d) => (d.security = [{ bearerAuth: ['projects:read'] }]), '1.7.0');
    expect(kinds(r)).toEqual(['security.changed']);
    expect(r.version.required).toBe('major');
  });

  test('the cursor parameter reworded: the cursor format changed, breaking', () => {
    const r = diffWith((d) => (d.components.parameters.Cursor.description = 'A signed token.'), '1.7.0');
    expect(kinds(r)).toEqual(['cursor.changed']);
  });

  test('the pagination envelope changed: breaking envelope change on every list', () => {
    const r = diffWith((d) => (schemas(d).PageEnvelope.properties.page.properties.hasMore.type = 'string'), '1.7.0');
    expect(kinds(r)).toEqual(['pagination-envelope.changed']);
    expect(new Set(r.changes.map((c) => c.operation)).size).toBeGreaterThanOrEqual(5);
  });

  test('the error envelope changed: breaking envelope change', () => {
    const r = diffWith((d) => (schemas(d).ErrorEnvelope.properties.error.properties.message.type = 'object'), '1.7.0');
    expect(kinds(r)).toEqual(['error-envelope.changed']);
  });

  test('an operation deprecated: MINOR', () => {
    const r = diffWith((d) => (v1(d, '/cvs').get.deprecated = true), '1.7.0');
    expect(kinds(r)).toEqual(['endpoint.deprecated']);
    expect(r.version).toMatchObject({ required: 'minor', ok: true });
  });
});
