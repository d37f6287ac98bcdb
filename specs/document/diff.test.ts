// The document diff on edit pairs of the real API document: each edit is a string replacement on
// specs/public-api-v1.md, so the pairs follow the document as it changes.
import { describe, expect, it } from 'vitest';
import { type DiffResult, formatJson, formatText } from '../diff/index.js';
import { diffDocumentTexts } from './diff.js';
import { edit, edits, original, release } from './edits.js';

const diff = (changed: string): DiffResult => diffDocumentTexts(original, changed);
const kinds = (r: DiffResult) => r.changes.map((c) => [c.kind, c.classification, c.location]);
const codes = (r: DiffResult) => r.version.problems.map((p) => p.code);

const removedField = edit(original, '| probability | number | |\n', '');
const addedField = edit(original, '| probability | number | |\n', '| probability | number | |\n| priority | integer | |\n');
const lowered = edit(original, '| POST /attachments, POST /files | 25 MB |', '| POST /attachments, POST /files | 20 MB |');
const newEndpoint = edit(original, '| GET | /files/{id} | none | File |\n',
  '| GET | /files/{id} | none | File |\n| GET | /files | query: limit, cursor, sort, order, q | Page of File |\n');
const typeChanged = edit(original, '| bill_rate | number | |', '| bill_rate | string | |');
const reworded = edit(original, 'It is a single document.', 'It is one single document.');
const madeRequired = edit(original, '| last_name | string |', '| last_name | string (required on create) |');
const newValue = edit(original, '| rate_type | string | value seen: hourly |', '| rate_type | string | value seen: hourly, daily |');

