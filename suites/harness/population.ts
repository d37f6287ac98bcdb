// Lists too short to page get records the suite can create (assignments, organizations,
// attachments of one entity); projects cannot be created, so their walks use what the deployment
// has. Shared per suite file (setup.ts): one attempt, and when it fails the checks that need it are
// blocked by it.
import type { Rec } from '../../contract/json.js';
import { expectStatus } from './assert.js';
import type { CheckContext } from './check.js';
import { anotherProject, aProject, createAssignment, createEmployee, createOrganization, testFile, uploadAttachment } from './records.js';
import { shared } from './setup.js';

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
  const attachments: Rec[] = [];
  for (let i = 0; i < 3; i += 1) {
    const res = await uploadAttachment(c, { type: 'employee', id: String(employees[0]!.id) }, testFile(c, 16 + i));
    expectStatus(res, '2xx', 'POST /attachments');
    attachments.push(res.body as Rec);
  }
  return { project, employees, assignments, elsewhere, organizations, attachments };
});

/**
 * At least `n` assignments (over two employees, one project), one more per employee on a second
 * project, `n` organizations and three attachments made by this run.
 */
export function population(c: CheckContext, n = 7): Promise<Population> {
  if (c.settings.readOnly) return Promise.resolve({ project: {}, employees: [], assignments: [], elsewhere: [], organizations: [], attachments: [] });
  return populate(c, n);
}
