// §2 Resources and §4 Endpoints: every endpoint answers at its path, and every response
// validates against specs/schemas in the shape the deployment serves. Every response of the run is
// judged for that (suites/harness/judge/audit.ts); the checks here name each rule's requirement and look
// at the survey of every endpoint, one rule each.
import type { Rec } from '../contract/json.js';
import { expectEveryView } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { ensure, expectStatus, fail } from './harness/judge/assert.js';
import { expectResource } from './harness/judge/problems.js';
import { detectedShape } from './harness/judge/shape.js';
import { absentListedFields } from './harness/listed-fields.js';
import { aProject, createAssignmentFixture, createEmployee, createOrganization, marker } from './harness/records.js';
import { survey } from './harness/survey.js';
import { disagreements, viewsOf } from './harness/views.js';
import { fetchPage, lists, SAMPLE_PAGES, walkWithin } from './harness/walk.js';

/** Not this deployment's: a rule of the older shape, where the deployment serves the fuller one. */
const olderShapeOnly = (kind: 'project' | 'organization') =>
  `not applicable: the deployment serves the fuller shape of ${kind}s; this rule is about the older one (§2)`;

/**
 * The check of one rule of what every response must be: it fails on the first response of the
 * survey the audit found violating `requirement` (suites/harness/judge/audit.ts), as that finding, so
 * that the check and every other response showing it make one cause.
 */
async function lensed(c: CheckContext, requirement: string): Promise<void> {
  for (const s of await survey(c)) {
    const v = s.res.findings?.find((f) => f.requirements.includes(requirement));
    if (v) fail(v.message, s.res, { requirement, finding: v.key });
  }
}

const legacyOnly = (c: CheckContext, kind: 'project' | 'organization') => {
  if (detectedShape(kind) !== 'legacy') c.skip(olderShapeOnly(kind));
};

check([
  'RES-ID-UUID',
], 'schemas: every id and *_id is a UUID string', (c) => lensed(c, 'RES-ID-UUID'));

check([
  'RES-INHERENT-FIELDS',
], 'schemas: every record carries the fields inherent to its resource; other absent listed fields are recorded', async (c) => {
  await lensed(c, 'RES-INHERENT-FIELDS');
  const absent = new Map<string, Set<string>>();
  for (const s of await survey(c)) {
    const records = s.page ? ((s.res.body as { data?: unknown[]; }).data ?? []) : [s.res.body];
    for (const r of records) {
      for (const f of absentListedFields(s.resource, r)) (absent.get(s.resource) ?? absent.set(s.resource, new Set()).get(s.resource)!).add(f);
    }
  }
  for (const [resource, fields] of absent) c.reading(`fields.absent.${resource}`, [...fields].sort().join(', '));
});

check([
  'RES-TIMESTAMPS-DATES-STRINGS',
], 'schemas: every *_at and *_date is a string that reads as a timestamp or date (or null where typed so)', (c) => lensed(c, 'RES-TIMESTAMPS-DATES-STRINGS'));

check([
  'RES-NULLABLE-FIELDS',
], 'schemas: fields typed null are a string or null', (c) => lensed(c, 'RES-NULLABLE-FIELDS'));

check([
  'RES-NON-NULL-FIELDS',
], 'schemas: fields not typed null are never null', (c) => lensed(c, 'RES-NON-NULL-FIELDS'));

check([
  'STATE-STAGE-HIDDEN-SORT',
], 'schemas: every stage has the Stage shape (hidden boolean, sort integer)', (c) => lensed(c, 'STATE-STAGE-HIDDEN-SORT'));

check([
  'STATE-PROJECT-STATUS-STAGE',
], 'schemas: every project has a string status and a Stage', (c) => lensed(c, 'STATE-PROJECT-STATUS-STAGE'));

check([
  'RES-SHAPE-CONSISTENT',
], 'schemas: every project and organization is in the shape first seen', (c) => lensed(c, 'RES-SHAPE-CONSISTENT'));

