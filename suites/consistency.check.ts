// What a change shows everywhere. After every successful create, PATCH and DELETE the record is
// read back through every view the API offers — GET by id, every list and filter it belongs to,
// every embedded copy — and each agrees with what the change answered (§2, §4). A PATCH changes
// the fields it names and no other; a deleted record is gone from every view.
import type { Rec } from '../contract/json.js';
import { EXTENSION_SETTINGS, operations } from '../specs/surface.js';
import { expectEveryView } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { ensure, expectStatus, fail, step } from './harness/judge/assert.js';
import { expectResource, needs, type Resource } from './harness/judge/problems.js';
import { exercised, titles } from './harness/plan/cells.js';
import { operationNamed, servedOperations } from './harness/plan/operations.js';
import { cellsOf } from './harness/plan/table.js';
import {
  aProject,
  createAssignment,
  createAssignmentFixture,
  createEmployee,
  createOrganization,
  markedText,
  marker,
  testFile,
  uploadAttachment,
  uploadFile,
} from './harness/records.js';
import { createOf, made, send, siblings, subjectOf } from './harness/subjects.js';
import type { ApiRequest, ApiResponse } from './harness/transport/client.js';
import { canonical, type Subject, viewsOf } from './harness/views.js';
import { embeddedFindingKey, fieldFindingKey, notAsSent, writeConcern } from './harness/wrong-fields.js';

const opts = { mutates: true };
/** Stamped by the server on any write (§2 lists them; their rules are not shown). */
const WRITE_STAMPS = ['updated_at', 'last_activity_at'];
const show = (v: unknown) => JSON.stringify(v);

/** Values no create-time default has, so a PATCH that re-applies defaults is seen. */
const employeeBody = (c: CheckContext) => ({
  first_name: marker(c),
  last_name: 'Consistency',
  title: 'Reviewer',
  is_active: false,
  skills: ['conformance'],
  bill_rate: 12.5,
  currency: 'EUR',
});

async function sendResource(c: CheckContext, req: ApiRequest, resource: Resource, what: string): Promise<{ res: ApiResponse; record: Rec; }> {
  const res = await c.api.send(req);
  expectStatus(res, '2xx', what);
  return { res, record: expectResource(res, resource, `${what} answer`) };
}

/** The PATCH changed exactly what it names: every other field of `before` is unchanged in the answer. */
function expectOnlyNamedChanged(before: Rec, after: Rec, body: Rec, res: ApiResponse, what: string, resource: Resource): void {
  needs(res, Object.keys(body).map((k) => `/${k}`));
  // a named field shown otherwise than sent is that field's finding, wherever it shows (harness/wrong-fields.ts)
  notAsSent(res, Object.keys(body).filter((k) => canonical(after[k]) !== canonical(body[k])), body, after, { resource: `${resource}s`, write: 'patch' });
  const changed = Object.keys(before).filter((k) => !(k in body) && !WRITE_STAMPS.includes(k) && k in after && canonical(before[k]) !== canonical(after[k]));
  if (changed.length) {
    fail(`${what} also changed fields it did not name: ${changed.map((k) => `${k} ${show(before[k])} → ${show(after[k])}`).join(', ')}`, res,
      writeConcern(fieldFindingKey(`${resource}s`, changed[0]!), { resource: `${resource}s`, field: changed[0]! }, 'EP-PATCH-PARTIAL'));
  }
}

/**
 * Fields of `before` the PATCH did not name and the record no longer has. An answer may show fewer
 * fields than GET (a shape question, a reading); where the resource has a GET by id, a field is
 * dropped only when GET no longer shows it either.
 */
async function expectNoneDropped(c: CheckContext, path: string, resource: Resource, before: Rec, after: Rec, body: Rec, res: ApiResponse, what: string) {
  let gone = Object.keys(before).filter((k) => !(k in body) && !(k in after));
  if (gone.length && (resource === 'project' || resource === 'assignment')) {
    const read = (await sendResource(c, { method: 'GET', path }, resource, `GET ${path.replace(/[0-9a-f-]{36}/, '{id}')}`)).record;
    for (const k of gone.filter((f) => f in read)) c.reading(`fields.absent.${resource}-patch-answer`, k);
    gone = gone.filter((k) => !(k in read));
  }
  if (gone.length) fail(`${what} dropped fields it did not name: ${gone.join(', ')}`, res);
}

