// The surface read from the operation table and the schemas says what the document says: which
// fields name records of which resource, which fields are nullable, where each resource is shown.
import { describe, expect, test } from 'vitest';
import { allFields, operations, PLACEHOLDER_PATHS, recordOf, resources, viewsOf } from './surface.js';

const op = (name: string) => operations().find((o) => o.op === name)!;
const field = (o: string, path: string) => allFields(op(o).fields).find((f) => f.path === path)!;

describe('operations', () => {
  test('every operation of the table, and those at the paths a target gives, with its kind and resource', () => {
    expect(operations().map((o) => `${o.op} ${o.kind} ${o.resource}`)).toContain('updateAssignment patch assignments');
    expect(op('deleteFile')).toMatchObject({ kind: 'delete', resource: 'files', record: 'file', shown: false });
    expect(op('downloadAttachment')).toMatchObject({ kind: 'download', resource: 'attachments', shown: false });
    expect(operations({}).some((o) => !o.shown)).toBe(false);
    expect(operations(PLACEHOLDER_PATHS).filter((o) => !o.shown).map((o) => o.op).sort()).toEqual([
      'createCapture',
      'deleteFile',
      'downloadAttachment',
      'getOpenApi',
    ]);
    expect(recordOf('assignments')).toBe('assignment');
  });

  test("references: an *_id field names its resource; an entity_id beside an enumerated entity_type names each type's", () => {
    expect(field('createAssignment', 'employee_id')).toMatchObject({ references: ['employees'], required: true });
    expect(field('updateAssignment', 'project_id')).toMatchObject({ references: ['projects'], required: false });
    expect(field('updateProject', 'primary_contact_id').references).toEqual(['contacts']);
    expect(field('uploadAttachment', 'entity_id').references).toEqual(['projects', 'organizations', 'employees', 'contacts']);
    expect(field('updateProject', 'source_external_id').references).toBeUndefined();
    expect(op('listAssignments').filters.map((f) => `${f.name}->${f.references?.join()}`)).toEqual(['project_id->projects', 'employee_id->employees']);
  });

  test('types, nullability, listed values and nested fields', () => {
    expect(field('updateOrganization', 'favicon_url')).toMatchObject({ nullable: true, types: ['string', 'null'] });
    expect(field('updateOrganization', 'addresses[].buyer_identifier').nullable).toBe(true);
    expect(field('createOrganization', 'addresses')).toMatchObject({ items: 'object' });
    expect(field('updateEmployee', 'skills')).toMatchObject({ items: 'string' });
    expect(field('updateProject', 'work_locations').items).toBe('unknown');
    expect(field('uploadAttachment', 'entity_type').enum).toEqual(['project', 'organization', 'employee', 'contact']);
    expect(field('updateEmployee', 'rate_type').examples).toEqual(['hourly']);
    expect(field('createOrganization', 'roles').examples).toEqual(['recruiter']);
  });
});

describe('views', () => {
  test('each resource where it is shown: by id, in each list and filter, by q, embedded, downloaded', () => {
    expect(viewsOf('assignments').map((v) => v.name)).toEqual([
      'GET /assignments',
      'GET /assignments?project_id=',
      'GET /assignments?employee_id=',
      'GET /assignments?project_id=&employee_id=',
      'GET /assignments?q=',
      'GET /assignments/{id}',
    ]);
    expect(viewsOf('employees').map((v) => v.name)).toEqual(viewsOf('assignments').map((v) => `employee embedded in ${v.name}`));
    expect(viewsOf('attachments').map((v) => v.kind)).toEqual(['entity', 'download']);
    expect(viewsOf('files').map((v) => v.name)).toEqual(['GET /files/{id}']);
    expect(resources()).toEqual(expect.arrayContaining(['projects', 'assignments', 'employees', 'organizations', 'cvs', 'attachments', 'files']));
  });
});