check([
  'RES-PAGE-ENVELOPE',
], 'schemas: every list answers the page envelope', (c) => lensed(c, 'RES-PAGE-ENVELOPE'));

check([
  'RES-CV-DATA-HIDDEN',
], 'schemas: every item of a CV data section carries hidden as a boolean', (c) => lensed(c, 'RES-CV-DATA-HIDDEN'));

check([
  'RES-PROJECT-LEGACY-SHAPE',
], 'schemas: legacy projects carry their organization references as strings', async (c) => {
  await survey(c);
  legacyOnly(c, 'project');
  await lensed(c, 'RES-PROJECT-LEGACY-SHAPE');
});

check([
  'RES-ORGANIZATION-LEGACY-SHAPE',
], 'schemas: legacy organizations and their addresses match their schemas', async (c) => {
  await survey(c);
  legacyOnly(c, 'organization');
  await lensed(c, 'RES-ORGANIZATION-LEGACY-SHAPE');
});

check([
  'GEN-JSON-BODIES',
], 'every response with a body has a JSON content-type and parses', (c) => lensed(c, 'GEN-JSON-BODIES'));

check([
  'GEN-BASE-PATH',
  'AUTH-BEARER-HEADER',
  'VER-MAJOR-IN-PATH',
  'CHANGELOG-1-0-0-INITIAL-SURFACE',
], 'the shown read endpoints answer 2xx under /api/public/v1 with the bearer key', async (c) => {
  for (const path of ['/projects', '/assignments', '/organizations', '/cvs']) {
    const res = await c.api.send({ method: 'GET', path });
    expectStatus(res, '2xx', `GET /api/public/v1${path}`);
  }
});

check([
  'EP-PROJECTS-LIST',
  'RES-PROJECT-SHAPE',
  'RES-PAGE-ENVELOPE',
  'LIST-PAGE-WALK',
], 'GET /projects: every page and every project matches the schema of the served shape', async (c) => {
  const { items, complete } = await walkWithin(c, lists.projects, { limit: 50, maxPages: SAMPLE_PAGES });
  c.reading('projects.count', complete ? String(items.length) : `more than ${items.length}`);
});

check([
  'EP-PROJECTS-GET',
  'RES-PROJECT-SHAPE',
  'CHANGELOG-1-0-0-INITIAL-SURFACE',
], 'GET /projects/{id} answers the listed project', async (c) => {
  const { page } = await fetchPage(c, lists.projects, { limit: 5 });
  if (!page.data.length) c.skip('the team has no project');
  for (const listed of page.data.slice(0, 3)) {
    const res = await c.api.send({ method: 'GET', path: `/projects/${listed.id}` });
    expectStatus(res, '2xx', 'GET /projects/{id}');
    const project = expectResource(res, 'project');
    ensure(project.id === listed.id, `asked for ${listed.id}, got ${String(project.id)}`, res);
  }
});

check([
  'EP-PROJECTS-PATCH',
  'EP-PATCH-PERSISTS',
  'RES-PROJECT-SHAPE',
], 'PATCH /projects/{id} with {title} answers and keeps the new title', async (c) => {
  const project = await aProject(c);
  await c.ledger.before('projects', project);
  const title = `${marker(c)} title`;
  const res = await c.api.send({ method: 'PATCH', path: `/projects/${project.id}`, json: { title } });
  expectStatus(res, '2xx', 'PATCH /projects/{id}');
  ensure(expectResource(res, 'project', { reads: ['title'] }).title === title, 'the response does not carry the new title', res);
  const again = await c.api.send({ method: 'GET', path: `/projects/${project.id}` });
  expectStatus(again, '2xx', 'GET /projects/{id}');
  ensure(expectResource(again, 'project', { reads: ['title'] }).title === title, 'a later read does not show the patched title', again);
}, { mutates: true });