/** PATCH, then: the answer shows the body and nothing else changed; every view shows the answer. */
async function patchEverywhere(c: CheckContext, path: string, resource: Resource, before: Rec, body: Rec, subject: Subject): Promise<Rec> {
  const what = `PATCH ${path.replace(/[0-9a-f-]{36}/, '{id}')}`;
  const { res, record } = await sendResource(c, { method: 'PATCH', path, json: body }, resource, what);
  expectOnlyNamedChanged(before, record, body, res, what, resource);
  await expectNoneDropped(c, path, resource, before, record, body, res, what);
  await expectEveryView(c, viewsOf(c, subject), record, `after ${what}`);
  return record;
}

// --- creates -----------------------------------------------------------------------------------

check([
  'EP-CREATE-PERSISTS',
], 'a created assignment reads back the same through GET by id, both filters, their combination and the list', async (c) => {
  const { assignment } = await createAssignmentFixture(c);
  await expectEveryView(c,
    viewsOf(c, { kind: 'assignment', id: String(assignment.id), employee_id: String(assignment.employee_id), project_id: String(assignment.project_id) }),
    assignment, 'after POST /assignments');
}, opts);

check([
  'EP-CREATE-PERSISTS',
  'RES-ASSIGNMENT-EMBEDDED-CURRENT',
], 'a created employee reads back the same embedded in its assignments, and a PATCH of it shows in every copy', async (c) => {
  const employee = await createEmployee(c, employeeBody(c));
  const project = await aProject(c);
  const assignment = await createAssignment(c, { employee_id: employee.id, project_id: project.id });
  const views = () => viewsOf(c, { kind: 'employee', id: String(employee.id), assignments: [String(assignment.id)] });
  // Assigning it may stamp the employee (updated_at's rules are not shown): the stamps aside.
  await step('EP-CREATE-PERSISTS', () => expectEveryView(c, views(), employee, 'after POST /employees', WRITE_STAMPS));
  await step('RES-ASSIGNMENT-EMBEDDED-CURRENT', async () => {
    const { res, record } = await sendResource(c, { method: 'PATCH', path: `/employees/${String(employee.id)}`, json: { title: markedText(c) } }, 'employee',
      'PATCH /employees/{id} {title}');
    needs(res, ['/title']);
    // the copies follow the change (§2 Assignment: `employee` is "embedded in responses", the employee as it is)
    await expectEveryView(c, views(), { id: record.id, title: record.title }, 'after PATCH /employees/{id}');
  });
}, opts);

check([
  'EP-CREATE-PERSISTS',
], 'a created organization reads back the same in the list', async (c) => {
  const org = await createOrganization(c, { notes: `${marker(c)} notes`, website: 'https://example.invalid', roles: ['recruiter'] });
  await expectEveryView(c, viewsOf(c, { kind: 'organization', id: String(org.id), name: String(org.name) }), org, 'after create organization');
}, opts);

check([
  'EP-CREATE-PERSISTS',
], 'an uploaded attachment reads back the same in the list of its entity, an uploaded file through GET by id', async (c) => {
  const entity = { type: 'employee', id: String((await createEmployee(c)).id) };
  const att = await uploadAttachment(c, entity, testFile(c, 48), { category: 'contract' });
  expectStatus(att, '2xx', 'POST /attachments');
  const attachment = expectResource(att, 'attachment');
  await expectEveryView(c, viewsOf(c, { kind: 'attachment', id: String(attachment.id), entity }), attachment, 'after POST /attachments');
  const f = await uploadFile(c, testFile(c, 48), { category: 'contract' });
  expectStatus(f, '2xx', 'POST /files');
  const file = expectResource(f, 'file');
  await expectEveryView(c, viewsOf(c, { kind: 'file', id: String(file.id) }), file, 'after POST /files');
}, opts);

// --- patches -----------------------------------------------------------------------------------

check([
  'EP-PATCH-PERSISTS',
  'EP-PATCH-PARTIAL',
], 'PATCH /employees/{id}: the answer and every embedded copy show the change, and nothing else changed', async (c) => {
  const employee = await createEmployee(c, employeeBody(c));
  const project = await aProject(c);
  const assignment = await createAssignment(c, { employee_id: employee.id, project_id: project.id });
  const subject: Subject = { kind: 'employee', id: String(employee.id), assignments: [String(assignment.id)] };
  const once = await patchEverywhere(c, `/employees/${employee.id}`, 'employee', employee, { title: `${marker(c)} title` }, subject);
  await patchEverywhere(c, `/employees/${employee.id}`, 'employee', once, { last_name: 'Twice', bill_rate: 20 }, subject);
}, opts);