describe('document diff: what each edit is under §9', () => {
  it('the same document: no change, no bump needed', () => {
    const r = diff(original);
    expect(r.changes).toEqual([]);
    expect(r.version).toMatchObject({ old: '1.6.0', new: '1.6.0', required: 'none', ok: true, problems: [] });
  });

  it('a removed field is breaking (removal) and refused within v1', () => {
    const r = diff(release(removedField, '1.7.0'));
    expect(kinds(r)).toEqual([['response.property.removed', 'breaking', '§2 Project/probability']]);
    expect(r.changes[0]!.rule).toMatch(/^§9 breaking: removing or renaming/);
    expect(r.breaking).toBe(true);
    expect(r.version.required).toBe('major');
    expect(codes(r)).toEqual(['BREAKING_WITHIN_MAJOR', 'VERSION_BUMP_TOO_SMALL']);
  });

  it('an added optional field is non-breaking and needs a MINOR bump', () => {
    const r = diff(release(addedField, '1.7.0', 'Adds `priority` to the project.'));
    expect(kinds(r)).toEqual([['response.property.added', 'non-breaking', '§2 Project/priority']]);
    expect(r.version).toMatchObject({ old: '1.6.0', new: '1.7.0', required: 'minor', ok: true, problems: [] });
  });

  it('a lowered limit is breaking (tightened validation); a raised one is not', () => {
    const r = diff(lowered);
    expect(kinds(r)).toEqual([['request.constraint.tightened', 'breaking', '§8 Limits/Upload size']]);
    expect(r.changes[0]!.message).toBe('limit "Upload size" lowered: 25 MB → 20 MB');
    expect(codes(r)).toEqual(['BREAKING_WITHIN_MAJOR', 'VERSION_NOT_RAISED']);
    const raised = diff(release(edit(original, '| 25 MB |', '| 50 MB |'), '1.7.0'));
    expect(kinds(raised)).toEqual([['request.constraint.relaxed', 'non-breaking', '§8 Limits/Upload size']]);
    expect(raised.version.ok).toBe(true);
  });

  it('a new endpoint is non-breaking, located like the OpenAPI diff locates operations', () => {
    const r = diff(release(newEndpoint, '1.7.0', 'Adds the list of files.'));
    expect(kinds(r)).toEqual([['endpoint.added', 'non-breaking', '/paths/~1api~1public~1v1~1files/get']]);
    expect(r.changes[0]!.operation).toBe('GET /api/public/v1/files');
    expect(r.version.ok).toBe(true);
    expect(formatText(r, { old: 'a', new: 'b' })).toContain('at GET /api/public/v1/files');
  });

  it('a type change is breaking', () => {
    const r = diff(release(typeChanged, '1.7.0'));
    expect(kinds(r)).toEqual([['response.type.changed', 'breaking', '§2 Assignment/bill_rate']]);
    expect(r.changes[0]!.message).toBe('field "bill_rate": type number → string');
    expect(codes(r)).toEqual(['BREAKING_WITHIN_MAJOR', 'VERSION_BUMP_TOO_SMALL']);
    // 2.0.0 without a /api/public/v2 base path: the major must equal the path version.
    expect(codes(diff(release(typeChanged, '2.0.0')))).toContain('VERSION_MAJOR_PATH_MISMATCH');
  });

  it('a reworded sentence that changes nothing is documentation: PATCH', () => {
    const r = diff(release(reworded, '1.6.1', 'Wording.'));
    expect(kinds(r)).toEqual([['statement.reworded', 'documentation', 'Introduction']]);
    expect(r.changes[0]!.message).toBe(
      'sentence reworded (line 3): "It is a single document." → "It is one single document.": the same statement in other words',
    );
    expect(r.version).toMatchObject({ required: 'patch', ok: true });
    // The new changelog row wants a catalog entry, as `requirements check` says.
    expect(r.version.notes.map((n) => n.code)).toEqual(['REQUIREMENT_UNQUOTED']);
    expect(codes(diff(reworded))).toEqual(['VERSION_NOT_RAISED']);
  });

  it('a field becoming required on create is breaking (an optional field made required)', () => {
    const r = diff(release(madeRequired, '1.7.0'));
    expect(kinds(r)).toEqual([['request.property.became-required', 'breaking', '§2 Employee/last_name']]);
    expect(r.changes[0]!.rule).toBe("§9 breaking: changing a field's type, or making an optional field required");
    expect(codes(r)).toContain('BREAKING_WITHIN_MAJOR');
  });

  it('a new enum value is non-breaking (clients tolerate unknown values); a removed one is breaking', () => {
    const r = diff(release(newValue, '1.7.0'));
    expect(kinds(r)).toEqual([['response.enum.value-added', 'non-breaking', '§2 Project/rate_type']]);
    expect(r.version.ok).toBe(true);
    const removed = diff(
      edit(original, '| entity_type | string | one of: project, organization, employee, contact |',
        '| entity_type | string | one of: project, organization, employee |'),
    );
    expect(kinds(removed)).toEqual([['response.enum.value-removed', 'breaking', '§2 Attachment/entity_type']]);
  });

  it('more of the structure: nullability, query parameters, conditions, shown paths, the page envelope', () => {
    const nullable = diff(edit(original, '| website | string | |', '| website | string or null | |'));
    expect(kinds(nullable)).toEqual([['response.type.widened', 'breaking', '§2 Organization/website']]);
    const query = diff(
      edit(original, '| GET | /cvs | query: limit, cursor, sort, order, q, employee_id |',
        '| GET | /cvs | query: limit, cursor, sort, order, q, employee_id, language (required) |'),
    );
    expect(kinds(query)).toEqual([['parameter.added-required', 'breaking', '/paths/~1api~1public~1v1~1cvs/get/query/language']]);
    const condition = diff(
      edit(original, '| Id missing or belonging to another team | 404 | not_found |', '| Id missing or belonging to another team | 410 | not_found |'),
    );
    expect(kinds(condition)).toEqual([['error-code.removed', 'breaking', '§7 Known conditions/Id missing or belonging to another team']]);
    const shown = diff(
      edit(original, '| DELETE | (path under /files) | delete a file | not specified |', '| DELETE | /files/{id} | delete a file | Delete result |'),
    );
    expect(kinds(shown).map(([k]) => k)).toEqual(['endpoint.documentation', 'response.documentation']);
    const envelope = diff(edit(original, 'nextCursor: string } }`', 'nextCursor: string, total: integer } }`'));
    expect(kinds(envelope)).toEqual([['pagination-envelope.changed', 'breaking', '§2 Page envelope']]);
    const renamed = diff(edit(original, '| vat_id | string | |', '| tax_id | string | |'));
    expect(kinds(renamed).map(([k]) => k)).toEqual(['response.property.removed', 'response.property.added']);
  });

  it('a new major under a new base path takes breaking changes', () => {
    const v2 = release(removedField.replaceAll('/api/public/v1', '/api/public/v2'), '2.0.0', 'v2.');
    const r = diff(v2);
    expect(r.breaking).toBe(true);
    expect(r.version).toMatchObject({ old: '1.6.0', new: '2.0.0', required: 'major', ok: true });
  });
});