check([
  'EP-PROJECTS-PATCH',
], 'PATCH /projects/{id} reads any JSON object: a body padded with whitespace, a title full of brackets', async (c) => {
  // §4 asks for a "JSON object": RFC 8259 §2 allows whitespace around every token, and brackets
  // inside a string are text. A server guarding the nesting depth of bodies must not count either.
  const project = await aProject(c);
  await c.ledger.before('projects', project);
  const current = await c.api.send({ method: 'GET', path: `/projects/${project.id}` });
  expectStatus(current, '2xx', 'GET /projects/{id}');
  const patch = async (title: string, rawBody: string, what: string) => {
    const res = await c.api.send({ method: 'PATCH', path: `/projects/${project.id}`, headers: { 'content-type': 'application/json' }, rawBody });
    expectStatus(res, '2xx', `PATCH /projects/{id} with ${what}`);
    ensure(expectResource(res, 'project', { reads: ['title'] }).title === title, `the response to ${what} does not carry the title sent`, res);
  };
  const padded = `${marker(c)} padded`;
  await patch(padded, `{${' '.repeat(80)}"title"${' '.repeat(8)}:${' '.repeat(8)}${JSON.stringify(padded)}${'\n'.repeat(8)}}`, 'a body padded with whitespace');
  const brackets = `${marker(c)} ${'['.repeat(70)}`;
  await patch(brackets, JSON.stringify({ title: brackets }), 'a title of 70 opening brackets');
  // the title it had, so that the lists other checks walk by title see the project where it was
  const title = (current.body as Rec | undefined)?.title;
  if (typeof title === 'string') await patch(title, JSON.stringify({ title }), 'the title it had');
}, { mutates: true });

check([
  'EP-PROJECTS-PATCH',
],
  'PATCH /projects/{id} with a body that is not a JSON object (null, an array, a number, a string, a multipart form) is refused, or read as no change; never a server error',
  async (c) => {
    // §4 asks for a "JSON object": anything else is the client's mistake. Refusing it is expected;
    // reading it as an empty PATCH is relaxed validation (§9), recorded; a 5xx is neither.
    const project = await aProject(c);
    const before = await c.api.send({ method: 'GET', path: `/projects/${project.id}` });
    expectStatus(before, '2xx', 'GET /projects/{id}');
    const boundary = 'conformanceNotJson';
    const bodies: { what: string; contentType: string; rawBody: string; }[] = [
      ...['null', '[]', '5', '"text"'].map((rawBody) => ({ what: rawBody, contentType: 'application/json', rawBody })),
      {
        what: 'a multipart form',
        contentType: `multipart/form-data; boundary=${boundary}`,
        rawBody: `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${marker(c)}\r\n--${boundary}--\r\n`,
      },
    ];
    const accepted: string[] = [];
    for (const b of bodies) {
      const res = await c.api.send({ method: 'PATCH', path: `/projects/${project.id}`, headers: { 'content-type': b.contentType }, rawBody: b.rawBody });
      if (res.status >= 200 && res.status < 300) accepted.push(b.what);
      else expectStatus(res, '4xx', `PATCH /projects/{id} with ${b.what}`);
    }
    if (accepted.length) c.reading('patch.not-an-object', `accepted: ${accepted.join(', ')}`);
    const after = await c.api.send({ method: 'GET', path: `/projects/${project.id}` });
    expectStatus(after, '2xx', 'GET /projects/{id}');
    ensure(JSON.stringify(after.body) === JSON.stringify(before.body), 'a PATCH whose body is not a JSON object changed the project', after);
  }, { mutates: true });