check([
  'EP-PATCH-PERSISTS',
  'EP-PATCH-PARTIAL',
], 'PATCH /assignments/{id}: the answer and every view show the change, and nothing else changed', async (c) => {
  const project = await aProject(c);
  const employee = await createEmployee(c);
  const assignment = await createAssignment(c, {
    employee_id: employee.id,
    project_id: project.id,
    bill_rate: 99.5,
    start_date: '2030-01-02',
    end_date: '2030-12-31',
  });
  const subject: Subject = { kind: 'assignment', id: String(assignment.id), employee_id: String(employee.id), project_id: String(project.id) };
  await patchEverywhere(c, `/assignments/${assignment.id}`, 'assignment', assignment, { role: `${marker(c)} role` }, subject);
}, opts);

check([
  'EP-PATCH-PERSISTS',
  'EP-PATCH-PARTIAL',
], 'PATCH /organizations/{id}: the answer and the list show the change, and nothing else changed', async (c) => {
  const org = await createOrganization(c, { notes: `${marker(c)} before`, website: 'https://example.invalid', roles: ['recruiter'] });
  await patchEverywhere(c, `/organizations/${org.id}`, 'organization', org, { notes: `${marker(c)} after` }, {
    kind: 'organization',
    id: String(org.id),
    name: String(org.name),
  });
}, opts);

check([
  'EP-PATCH-PERSISTS',
  'EP-PATCH-PARTIAL',
], 'PATCH /projects/{id}: the answer, GET and the list show the change, and nothing else changed', async (c) => {
  const listed = await aProject(c);
  // The snapshot is the GET by id, not the list's copy: a list may leave notes out, and restoring
  // from it would remove the record's real notes.
  const before = await c.ledger.before('projects', listed);
  const why = c.ledger.irreversible(before, ['notes']);
  if (why) c.skip(why);
  await patchEverywhere(c, `/projects/${listed.id}`, 'project', before, { notes: `${marker(c)} notes` }, { kind: 'project', id: String(listed.id) });
}, opts);

// --- embedded copies ---------------------------------------------------------------------------

check([
  'RES-ASSIGNMENT-EMBEDDED-CURRENT',
], "an assignment's embedded employee follows a change of employee_id, and the employee filters follow too", async (c) => {
  const project = await aProject(c);
  const [first, second] = [await createEmployee(c, employeeBody(c)), await createEmployee(c, { ...employeeBody(c), last_name: 'Second' })];
  const assignment = await createAssignment(c, { employee_id: first.id, project_id: project.id });
  const { res, record } = await sendResource(c, { method: 'PATCH', path: `/assignments/${assignment.id}`, json: { employee_id: second.id } }, 'assignment',
    'PATCH /assignments/{id} {employee_id}');
  needs(res, ['/employee_id', '/employee/id']);
  ensure(record.employee_id === second.id, `the answer carries employee_id ${show(record.employee_id)}`, res);
  ensure((record.employee as Rec | undefined)?.id === second.id,
    `the answer embeds employee ${show((record.employee as Rec | undefined)?.id)}, not the new ${String(second.id)}`, res, {
    finding: embeddedFindingKey('assignments', 'employee'),
    requirement: 'RES-ASSIGNMENT-EMBEDDED-CURRENT',
  });
  await expectEveryView(c, viewsOf(c, { kind: 'employee', id: String(second.id), assignments: [String(assignment.id)] }), second,
    'after reassigning, the new employee', WRITE_STAMPS);
  const moved: Subject = { kind: 'assignment', id: String(assignment.id), employee_id: String(second.id), project_id: String(project.id) };
  await expectEveryView(c, viewsOf(c, moved), record, 'after reassigning');
  const old: Subject = { kind: 'assignment', id: String(assignment.id), employee_id: String(first.id), project_id: String(project.id) };
  await expectEveryView(c, viewsOf(c, old).filter((v) => v.name === 'GET /assignments?employee_id='), 'absent',
    'after reassigning, the filter by the former employee');
}, opts);