describe('document diff: the version and the changelog', () => {
  it('a bump smaller than the changes need, or a version that goes down, fails', () => {
    expect(codes(diff(release(addedField, '1.6.1')))).toEqual(['VERSION_BUMP_TOO_SMALL']);
    expect(codes(diff(release(addedField, '1.7.1')))).toEqual(['VERSION_NOT_RESET']);
    expect(codes(diff(release(addedField, '1.5.9')))).toEqual(expect.arrayContaining(['VERSION_DECREASED', 'CHANGELOG_NOT_DESCENDING']));
  });

  it('a bump without a change is accepted with a note', () => {
    const r = diff(release(original, '1.6.1', 'Behaviour fix.'));
    expect(r.version.ok).toBe(true);
    expect(r.version.notes.map((n) => n.code)).toEqual(['VERSION_RAISED_WITHOUT_CHANGE', 'REQUIREMENT_UNQUOTED']);
  });

  it('released rows stay; an edited row is a note; a new row must say something', () => {
    const removed = edit(original, '| 1.5.0 | Adds `organization_cleared_at` (timestamp) to the time-entry resource. |\n', '');
    expect(codes(diff(removed))).toEqual(['CHANGELOG_ROW_REMOVED']);
    const edited = diff(edit(original, 'to the time-entry resource. |', 'to the time entry. |'));
    expect(edited.version.notes.map((n) => n.code)).toContain('CHANGELOG_ROW_EDITED');
    expect(codes(diff(release(addedField, '1.7.0', '')))).toEqual(['CHANGELOG_ENTRY_EMPTY']);
  });

  it('prints like the OpenAPI diff: the same text layout and JSON keys', () => {
    const r = diff(edits(release(addedField, '1.7.0'), ['| 25 MB |', '| 20 MB |']));
    const text = formatText(r, { old: 'old.md', new: 'new.md' });
    expect(text).toMatch(/^old\.md \(1\.6\.0\) -> new\.md \(1\.7\.0\)\n1 breaking, 1 non-breaking, 0 documentation-only change\(s\)\n/);
    expect(text).toMatch(
      /^Breaking \(1 change\)\n {2}- \[request\.constraint\.tightened\] limit "Upload size" lowered: 25 MB → 20 MB\n {6}at §8 Limits\/Upload size\n/m,
    );
    expect(text).toMatch(/Version: 1\.6\.0 -> 1\.7\.0; required bump: major; FAILED\n {2}x BREAKING_WITHIN_MAJOR/);
    const json = JSON.parse(formatJson(r));
    expect(Object.keys(json)).toEqual(['changes', 'version', 'breaking']);
    expect(Object.keys(json.changes[0])).toEqual(['kind', 'classification', 'location', 'rule', 'message']);
  });
});

