// §4 "The path parameter id is a UUID matching the canonical UUID pattern (versions 1 to 8,
// variant 8/9/a/b), or the all-zero UUID, or the all-f UUID."
import { readFileSync } from 'node:fs';
import { PATH_ID_PATTERN } from '../specs/ids.js';
import { ensure, errorCode, expectStatus, fail, is2xx } from './harness/assert.js';
import { check } from './harness/check.js';
import type { ApiResponse } from './harness/client.js';
import { createAssignmentFixture, createOrganization, testFile, uploadFile } from './harness/records.js';
import { lists, SAMPLE_PAGES, walkWithin } from './harness/walk.js';

type Rec = Record<string, unknown>;
const vectors = JSON.parse(readFileSync(new URL('../fixtures/ids.json', import.meta.url), 'utf8')) as { invalid: string[]; };

/** Non-canonical spellings of an existing id (§4 pattern), each outside PATH_ID_PATTERN. */
function nonCanonical(id: string): string[] {
  const hex = id.toLowerCase();
  const forms = [
    hex.replace(/-/g, ''),
    `{${hex}}`,
    `urn:uuid:${hex}`,
    `${hex.slice(0, 14)}0${hex.slice(15)}`,
    `${hex.slice(0, 14)}9${hex.slice(15)}`,
    `${hex.slice(0, 19)}c${hex.slice(20)}`,
    `${hex}0`,
    `${hex} `,
    hex.slice(0, -1),
  ];
  return forms.filter((f) => !PATH_ID_PATTERN.test(f));
}

/** A 2xx whose body is one record (an object with an id), not a page or anything else. */
const servesRecord = (res: ApiResponse) => {
  const body = res.body as Rec | undefined;
  return is2xx(res) && !!body && typeof body === 'object' && !Array.isArray(body) && typeof body.id === 'string' && !('data' in body);
};

function idsIn(record: Rec, into: string[] = []): string[] {
  for (const [k, v] of Object.entries(record)) {
    // external ids (source_external_id) name records elsewhere; the schemas leave them free-form
    if ((k === 'id' || (k.endsWith('_id') && !k.endsWith('external_id'))) && typeof v === 'string') into.push(v);
    else if (v && typeof v === 'object' && !Array.isArray(v) && k === 'employee') idsIn(v as Rec, into);
  }
  return into;
}

check([
  'ID-PATH-PATTERN',
  'RES-ID-UUID',
], 'every id the server returns matches the path id pattern', async (c) => {
  const records: Rec[] = [];
  if (!c.settings.readOnly) {
    const { employee, assignment } = await createAssignmentFixture(c);
    records.push(employee, assignment, await createOrganization(c));
    const file = await uploadFile(c, testFile(c, 16));
    if (is2xx(file)) records.push(file.body as Rec);
  }
  for (const list of ['projects', 'assignments', 'organizations', 'cvs'] as const) {
    records.push(...(await walkWithin(c, lists[list], { limit: 100, maxPages: SAMPLE_PAGES })).items);
  }
  const bad = records.flatMap((r) => idsIn(r).filter((id) => !PATH_ID_PATTERN.test(id)).map((id) => `${id} (in ${String(r.id)})`));
  if (bad.length) fail(`ids outside the §4 pattern: ${bad.slice(0, 5).join(', ')}`);
});

check([
  'ID-NON-CANONICAL-NOT-SERVED',
], 'non-canonical forms of an existing id answer 4xx, never the record and never 5xx', async (c) => {
  const { assignment, project } = await createAssignmentFixture(c);
  const check4xx = (res: ApiResponse, what: string) => {
    if (is2xx(res)) fail(`${what} was served`, res);
    expectStatus(res, '4xx', what);
  };
  const statuses = new Set<number>();
  for (const [path, id] of [['/projects', String(project.id)], ['/assignments', String(assignment.id)]] as const) {
    for (const form of nonCanonical(id)) {
      const res = await c.api.send({ method: 'GET', path: `${path}/${encodeURIComponent(form)}` });
      check4xx(res, `GET ${path}/${form}`);
      statuses.add(res.status);
    }
  }
  c.reading('ids.non-canonical-status', [...statuses].sort().join(','));
  for (const form of nonCanonical(String(assignment.id)).slice(0, 4)) {
    check4xx(await c.api.send({ method: 'PATCH', path: `/assignments/${encodeURIComponent(form)}`, json: { role: 'x' } }), `PATCH /assignments/${form}`);
    check4xx(await c.api.send({ method: 'DELETE', path: `/assignments/${encodeURIComponent(form)}` }), `DELETE /assignments/${form}`);
  }
  // A vector that changes the route (the empty string: GET /projects/) may answer whatever that
  // route answers, e.g. the list; only a record served under a spelling outside the pattern fails.
  for (const form of vectors.invalid.slice(0, 40)) {
    const res = await c.api.send({ method: 'GET', path: `/projects/${encodeURIComponent(form)}` });
    if (res.status >= 500) fail(`GET /projects/${JSON.stringify(form)} answered ${res.status}`, res);
    if (servesRecord(res)) fail(`GET /projects/${JSON.stringify(form)} served a record`, res);
  }
  const upper = await c.api.send({ method: 'GET', path: `/assignments/${String(assignment.id).toUpperCase()}` });
  c.reading('ids.upper-case', is2xx(upper) ? 'served' : `answered ${upper.status}`);
}, { mutates: true });

check([
  'ID-NIL-MAX-NOT-FOUND',
], 'the all-zero and all-f UUIDs are valid ids that answer 404 not_found', async (c) => {
  for (const id of ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff']) {
    for (const path of ['/projects', '/assignments', '/files']) {
      const res = await c.api.send({ method: 'GET', path: `${path}/${id}` });
      expectStatus(res, 404, `GET ${path}/${id}`);
      ensure(errorCode(res) === 'not_found', `error.code is ${errorCode(res)}, not not_found`, res);
    }
  }
});
