// Lists too short to page get records the suite can create (assignments, organizations);
// projects cannot be created, so their walks use what the deployment has. Shared per suite file
// (setup.ts): one attempt, and when it fails the checks that need it are blocked by it.
import type { CheckContext } from './check.js';
import { aProject, createAssignment, createEmployee, createOrganization } from './records.js';
import { shared } from './setup.js';

type Rec = Record<string, unknown>;

export interface Population { project: Rec; employees: Rec[]; assignments: Rec[]; organizations: Rec[] }

const populate = shared('population of lists to page through', async (c: CheckContext, n: number): Promise<Population> => {
  const project = await aProject(c);
  const employees = [await createEmployee(c), await createEmployee(c)];
  const assignments: Rec[] = [];
  const organizations: Rec[] = [];
  for (let i = 0; i < n; i += 1) {
    assignments.push(await createAssignment(c, { employee_id: employees[i % 2]!.id, project_id: project.id }));
    organizations.push(await createOrganization(c));
  }
  return { project, employees, assignments, organizations };
});

/** At least `n` assignments (over two employees, one project) and `n` organizations made by this run. */
export function population(c: CheckContext, n = 7): Promise<Population> {
  if (c.settings.readOnly) return Promise.resolve({ project: {}, employees: [], assignments: [], organizations: [] });
  return populate(c, n);
}
