// The change checker on the project's own specs/openapi.json: against itself (no change) and against
// copies with one kind of change each, with the classification and bump §9 gives that change.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { diffDocuments, type DiffResult, loadDocument } from './index.js';

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
/** The kinds of every consequence of the entries: how the edit shows in each place it reaches. */
const effects = (r: DiffResult, classification?: string) =>
  [...new Set(r.changes.flatMap((c) => c.affects ?? [c]).filter((e) => !classification || e.classification === classification).map((e) => e.kind))].sort();
const schemas = (d: Doc) => d.components.schemas;
/** `METHOD /path` of every operation that lists the parameter `ref`, itself or through its path item. */
function usersOf(ref: string): string[] {
  const doc = loadDocument(path).document as Doc;
  const lists = (...owners: Doc[]) => owners.flatMap((o) => (o.parameters ?? []) as Doc[]).some((p) => p.$ref === ref);
  return Object.entries(doc.paths as Record<string, Doc>).flatMap(([p, item]) =>
    ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m] && lists(item, item[m])).map((m) => `${m.toUpperCase()} ${p}`)
  ).sort();
}
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

  test("a field's type changed: one breaking entry, breaking wherever the field is read or written", () => {
    const r = diffWith((d) => (schemas(d).Employee.properties.bill_rate.type = 'string'), '2.0.0');
    expect(r.changes).toHaveLength(1);
    expect(effects(r, 'breaking')).toContain('response.type.changed');
    expect(effects(r, 'non-breaking')).toEqual([]);
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
    expect(r.changes).toHaveLength(1);
    expect(effects(r)).toContain('response.enum.value-added');
    expect(r.breaking).toBe(false);
    expect(r.version).toMatchObject({ required: 'minor', ok: true });
  });

  test('an enum value removed: breaking', () => {
    const r = diffWith((d) => (schemas(d).Attachment.properties.entity_type.enum = ['project', 'organization', 'employee']), '1.7.0');
    expect(r.changes).toHaveLength(1);
    expect(effects(r, 'breaking')).toContain('response.enum.value-removed');
    expect(effects(r, 'breaking')).toContain('request.enum.value-removed');
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

  test('the pagination envelope changed: one breaking envelope entry that lists every list operation', () => {
    const r = diffWith((d) => (schemas(d).PageEnvelope.properties.page.properties.hasMore.type = 'string'), '1.7.0');
    expect(kinds(r)).toEqual(['pagination-envelope.changed']);
    expect(r.changes).toHaveLength(1);
    expect(new Set(r.changes[0]!.affects!.map((e) => e.operation)).size).toBeGreaterThanOrEqual(5);
  });

  test('the shared path parameter Id changes type: one breaking entry at the component, every operation it serves listed', () => {
    const r = diffWith((d) => (d.components.parameters.Id.schema = { type: 'integer' }), '1.7.0');
    expect(r.changes).toHaveLength(1);
    const [change] = r.changes;
    expect(change).toMatchObject({ kind: 'request.type.changed', classification: 'breaking', location: '/components/parameters/Id/schema' });
    expect(change!.message).toMatch(/^type "string" → "integer" \(also: .*format "uuid" → "none"/);
    expect([...new Set(change!.affects!.map((e) => e.operation))].sort()).toEqual(usersOf('#/components/parameters/Id'));
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
