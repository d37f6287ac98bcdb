// Reading the real API document into its structure, and the input errors of the document tools.
import { describe, expect, it } from 'vitest';
import { readApiDocument } from './api-document.js';
import { edit, original } from './edits.js';
import { DocumentInputError } from './errors.js';
import { isMarkdownSource, readDocumentSource } from './source.js';

const doc = readApiDocument(original, 'specs/public-api-v1.md');
const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof DocumentInputError) return error.code;
    throw error;
  }
  return undefined;
};

describe('the API document read as its structure', () => {
  it('has major 1 (the base path) and version 1.6.0 (the newest changelog row)', () => {
    expect(doc.major).toBe(1);
    expect(doc.version).toBe('1.6.0');
    expect(doc.changelog.map((r) => r.version)).toEqual(['1.6.0', '1.5.0', '1.4.0', '1.3.0', '(no number)', '1.2.0', '1.1.0', '1.0.0']);
  });

  it('reads the field tables of §2 with their types, nullability, required-on-create and listed values', () => {
    expect([...doc.tables.keys()]).toEqual(
      expect.arrayContaining(['Project', 'Stage object', 'Employee', 'Assignment', 'Organization', 'Address', 'Attachment', 'CV', 'CV data object']),
    );
    const project = doc.tables.get('Project')!.fields;
    expect(project.get('agreed_rate_max')).toMatchObject({ type: 'number', nullable: false });
    expect(project.get('last_activity_at')).toMatchObject({ type: 'timestamp', nullable: true });
    expect(project.get('rate_type')?.values).toEqual({ closed: false, list: ['hourly'] });
    expect(doc.tables.get('Employee')!.fields.get('first_name')).toMatchObject({ type: 'string', required: true });
    expect(doc.tables.get('Assignment')!.fields.get('project_id')).toMatchObject({ type: 'string (uuid)', required: true });
    expect(doc.tables.get('Attachment')!.fields.get('entity_type')?.values).toEqual({ closed: true, list: ['project', 'organization', 'employee', 'contact'] });
    expect(doc.tables.get('CV data object')!.fields.get('basics.location.city')).toBeDefined();
    expect(doc.tables.get('CV data object')!.fields.get('work[].name')).toMatchObject({ type: 'string' });
  });

  it('reads the list parameters of §4 and the error envelope of §7 as field tables of their role', () => {
    expect(doc.tables.get('List query parameters')).toMatchObject({ role: 'list-parameters' });
    expect([...doc.tables.get('List query parameters')!.fields.keys()]).toEqual(['limit', 'cursor', 'sort', 'order', 'q']);
    expect(doc.tables.get('Full envelope')).toMatchObject({ role: 'error-envelope' });
    expect(doc.shapes.get('Page envelope')?.text).toBe('`{ data: [<resource>], page: { hasMore: boolean, nextCursor: string } }`');
  });

  it('reads every endpoint row of §4 with the inputs its payload names', () => {
    expect(doc.endpoints.size).toBe(21);
    const create = doc.endpoints.get('POST /assignments')!;
    expect([...create.payload.body!.fields.values()].map((f) => [f.name, f.required, f.types])).toEqual([['employee_id', true, ['uuid']], ['project_id', true, [
      'uuid',
    ]]]);
    expect(create.payload.remarks).toEqual(['other fields as in Assignment']);
    const upload = doc.endpoints.get('POST /attachments')!.payload.body!;
    expect(upload.mediaType).toBe('multipart/form-data');
    expect([...upload.fields.values()].map((f) => [f.name, f.required])).toEqual([['file', true], ['entity_type', true], ['entity_id', true], [
      'category',
      false,
    ]]);
    const list = doc.endpoints.get('GET /attachments')!.payload.query;
    expect(list.get('entity_type')).toEqual({ name: 'entity_type', required: true, types: [], values: ['project', 'organization', 'employee', 'contact'] });
    expect(doc.endpoints.get('GET /projects')!.payload.query.get('cursor')?.required).toBe(false);
    expect(doc.endpoints.get('DELETE (path under /files)')?.response).toBe('not specified');
  });

  it('reads the known conditions of §7 and the limits of §8', () => {
    expect([...doc.conditions.values()].map((c) => [c.status, c.code.split(' ')[0]])).toEqual([['400', 'bad_request'], ['404', 'not_found'], ['422', 'not']]);
    expect(doc.limits.get('Upload size')).toMatchObject({ value: '25 MB', appliesTo: ['POST /attachments', 'POST /files'] });
  });

  it('keeps the rest as prose sentences, the code-span shapes excepted', () => {
    expect(doc.prose.some((u) => u.text === 'Maximum upload size is 25 MB.')).toBe(true);
    expect(doc.prose.some((u) => u.text.startsWith('`{ data:'))).toBe(false);
  });
});

describe('input errors, as data with stable codes', () => {
  it('DOC_NOT_API_DOCUMENT for text without a title, numbered sections or a base path', () => {
    expect(codeOf(() => readApiDocument('just some text\n', 'x.md'))).toBe('DOC_NOT_API_DOCUMENT');
    expect(codeOf(() => readApiDocument('# Title\n\n## 1. One\n\nText.\n', 'x.md'))).toBe('DOC_NOT_API_DOCUMENT');
  });

  it('DOC_TABLE_MALFORMED names the line of a row with a wrong number of cells', () => {
    const broken = edit(original, '| probability | number | |', '| probability | number |');
    const error = (() => {
      try {
        readApiDocument(broken, 'x.md');
      } catch (e) {
        return e as DocumentInputError;
      }
    })();
    expect(error?.code).toBe('DOC_TABLE_MALFORMED');
    expect(error?.message).toMatch(/^x\.md:47: 2 cell\(s\) in a table of 3 column\(s\)/);
    expect(error?.toJSON()).toEqual({ code: 'DOC_TABLE_MALFORMED', message: error?.message });
  });

  it('reads files and git revisions; DOC_FILE_UNREADABLE and DOC_GIT_UNREADABLE otherwise', () => {
    expect(readDocumentSource('git:HEAD:specs/public-api-v1.md').label).toBe('git:HEAD:specs/public-api-v1.md');
    expect(readDocumentSource('git:HEAD').text).toContain('# Projects, Employees and Assignments Public API (v1)');
    expect(codeOf(() => readDocumentSource('no/such/file.md'))).toBe('DOC_FILE_UNREADABLE');
    expect(codeOf(() => readDocumentSource('git:no-such-revision-xyz:specs/public-api-v1.md'))).toBe('DOC_GIT_UNREADABLE');
    expect(isMarkdownSource('git:HEAD~1:specs/public-api-v1.md')).toBe(true);
    expect(isMarkdownSource('git:HEAD~1')).toBe(false);
    expect(isMarkdownSource('specs/openapi.json')).toBe(false);
  });
});
