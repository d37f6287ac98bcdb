// The operation table against the endpoint tables of §4: the document as it is agrees with it, and
// each kind of difference an edit of §4 (or of the table) makes is named with its endpoint.
import { describe, expect, it } from 'vitest';
import { readApiDocument } from '../document/api-document.js';
import { edit, original } from '../document/edits.js';
import { PLACEHOLDER_PATHS } from '../surface.js';
import { endpoints } from './operations.js';
import { compareWithSection4 } from './section4.js';

const compare = (text: string, table = endpoints) => compareWithSection4(readApiDocument(text, 'edited'), PLACEHOLDER_PATHS, table);

describe('the operation table and §4', () => {
  it('agree: every §4 row is an operation with its method, body and answer, and every operation a row (or named in prose)', () => {
    expect(compare(original)).toEqual([]);
  });

  it('names an endpoint of §4 the table lacks, and one of the table §4 lacks', () => {
    const added = edit(original, '| GET | /cvs | query: limit, cursor, sort, order, q, employee_id | Page of CV |',
      '| GET | /cvs | query: limit, cursor, sort, order, q, employee_id | Page of CV |\n| GET | /cvs/{id} | none | CV |');
    expect(compare(added)).toEqual([expect.stringMatching(/^GET \/cvs\/\{id\}: in §4 \(line \d+\) and not in the operation table$/)]);
    const removed = edit(original, '| DELETE | /assignments/{id} | none | Delete result |\n', '');
    expect(compare(removed)).toEqual(['DELETE /assignments/{id}: in the operation table (deleteAssignment) and not in §4']);
  });

  it('names a method, an answer, a body or a query parameter that differs', () => {
    expect(compare(edit(original, '| PATCH | /employees/{id} |', '| PUT | /employees/{id} |'))).toEqual([
      expect.stringMatching(/^PUT \/employees\/\{id\}: in §4 \(line \d+\) and not in the operation table$/),
      'PATCH /employees/{id}: in the operation table (updateEmployee) and not in §4',
    ]);
    expect(compare(edit(original, '| GET | /files/{id} | none | File |', '| GET | /files/{id} | none | Attachment |')))
      .toEqual(['GET /files/{id}: answers "Attachment" in §4 and "file" (FileRecord) in the operation table']);
    expect(compare(edit(original, '| POST | /files | multipart/form-data: one `file` part, optional `category` |', '| POST | /files | JSON: name (string) |')))
      .toEqual(['POST /files: body JSON in §4 and multipart/form-data in the operation table']);
    expect(
      compare(
        edit(original, 'query: limit, cursor, sort, order, q, employee_id | Page of CV',
          'query: limit, cursor, sort, order, q, employee_id, skill | Page of CV'),
      ),
    )
      .toEqual(['GET /cvs: query parameter "skill" is in §4 and not in the operation table']);
    expect(compare(edit(original, 'employee_id | Page of CV', 'employee_id | CV')))
      .toEqual([
        'GET /cvs: answers "CV" in §4 and "page of cv" (CvPage) in the operation table',
        'GET /cvs: not a list in §4 and a list in the operation table',
      ]);
    expect(compare(edit(original, 'JSON: first_name (string, required)', 'JSON: first_name (string, required), last_name (string, required)')))
      .toEqual(['POST /employees: body field "last_name" is required in §4 and optional in the operation table']);
    expect(compare(edit(original, 'one `file` part, optional `category` | File', 'one `file` part, `category` | File')))
      .toEqual(['POST /files: multipart part "category" is required in §4 and optional in the operation table']);
  });

  it('reads a change of the table too: an operation without its row', () => {
    const table = [...endpoints, { ...endpoints[0]!, path: '/widgets', operationId: 'listWidgets', returns: 'WidgetPage' }];
    expect(compare(original, table)).toEqual(['GET /widgets: in the operation table (listWidgets) and not in §4']);
  });
});
