// §4 "The path parameter id is a UUID matching the canonical UUID pattern (versions 1 to 8,
// variant 8/9/a/b), or the all-zero UUID, or the all-f UUID."
import { readFileSync } from 'node:fs';
import type { Rec } from '../contract/json.js';
import { PATH_ID_PATTERN } from '../specs/ids.js';
import { check } from './harness/check.js';
import { ensure, expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { errorCode } from './harness/judge/problems.js';
import { createAssignmentFixture, createOrganization, testFile, uploadFile } from './harness/records.js';
import type { ApiResponse } from './harness/transport/client.js';
import { lists, PAGEABLE, SAMPLE_PAGES, walkWithin } from './harness/walk.js';

const vectors = JSON.parse(readFileSync(new URL('../fixtures/ids.json', import.meta.url), 'utf8')) as { invalid: string[]; };

/**
 * Forms of an existing id outside PATH_ID_PATTERN. `same`: spellings of the same UUID that common
 * parsers read as it (Go's uuid.Parse, .NET's Guid, Rust's uuid); `changed`: forms that name
 * another UUID (version 0 or 9, variant c) or none (a character more or less).
 */
function otherForms(id: string): { same: string[]; changed: string[]; } {
  const hex = id.toLowerCase();
  const outside = (forms: string[]) => forms.filter((f) => !PATH_ID_PATTERN.test(f));
  return {
    same: outside([hex.replace(/-/g, ''), `{${hex}}`, `urn:uuid:${hex}`, `${hex} `, ` ${hex}`]),
    changed: outside([
      `${hex.slice(0, 14)}0${hex.slice(15)}`,
      `${hex.slice(0, 14)}9${hex.slice(15)}`,
      `${hex.slice(0, 19)}c${hex.slice(20)}`,
      `${hex}0`,
      hex.slice(0, -1),
    ]),
  };
}

/** A 2xx whose body is one record (an object with an id), not a page or anything else. */
const servesRecord = (res: ApiResponse) => {
  const body = res.body as Rec | undefined;
  return is2xx(res) && !!body && typeof body === 'object' && !Array.isArray(body) && typeof body.id === 'string' && !('data' in body);
};

/** A refusal: a redirect (to the canonical spelling, say) or a client error, never a 5xx. */
const refused = (res: ApiResponse) => res.status >= 300 && res.status < 500;

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
  for (const list of PAGEABLE) {
    records.push(...(await walkWithin(c, lists[list], { limit: 100, maxPages: SAMPLE_PAGES })).items);
  }
  const bad = records.flatMap((r) => idsIn(r).filter((id) => !PATH_ID_PATTERN.test(id)).map((id) => `${id} (in ${String(r.id)})`));
  if (bad.length) fail(`ids outside the §4 pattern: ${bad.slice(0, 5).join(', ')}`);
});

check([
  'ID-NON-CANONICAL-NOT-SERVED',
], 'forms of an existing id outside the pattern answer 4xx, a spelling of the same UUID at most that record; never another and never 5xx', async (c) => {
  const { assignment, project } = await createAssignmentFixture(c);
  const statuses = new Set<number>();
  const check4xx = (res: ApiResponse, what: string) => {
    if (is2xx(res)) fail(`${what} was served`, res);
    expectStatus(res, '4xx', what);
    statuses.add(res.status);
  };
  // §4 fixes the pattern clients send, not a status for other spellings, and §9 counts relaxed
  // validation as non-breaking: a spelling of the same UUID may be refused or read as that UUID.
  const spellings = new Set<string>();
  const sameValue = (res: ApiResponse, canonical: string, what: string) => {
    if (res.status >= 500) fail(`${what} answered ${res.status}`, res);
    if (!is2xx(res)) {
      ensure(refused(res), `${what}: expected a refusal (3xx, 4xx) or the record, got ${res.status}`, res);
      statuses.add(res.status);
      spellings.add(`refused (${res.status})`);
      return;
    }
    const id = (res.body as Rec | undefined)?.id;
    ensure(servesRecord(res) && typeof id === 'string' && id.toLowerCase() === canonical.toLowerCase(),
      `${what} answered ${res.status} with ${typeof id === 'string' ? `the record ${id}` : 'no record'}, not the record ${canonical} it spells`, res);
    spellings.add('served as the id it spells');
  };
  for (const [path, id] of [['/projects', String(project.id)], ['/assignments', String(assignment.id)]] as const) {
    const { same, changed } = otherForms(id);
    for (const form of changed) check4xx(await c.api.send({ method: 'GET', path: `${path}/${encodeURIComponent(form)}` }), `GET ${path}/${form}`);
    for (const form of same) {
      sameValue(await c.api.send({ method: 'GET', path: `${path}/${encodeURIComponent(form)}` }), id, `GET ${path}/${JSON.stringify(form)}`);
    }
  }
  c.reading('ids.non-canonical-status', [...statuses].sort().join(','));
  const id = String(assignment.id);
  const { same, changed } = otherForms(id);
  for (const form of same.slice(0, 3)) {
    sameValue(await c.api.send({ method: 'PATCH', path: `/assignments/${encodeURIComponent(form)}`, json: { role: 'x' } }), id, `PATCH /assignments/${form}`);
  }
  for (const form of changed.slice(0, 2)) {
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
  const upper = await c.api.send({ method: 'GET', path: `/assignments/${id.toUpperCase()}` });
  c.reading('ids.upper-case', is2xx(upper) ? 'served' : `answered ${upper.status}`);
  // last, as it may delete the assignment: a DELETE served under another spelling removes that record
  const del = await c.api.send({ method: 'DELETE', path: `/assignments/${encodeURIComponent(same[0]!)}` });
  if (is2xx(del)) {
    spellings.add('served as the id it spells');
    const after = await c.api.send({ method: 'GET', path: `/assignments/${id}` });
    ensure(after.status === 404, `DELETE /assignments/${same[0]} answered ${del.status}, but the assignment ${id} it spells is still there`, after);
  } else ensure(refused(del), `DELETE /assignments/${same[0]}: expected a refusal (3xx, 4xx) or the deletion, got ${del.status}`, del);
  c.reading('ids.other-spellings', [...spellings].sort().join(', '));
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
