// Records of the other team (team B), created with its key for the isolation checks. Shared per
// suite file (setup.ts): when creating them fails, the isolation checks are blocked by it.
import type { Rec } from '../../contract/json.js';
import type { CheckContext } from './check.js';
import { expectStatus } from './judge/assert.js';
import { expectResource } from './judge/problems.js';
import { aProject, createEmployee, createOrganization, postAssignment, subjects, testFile, uploadAttachment, uploadFile } from './records.js';
import { setup, shared } from './setup.js';

export interface TeamB {
  project: Rec;
  employee: Rec;
  assignment: Rec;
  organization: Rec;
  file: Rec;
  attachment: Rec;
}

export const teamB = shared("team B's records", async (c: CheckContext): Promise<TeamB> => {
  const project = await aProject(c, 'otherTeam');
  const employee = await createEmployee(c, {}, 'otherTeam');
  // Team B's project came from team B's own list: a create refusing it says that list showed another team's project.
  const posted = await setup("assign team B's employee to a project team B's list shows", async () => {
    const res = await postAssignment(c, { employee_id: employee.id, project_id: project.id }, 'otherTeam');
    expectStatus(res, '2xx', 'POST /assignments with the other team key, for a project its own list shows');
    return res;
  }, { subject: ['ISO-LIST-OWN-TEAM-ONLY'] });
  const assignment = await setup('create an assignment of team B', async () => expectResource(posted, 'assignment'), { subject: subjects.assignmentCreate });
  const organization = await createOrganization(c, {}, 'otherTeam');
  const f = await uploadFile(c, testFile(c, 64), { auth: 'otherTeam' });
  expectStatus(f, '2xx', 'POST /files with the other team key');
  const a = await uploadAttachment(c, { type: 'project', id: String(project.id) }, testFile(c, 64), { auth: 'otherTeam' });
  expectStatus(a, '2xx', 'POST /attachments with the other team key');
  return { project, employee, assignment, organization, file: f.body as Rec, attachment: a.body as Rec };
});

/** A random id in the §4 pattern (v4, variant 8–b) that no record has. */
export function randomId(): string {
  return crypto.randomUUID();
}