check([
  'EP-PROJECTS-PATCH-EMPTY',
  'RES-PROJECT-SHAPE',
], 'PATCH /projects/{id} with {} is accepted and changes nothing', async (c) => {
  const project = await aProject(c);
  const before = await c.api.send({ method: 'GET', path: `/projects/${project.id}` });
  expectStatus(before, '2xx', 'GET /projects/{id}');
  const res = await c.api.send({ method: 'PATCH', path: `/projects/${project.id}`, json: {} });
  expectStatus(res, '2xx', 'PATCH /projects/{id} with {}');
  const after = expectResource(res, 'project');
  const was = before.body as Record<string, unknown>;
  // The answer is another view: key order, an instant's spelling and the fields it shows may differ.
  const answered = disagreements(was, after, ['updated_at']);
  ensure(answered.length === 0, `an empty PATCH answered ${answered.join(', ')} other than GET showed them`, res);
  // GET again, the same view as before: every field as it was, none gone.
  const again = await c.api.send({ method: 'GET', path: `/projects/${project.id}` });
  expectStatus(again, '2xx', 'GET /projects/{id} after the empty PATCH');
  const now = expectResource(again, 'project');
  const changed = [...disagreements(was, now, ['updated_at']), ...Object.keys(was).filter((k) => !(k in now))];
  ensure(changed.length === 0, `an empty PATCH changed ${changed.join(', ')}`, again);
}, { mutates: true });

check([
  'EP-EMPLOYEES-CREATE',
  'RES-EMPLOYEE-SHAPE',
], 'POST /employees with first_name answers an Employee with that first_name', async (c) => {
  const first = `${marker(c)} employee`;
  const employee = await createEmployee(c, { first_name: first, last_name: 'Conformance', is_active: true });
  ensure(employee.first_name === first, `first_name ${JSON.stringify(employee.first_name)} is not the one sent`);
}, { mutates: true });

check([
  'EP-EMPLOYEES-PATCH',
  'STATE-EMPLOYEE-IS-ACTIVE',
  'RES-EMPLOYEE-SHAPE',
], 'PATCH /employees/{id} answers the new last_name and is_active', async (c) => {
  const employee = await createEmployee(c, { is_active: true });
  const res = await c.api.send({ method: 'PATCH', path: `/employees/${employee.id}`, json: { last_name: 'Patched' } });
  expectStatus(res, '2xx', 'PATCH /employees/{id}');
  ensure(expectResource(res, 'employee', { reads: ['last_name'] }).last_name === 'Patched', 'last_name not patched', res);
  const toggled = await c.api.send({ method: 'PATCH', path: `/employees/${employee.id}`, json: { is_active: false } });
  expectStatus(toggled, '2xx', 'PATCH /employees/{id} is_active');
  ensure(expectResource(toggled, 'employee', { reads: ['is_active'] }).is_active === false, 'is_active not toggled to false', toggled);
}, { mutates: true });

check([
  'EP-ASSIGNMENTS-CREATE',
  'EP-ASSIGNMENTS-GET',
  'RES-ASSIGNMENT-SHAPE',
  'RES-EMPLOYEE-SHAPE',
  'CHANGELOG-1-6-0-GET-BY-ID',
], 'POST /assignments then GET /assignments/{id}: an Assignment with both ids and the embedded employee', async (c) => {
  const { project, employee, assignment } = await createAssignmentFixture(c);
  ensure(assignment.employee_id === employee.id && assignment.project_id === project.id, 'the assignment does not carry the ids sent');
  const res = await c.api.send({ method: 'GET', path: `/assignments/${assignment.id}` });
  expectStatus(res, '2xx', 'GET /assignments/{id}');
  const got = expectResource(res, 'assignment', { reads: ['employee_id', 'employee/id'] });
  ensure(got.id === assignment.id, 'GET answered another assignment', res);
  ensure(got.employee.id === got.employee_id, 'the embedded employee id differs from employee_id', res);
}, { mutates: true });

