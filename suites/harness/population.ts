// Lists too short to page get records the suite can create (assignments, organizations,
// attachments of one entity); projects cannot be created, so their walks use what the deployment
// has. Shared per suite file (setup.ts): one attempt, and when it fails the checks that need it are
// blocked by it.
import type { Rec } from '../../contract/json.js';
import type { CheckContext } from './check.js';
import { expectStatus } from './judge/assert.js';
import { servedOperations } from './plan/operations.js';
import { listViews, sortsOf, tieReason } from './plan/table.js';
import { anotherProject, aProject, createAssignment, createEmployee, createOrganization, filledBody, testFile, uploadAttachment } from './records.js';
import { shared } from './setup.js';
import { bodyOf, made, send } from './subjects.js';

export interface Population {
  project: Rec;
  employees: Rec[];
  assignments: Rec[];
  /**
   * One assignment of each employee on another project of the team (none when it has one
   * project), kept out of `assignments`: a filter on `project` must leave them out, alone or
   * combined with employee_id, and a filter on their employee must show them.
   */
  elsewhere: Rec[];
  organizations: Rec[];
  /** Attachments of the first employee (an entity whose attachment list the run controls). */
  attachments: Rec[];
  /**
   * Records sharing a sort value the run writes, per list resource (three organizations of one
   * name): a walk crosses a page boundary inside them, in each order.
   */
  ties: Record<string, Rec[]>;
}

const populate = shared('population of lists to page through', async (c: CheckContext, n: number): Promise<Population> => {
  const project = await aProject(c);
  const employees = [await createEmployee(c), await createEmployee(c)];
  const assignments: Rec[] = [];
  const organizations: Rec[] = [];
  for (let i = 0; i < n; i += 1) {
    assignments.push(await createAssignment(c, { employee_id: employees[i % 2]!.id, project_id: project.id }));
    organizations.push(await createOrganization(c));
  }
  const second = await anotherProject(c, project);
  const elsewhere: Rec[] = [];
  for (const e of second ? employees : []) elsewhere.push(await createAssignment(c, { employee_id: e.id, project_id: second!.id }));
  const ties: Record<string, Rec[]> = {};
  for (const [resource, records] of Object.entries(await tiedRecords(c))) ties[resource] = records;
  const attachments: Rec[] = [];
  for (let i = 0; i < 3; i += 1) {
    const res = await uploadAttachment(c, { type: 'employee', id: String(employees[0]!.id) }, testFile(c, 16 + i));
    expectStatus(res, '2xx', 'POST /attachments');
    attachments.push(res.body as Rec);
  }
  // one of another entity beside them: a walk of the first one's attachments that loses its filter shows it
  const beside = await uploadAttachment(c, { type: 'employee', id: String(employees[1]!.id) }, testFile(c, 20));
  expectStatus(beside, '2xx', 'POST /attachments');
  await withoutValues(c, employees[0]!, organizations, attachments);
  return { project, employees, assignments, elsewhere, organizations, attachments, ties };
});

/**
 * Records without a value in a sort field, where the document lets a request leave one out: a walk
 * sorted by the field then meets them on a page after the first in one of the orders (a keyset
 * compared with an empty or null value drops them there). An attachment whose file part has an
 * empty name (§4 names "one `file` part" and no rule for its name; RFC 7578 §4.2 makes the
 * filename parameter optional), and an organization whose name is the empty string (§2 types it a
 * string; the organization is one of the run's, put back named with the run id by the ledger at
 * the end of the suite file). A value refused is a reading: the document leaves it open.
 */
async function withoutValues(c: CheckContext, employee: Rec, organizations: Rec[], attachments: Rec[]): Promise<void> {
  const unnamed = await uploadAttachment(c, { type: 'employee', id: String(employee.id) }, { ...testFile(c, 19), filename: '' });
  if (unnamed.status >= 500) expectStatus(unnamed, '2xx', 'POST /attachments with an empty filename');
  if (unnamed.status < 300) attachments.push(unnamed.body as Rec);
  else c.reading('population.attachment-empty-filename', `refused ${unnamed.status}`);
  const org = await createOrganization(c);
  const before = await c.ledger.before('organizations', org, { fields: ['name'] });
  const emptied = await c.api.send({ method: 'PATCH', path: `/organizations/${String(before.id)}`, json: { name: '' } });
  if (emptied.status >= 500) expectStatus(emptied, '2xx', 'PATCH /organizations/{id} with an empty name');
  organizations.push(emptied.status < 300 ? emptied.body as Rec : org);
  if (emptied.status >= 300) c.reading('population.organization-empty-name', `refused ${emptied.status}`);
}

/** How many records share a sort value: enough that a walk at limit 1 crosses two boundaries inside them. */
const TIED = 3;

/**
 * For each list sort field the run can give records equal values of (harness/plan/table.ts tieReason):
 * records made with one value of it — created, or scratch projects changed to it (and put back
 * by the ledger); null, for a field typed nullable.
 */
async function tiedRecords(c: CheckContext): Promise<Record<string, Rec[]>> {
  const ops = servedOperations(c.settings);
  const out: Record<string, Rec[]> = {};
  for (const v of listViews(ops).filter((x) => x.kind === 'list')) {
    const list = ops.find((o) => o.op === v.op)!;
    for (const sort of sortsOf(c.settings, list)) {
      if (tieReason(ops, c.settings, list.resource, sort) || !sort) continue;
      const create = ops.find((o) => o.resource === list.resource && o.kind === 'create');
      const patch = ops.find((o) => o.resource === list.resource && o.kind === 'patch');
      // one value of the field's type for the whole group (a name, a date), unique to the run where it is text;
      // null where §2 types the field "or null": walks then meet nulls in the sort field, tied among themselves
      const nullable = (create ?? patch)!.fields.some((f) => f.name === sort && f.nullable);
      const value = nullable ? null : filledBody(c, (create ?? patch)!.op)[sort];
      const records: Rec[] = [];
      if (create) {
        // the same references too: a filter by them narrows the list to the group
        let first: Rec | undefined;
        for (let i = 0; i < TIED; i += 1) {
          const sent = await bodyOf(c, create);
          for (const f of create.fields.filter((x) => (x.references || x.enum) && first && x.name in first)) sent.body[f.name] = first![f.name];
          sent.body[sort] = value;
          first ??= sent.body;
          records.push((await made(c, list.resource, { sent })).record);
        }
      } else {
        for (const id of c.settings.scratchProjects.slice(0, TIED)) {
          await c.ledger.before('projects', id);
          const res = await send(c, patch!, { id, sent: { body: { [sort]: value } } });
          expectStatus(res, '2xx', `${patch!.op} of a scratch project's ${sort}`);
          records.push(res.body as Rec);
        }
      }
      out[`${list.resource} ${sort}`] = records;
    }
  }
  return out;
}

/**
 * At least `n` assignments (over two employees, one project), one more per employee on a second
 * project, `n` organizations and three attachments made by this run.
 */
export function population(c: CheckContext, n = 7): Promise<Population> {
  if (c.settings.readOnly) return Promise.resolve({ project: {}, employees: [], assignments: [], elsewhere: [], organizations: [], attachments: [], ties: {} });
  return populate(c, n);
}