describe('document diff: normative statements are behaviour', () => {
  it('a sentence whose direction the text does not tell: behaviour changed, direction unknown, MAJOR, and it fails naming the sentence', () => {
    const r = diff(release(edit(original, 'is reported as missing, the same as', 'is reported as archived, the same as'), '1.7.0'));
    expect(kinds(r)).toEqual([['statement.direction-unknown', 'unknown', '§1 What the service does']]);
    expect(r.changes[0]!.message).toMatch(
      /^sentence reworded \(line 11\): "A record that belongs .*: the statement says something else \(-miss \+archiv\); quoted by ISO-OTHER-TEAM-AS-MISSING/,
    );
    expect(r.version).toMatchObject({ required: 'major', ok: false });
    expect(codes(r)).toEqual(['BEHAVIOUR_DIRECTION_UNKNOWN', 'VERSION_BUMP_TOO_SMALL']);
    expect(r.version.notes.map((n) => n.code)).toContain('REQUIREMENT_QUOTE_CHANGED');
    const text = formatText(r, { old: 'a', new: 'b' });
    expect(text).toContain('0 breaking, 0 non-breaking, 0 documentation-only change(s), 1 behaviour change(s) of unknown direction');
    expect(text).toMatch(/^Behaviour changed, direction unknown \(1 change\)$/m);
  });

  it('a rule column, a payload remark, a condition and a §5 rule are read by direction', () => {
    const capped = diff(edit(original, '| limit | string | page size |', '| limit | string | page size, at most 100 |'));
    expect(kinds(capped)).toEqual([['statement.tightened', 'breaking', '§4 List query parameters/limit']]);
    const relevance = diff(edit(original, '| order | string | asc or desc |', '| order | string | asc, desc or relevance |'));
    expect(kinds(relevance)).toEqual([['statement.value-added', 'non-breaking', '§4 List query parameters/order']]);
    const refused = diff(edit(original, '(an empty object is accepted as a request)', '(an empty object is refused with 400)'));
    expect(refused.changes.map((c) => c.classification)).toEqual(['breaking']);
    expect(refused.changes[0]!.operation).toBe('PATCH /api/public/v1/projects/{id}');
    const scope = diff(edit(original, 'existing keys do not gain them and must be re-issued to opt in.', 'existing keys gain them.'));
    expect(scope.version.required).toBe('major');
  });

  it('a required marker on a PATCH body, or "required on update" on a field, is a field made required', () => {
    const patch = diff(edit(original, '| JSON subset of assignment fields |', '| JSON subset of assignment fields; role (string, required) |'));
    expect(kinds(patch)).toEqual([['request.property.added-required', 'breaking', '/paths/~1api~1public~1v1~1assignments~1{id}/patch/requestBody/role']]);
    const update = diff(edit(original, '| role | string | |', '| role | string | required on update |'));
    expect(kinds(update)).toEqual([['request.property.became-required', 'breaking', '§2 Assignment/role']]);
  });

  it('additions are MINOR: a new optional header, a deprecation signal, a new response header', () => {
    const header = diff(
      release(
        edit(original, 'takes an optional header `idempotency-key` (string).',
          'takes an optional header `idempotency-key` (string). Every endpoint takes an optional header `x-request-id` (string).'),
        '1.7.0',
      ),
    );
    expect(kinds(header)).toEqual([['statement.request-input-added', 'non-breaking', '§4 Endpoints']]);
    expect(header.version.ok).toBe(true);
    const deprecated = diff(edit(original, '## 5. Authentication', '`GET /cvs` is deprecated.\n\n## 5. Authentication'));
    expect(deprecated.changes.map((c) => c.kind)).toEqual(['statement.deprecation']);
    expect(deprecated.version.required).toBe('minor');
  });

  it('wording that keeps every meaning-bearing token is a PATCH; the same edit of a number is not', () => {
    expect(diff(edit(original, '- Every record belongs to a team.', '- Each record belongs to a team.')).version.required).toBe('patch');
    const shorter = diff(edit(original, 'for at least 6 months', 'for at least 3 months'));
    expect(kinds(shorter)).toEqual([['statement.behaviour-changed', 'breaking', '§9 Versioning']]);
  });
});