check([
  'EP-ASSIGNMENTS-PATCH',
  'EP-PATCH-PERSISTS',
  'RES-ASSIGNMENT-SHAPE',
], 'PATCH /assignments/{id} with {role} answers and keeps the new role', async (c) => {
  const { assignment } = await createAssignmentFixture(c);
  const role = `${marker(c)} patched`;
  const res = await c.api.send({ method: 'PATCH', path: `/assignments/${assignment.id}`, json: { role } });
  expectStatus(res, '2xx', 'PATCH /assignments/{id}');
  ensure(expectResource(res, 'assignment', { reads: ['role'] }).role === role, 'the response does not carry the new role', res);
  const again = await c.api.send({ method: 'GET', path: `/assignments/${assignment.id}` });
  ensure(expectResource(again, 'assignment', { reads: ['role'] }).role === role, 'a later read does not show the patched role', again);
}, { mutates: true });

check([
  'EP-ASSIGNMENTS-LIST',
  'RES-PAGE-ENVELOPE',
  'RES-ASSIGNMENT-SHAPE',
], 'GET /assignments: every page and assignment matches the schema', async (c) => {
  await walkWithin(c, lists.assignments, { limit: 50, maxPages: SAMPLE_PAGES });
});

check([
  'EP-ASSIGNMENTS-DELETE',
  'RES-DELETE-RESULT',
  'EP-DELETE-GONE',
], 'DELETE /assignments/{id} answers a Delete result; the assignment is gone', async (c) => {
  const { assignment } = await createAssignmentFixture(c);
  const res = await c.api.send({ method: 'DELETE', path: `/assignments/${assignment.id}` });
  expectStatus(res, '2xx', 'DELETE /assignments/{id}');
  c.ledger.gone(String(assignment.id));
  const body = expectResource(res, 'delete-result', { what: 'delete result', reads: ['success'] });
  ensure(body.success === true, 'success is not true', res);
  const after = await c.api.send({ method: 'GET', path: `/assignments/${assignment.id}` });
  expectStatus(after, 404, 'GET of the deleted assignment');
}, { mutates: true });

check([
  'EP-ORGANIZATIONS-LIST',
  'RES-PAGE-ENVELOPE',
  'RES-ORGANIZATION-SHAPE',
], 'GET /organizations: every page and organization matches the schema of the served shape', async (c) => {
  await walkWithin(c, lists.organizations, { limit: 50, maxPages: SAMPLE_PAGES });
});

check([
  'EP-ORGANIZATIONS-CREATE',
  'RES-ORGANIZATION-SHAPE',
], 'create organization answers an Organization with the name sent', async (c) => {
  const name = `${marker(c)} organization`;
  const org = await createOrganization(c, { name });
  ensure(org.name === name, 'the organization does not carry the name sent');
}, { mutates: true });

check([
  'EP-ORGANIZATIONS-PATCH',
  'EP-PATCH-PERSISTS',
  'RES-ORGANIZATION-SHAPE',
], 'PATCH /organizations/{id} with {notes} answers and keeps the new notes', async (c) => {
  const org = await createOrganization(c);
  const notes = `${marker(c)} notes`;
  const res = await c.api.send({ method: 'PATCH', path: `/organizations/${org.id}`, json: { notes } });
  expectStatus(res, '2xx', 'PATCH /organizations/{id}');
  ensure(expectResource(res, 'organization', { reads: ['notes'] }).notes === notes, 'the response does not carry the new notes', res);
  await expectEveryView(c, viewsOf(c, { kind: 'organization', id: String(org.id), name: String(org.name) }), { id: org.id, notes },
    'after PATCH /organizations/{id}');
}, { mutates: true });

check([
  'EP-CVS-LIST',
  'RES-PAGE-ENVELOPE',
  'RES-CV-SHAPE',
  'RES-CV-DATA-HIDDEN',
], 'GET /cvs: every page and CV matches the schema', async (c) => {
  const { items, complete } = await walkWithin(c, lists.cvs, { limit: 50, maxPages: SAMPLE_PAGES });
  c.reading('cvs.count', complete ? String(items.length) : `more than ${items.length}`);
});