// --- deletes -----------------------------------------------------------------------------------

for (const op of operations().filter((o) => o.kind === 'delete')) {
  check([
    'EP-DELETE-GONE',
  ], titles.deleted(op.op), async (c) => {
    const live = operationNamed(c.settings, op.op)!;
    const [gone, kept] = await siblings(c, live.resource);
    // both read back first: a view that never showed the record proves nothing by not showing it after
    const goneSubject = await subjectOf(c, live.resource, gone);
    const keptSubject = await subjectOf(c, live.resource, kept);
    const shown = new Set((await expectEveryView(c, viewsOf(c, goneSubject), gone, `before ${op.op}`, WRITE_STAMPS)).map((v) => v.name));
    const res = await send(c, live, { id: String(gone.id) });
    expectStatus(res, '2xx', op.op);
    const judged = await expectEveryView(c, viewsOf(c, goneSubject), 'absent', `after ${op.op}`);
    await expectEveryView(c, viewsOf(c, keptSubject), kept, `after ${op.op} of the record beside it`, WRITE_STAMPS);
    // a view's cell is checked when it showed the record before and was read after
    for (const v of judged) if (shown.has(v.name)) exercised({ dimension: 'views', subject: op.op, aspect: v.surface ?? v.name });
  }, {
    mutates: true,
    ...(op.op in EXTENSION_SETTINGS ? { needs: [EXTENSION_SETTINGS[op.op as keyof typeof EXTENSION_SETTINGS]] } : {}),
    cells: cellsOf(titles.deleted(op.op), op.op),
  });
}

// --- the records a list holds, the deployment's own among them -----------------------------------

/** Resources with a list: their first records, the deployment's own where the run has made none (CVs), are read through every list view. */
const listed = [...new Set(operations().filter((o) => o.kind === 'list').map((o) => o.resource))];
/** How many records of a list a check reads through every view: cost independent of how many it holds. */
const FIRST_RECORDS = 3;

/** The rule a view that shows a record otherwise breaks: its filter's, the search's, the walk's. */
const ruleOfView = (v: { name: string; filters?: Record<string, string>; }) =>
  v.filters && Object.keys(v.filters).join() === 'employee_id'
    ? 'LIST-FILTER-EMPLOYEE-ID'
    : /[?&]q=/.test(v.name)
    ? 'LIST-Q'
    : 'LIST-WALK-EVERY-RECORD-ONCE';

for (const resource of listed) {
  check([
    'LIST-WALK-EVERY-RECORD-ONCE',
    'LIST-FILTER-EMPLOYEE-ID',
    'LIST-Q',
  ],
    `the first ${resource} of their list (the deployment's own among them) show alike in every list view (the list, each filter, the search) and on every read`,
    async (c) => {
      const list = servedOperations(c.settings).find((o) => o.resource === resource && o.kind === 'list');
      if (!list) return c.skip(`the target serves no list of ${resource}`);
      let records: Rec[];
      if (list.filters.some((f) => f.required)) {
        // a list of an entity's records: one the run makes
        if (!createOf(c, resource)) return c.skip(`${list.op} needs filter values, and no request makes a record of ${resource}`);
        records = [(await made(c, resource)).record];
      } else {
        // the first records of the list, whatever made them (records the deployment holds show fields no request writes)
        const res = await c.api.send({ method: 'GET', path: list.path, query: { limit: FIRST_RECORDS } });
        expectStatus(res, '2xx', `GET ${list.path}?limit=${FIRST_RECORDS}`);
        records = (((res.body as { data?: Rec[]; })?.data ?? []) as Rec[]).slice(0, FIRST_RECORDS);
      }
      if (!records.length) return c.skip(`the team has no ${resource}: nothing to read`);
      for (const record of records) {
        // the list views: GET by id and copies embedded elsewhere are other checks' concern
        const views = viewsOf(c, { resource, record }).filter((v) => !v.embedding && !v.name.includes('{id}'));
        // a read that changes what it reads (a stamp touched on load) shows on the second round
        for (const round of ['first', 'second']) {
          for (const view of views) {
            await step(ruleOfView(view), () => expectEveryView(c, [view], record, `${resource} ${String(record.id)} read a ${round} time`));
          }
        }
      }
    }, { mutates: true });
}
