// §2 Resources and §4 Endpoints: every endpoint answers at its path, and every response
// validates against specs/schemas in the shape the deployment serves.
import { expectEveryView } from './harness/agreement.js';
import { ensure, expectStatus, fail } from './harness/assert.js';
import { check, type CheckContext } from './harness/check.js';
import { absentListedFields } from './harness/listed-fields.js';
import { expectResource, type SchemaProblem } from './harness/problems.js';
import { aProject, createAssignmentFixture, createEmployee, createOrganization, marker } from './harness/records.js';
import { detectedShape } from './harness/shape.js';
import { problemsOf, type Sample, survey, valueAt } from './harness/survey.js';
import { disagreements, viewsOf } from './harness/views.js';
import { fetchPage, lists, SAMPLE_PAGES, walkWithin } from './harness/walk.js';

const NO_SHAPE = 'the deployment serves the full shape';

/** Fields typed "or null" in §2. */
const NULLABLE =
  /\/(last_activity_at|favicon_url|buyer_identifier|buyer_identifier_scheme|electronic_address|electronic_address_scheme|establishment_country)$/;

/** Fails on the first sample with a schema problem the lens selects. */
async function lensed(c: CheckContext, lens: (p: SchemaProblem, s: Sample) => boolean): Promise<void> {
  for (const s of await survey(c)) {
    const found = problemsOf(s).filter((p) => lens(p, s));
    if (found.length) fail(found.slice(0, 5).map((p) => `${p.path || '/'} ${p.message}`).join('; '), s.res);
  }
}

const legacyOnly = (c: CheckContext, kind: 'project' | 'organization') => {
  if (detectedShape(kind) !== 'legacy') c.skip(`${NO_SHAPE} of ${kind}s`);
};

check([
  'RES-ID-UUID',
], 'schemas: every id and *_id is a UUID string',
  (c) => lensed(c, (p) => /\/(id|[a-z_]*[a-z]_id)$/.test(p.path) && !/external_id$/.test(p.path) && !/stage\/id$|\/addresses\/\d+\/id$/.test(p.path)));

check([
  'RES-INHERENT-FIELDS',
], 'schemas: every record carries the fields inherent to its resource; other absent listed fields are recorded', async (c) => {
  await lensed(c, (p) => p.message.startsWith('must have required property'));
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
], 'schemas: every *_at and *_date is a string (or null where typed so)', (c) => lensed(c, (p) => /_(at|date)$/.test(p.path)));

check([
  'RES-NULLABLE-FIELDS',
], 'schemas: fields typed null are a string or null', (c) => lensed(c, (p) => NULLABLE.test(p.path)));

check([
  'RES-NON-NULL-FIELDS',
], 'schemas: fields not typed null are never null', (c) => lensed(c, (p, s) => valueAt(s.res.body, p.path) === null && !NULLABLE.test(p.path)));

check([
  'STATE-STAGE-HIDDEN-SORT',
], 'schemas: every stage has the Stage shape (hidden boolean, sort integer)', (c) => lensed(c, (p) => /stage\//.test(p.path)));

check([
  'STATE-PROJECT-STATUS-STAGE',
], 'schemas: every project has a string status and a Stage', (c) => lensed(c, (p, s) => s.resource === 'project' && /\/(status|stage)(\/|$)/.test(p.path)));

check([
  'RES-SHAPE-CONSISTENT',
], 'schemas: every project and organization is in the shape first seen', (c) => lensed(c, (p) => p.message.includes('the deployment serves the')));

check([
  'RES-PAGE-ENVELOPE',
], 'schemas: every list answers the page envelope', (c) => lensed(c, (p, s) => s.page && (p.path === '' || p.path === '/data' || p.path.startsWith('/page'))));

check([
  'RES-CV-DATA-HIDDEN',
], 'schemas: every item of a CV data section carries hidden as a boolean',
  (c) => lensed(c, (p, s) => s.resource === 'cv' && /\/data\/[a-zA-Z]+\/\d+\/hidden$/.test(p.path)));

check([
  'RES-PROJECT-LEGACY-SHAPE',
], 'schemas: legacy projects carry their organization references as strings', async (c) => {
  await survey(c);
  legacyOnly(c, 'project');
  await lensed(c, (p, s) => s.resource === 'project' && /_org_id$/.test(p.path));
});

check([
  'RES-ORGANIZATION-LEGACY-SHAPE',
], 'schemas: legacy organizations and their addresses match their schemas', async (c) => {
  await survey(c);
  legacyOnly(c, 'organization');
  await lensed(c, (p, s) => s.resource === 'organization');
});

check([
  'GEN-JSON-BODIES',
], 'every response with a body has a JSON content-type and parses', async (c) => {
  for (const s of await survey(c)) {
    ensure(/json/.test(s.res.headers['content-type'] ?? ''), `content-type ${s.res.headers['content-type']} is not JSON`, s.res);
    ensure(s.res.body !== undefined, 'the body does not parse as JSON', s.res);
  }
});

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
    ensure(res.headers['content-type']?.includes('json'), `content-type ${res.headers['content-type']} is not JSON`, res);
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
  ensure(expectResource(res, 'project').title === title, 'the response does not carry the new title', res);
  const again = await c.api.send({ method: 'GET', path: `/projects/${project.id}` });
  expectStatus(again, '2xx', 'GET /projects/{id}');
  ensure(expectResource(again, 'project').title === title, 'a later read does not show the patched title', again);
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
  ensure(expectResource(res, 'employee').last_name === 'Patched', 'last_name not patched', res);
  const toggled = await c.api.send({ method: 'PATCH', path: `/employees/${employee.id}`, json: { is_active: false } });
  expectStatus(toggled, '2xx', 'PATCH /employees/{id} is_active');
  ensure(expectResource(toggled, 'employee').is_active === false, 'is_active not toggled to false', toggled);
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
  const emb = assignment.employee as Record<string, unknown> | undefined;
  ensure(emb?.id === assignment.employee_id, 'the embedded employee id differs from employee_id');
  const res = await c.api.send({ method: 'GET', path: `/assignments/${assignment.id}` });
  expectStatus(res, '2xx', 'GET /assignments/{id}');
  ensure(expectResource(res, 'assignment').id === assignment.id, 'GET answered another assignment', res);
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
  ensure(expectResource(res, 'assignment').role === role, 'the response does not carry the new role', res);
  const again = await c.api.send({ method: 'GET', path: `/assignments/${assignment.id}` });
  ensure(expectResource(again, 'assignment').role === role, 'a later read does not show the patched role', again);
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
  const body = expectResource(res, 'delete-result', 'delete result');
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
  ensure(expectResource(res, 'organization').notes === notes, 'the response does not carry the new notes', res);
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
