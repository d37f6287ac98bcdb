// Creating the records checks need, always marked with the run id and entered in the ledger.
// The helpers that recordProblems what they get are setup steps (setup.ts): when one fails, a check
// about something else is blocked by it; a check naming the step's subject fails as before.
// The post*/upload* helpers return the raw response: checks judge it themselves.
import type { Rec } from '../../contract/json.js';
import type { KeyName } from '../../contract/settings.js';
import { filledOf, humanText, sampleOf } from '../../specs/arbitraries.js';
import type { CheckContext } from './check.js';
import { expectStatus, is2xx } from './judge/assert.js';
import { expectResource } from './judge/problems.js';
import { operationNamed } from './plan/operations.js';
import { setup, shared } from './setup.js';
import type { ApiResponse, Auth } from './transport/client.js';
import type { UploadFile } from './transport/upload.js';
import { currentFileSeed, nextBodySeed, nextFileSeed } from './value-seeds.js';
import { fetchPage, lists, sendList } from './walk.js';

export const marker = (c: CheckContext) => `conformance ${c.target.runId}`;

/**
 * A body of `op` with every field the document shows filled (nested objects and array items too),
 * strings in every script (specs/arbitraries.ts humanText), references left to the caller: the
 * records the run creates carry everything a later change could lose. The same for the same seed.
 */
export function filledBody(c: CheckContext, op: string, seed = c.target.seed + 104_729 * nextBodySeed()): Rec {
  const operation = operationNamed(c.settings, op);
  const body = sampleOf(filledOf(operation?.fields ?? []), seed);
  // the field a person sees a record by carries the run id, whatever else the body holds
  const name = operation && NAMED_BY[operation.resource as keyof typeof NAMED_BY];
  return name && typeof body[name] === 'string' ? { ...body, [name]: markedText(c, seed) } : body;
}

/**
 * The field a person sees each record the run makes by, in a list or a detail view (§2): it always
 * carries the run id, so a record left behind can be told for the suite's.
 */
export const NAMED_BY = {
  employees: 'first_name',
  organizations: 'name',
  assignments: 'role',
  captures: 'external_id',
} as const satisfies Record<string, string>;

/** Whether a name carries the run id. */
export const isMarked = (c: CheckContext, value: unknown): boolean => typeof value === 'string' && value.includes(c.target.runId);

/** Text marked with the run id, in every script, unique (a leftover record is named with it). */
export const markedText = (c: CheckContext, seed = c.target.seed + 7_919 * nextBodySeed()): string => `${marker(c)} ${sampleOf(humanText, seed)}`;

/** The seed of the filled part of a body sent with an idempotency key: a retry with the key sends the same body. */
const seedOfKey = (
  key: string | undefined,
): number | undefined => (key === undefined ? undefined : parseInt(key.replace(/[^0-9a-f]/gi, '').slice(0, 8), 16) || 1);

/** A filled body of `op` with its text field marked, the same for the same idempotency key. */
function filledFor(c: CheckContext, op: string, textField: string, key?: string): Rec {
  const seed = seedOfKey(key);
  return { ...filledBody(c, op, seed), [textField]: markedText(c, seed) };
}

/** What each step exercises: a check naming one of these ids is about the step, not blocked by it. */
export const subjects = {
  // the step reads a page with a limit, which it must hold (§4 limit)
  projectsList: ['EP-PROJECTS-LIST', 'RES-PAGE-ENVELOPE', 'RES-PROJECT-SHAPE', 'RES-PROJECT-LEGACY-SHAPE', 'LIST-LIMIT'],
  employeeCreate: ['EP-EMPLOYEES-CREATE', 'RES-EMPLOYEE-SHAPE'],
  assignmentCreate: ['EP-ASSIGNMENTS-CREATE', 'RES-ASSIGNMENT-SHAPE', 'RES-EMPLOYEE-SHAPE'],
  organizationCreate: ['EP-ORGANIZATIONS-CREATE', 'RES-ORGANIZATION-SHAPE', 'RES-ORGANIZATION-LEGACY-SHAPE'],
} as const;

const teamName = (auth: KeyName) => (auth === 'team' ? 'team A' : auth === 'otherTeam' ? 'team B' : auth);

/** A project of the team (projects cannot be created); skips the check when there is none. */
export function aProject(c: CheckContext, auth: KeyName = 'team'): Promise<Rec> {
  return setup(`a project of ${teamName(auth)}`, async () => {
    const { page } = await fetchPage(c, lists.projects, { limit: 5, auth });
    const project = page.data[0];
    if (!project) c.skip(`the ${auth === 'team' ? '' : 'other '}team has no project to work with`);
    return project;
  }, { subject: subjects.projectsList });
}

/**
 * A project of the team other than `project`, or undefined when the first page shows none: a
 * filter on one project is only tested when some record of the run is on another.
 */
export function anotherProject(c: CheckContext, project: Rec, auth: KeyName = 'team'): Promise<Rec | undefined> {
  return setup(`a second project of ${teamName(auth)}`, async () => {
    const { page } = await fetchPage(c, lists.projects, { limit: 5, auth });
    return page.data.find((p) => p.id !== project.id);
  }, { subject: subjects.projectsList });
}

export function createEmployee(c: CheckContext, body: Rec = {}, auth: KeyName = 'team'): Promise<Rec> {
  return setup(`create an employee of ${teamName(auth)}`, async () => {
    const res = await postEmployee(c, body, auth);
    expectStatus(res, '2xx', 'POST /employees');
    return expectResource(res, 'employee');
  }, { subject: subjects.employeeCreate });
}

/** POST /employees with every field filled, the first name marked with the run id; `body` overrides. */
export async function postEmployee(c: CheckContext, body: Rec = {}, auth: KeyName = 'team'): Promise<ApiResponse> {
  const res = await c.api.send({ method: 'POST', path: '/employees', auth, json: { ...filledFor(c, 'createEmployee', 'first_name'), ...body } });
  const id = (res.body as Rec | undefined)?.id;
  if (is2xx(res) && typeof id === 'string') c.ledger.keep('employee', id);
  return res;
}

export function createAssignment(c: CheckContext, body: Rec, auth: KeyName = 'team', idempotencyKey?: string): Promise<Rec> {
  return setup(`create an assignment of ${teamName(auth)}`, async () => {
    const res = await postAssignment(c, body, auth, idempotencyKey);
    expectStatus(res, '2xx', 'POST /assignments');
    return expectResource(res, 'assignment', { reads: ['employee_id', 'project_id'] });
  }, { subject: subjects.assignmentCreate });
}

export async function postAssignment(c: CheckContext, body: Rec, auth: KeyName = 'team', idempotencyKey?: string): Promise<ApiResponse> {
  const res = await c.api.send({
    method: 'POST',
    path: '/assignments',
    auth,
    json: { ...filledFor(c, 'createAssignment', 'role', idempotencyKey), ...body },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
  const id = (res.body as Rec | undefined)?.id;
  if (is2xx(res) && typeof id === 'string') c.ledger.add('assignment', id, auth);
  return res;
}

/**
 * One employee per team and suite file for checks that need an employee but not a fresh one (the
 * API offers no way to delete employees: each one a run makes is left behind, named with its id).
 */
const workingEmployees = {
  team: shared('the working employee of team A', (c: CheckContext) => createEmployee(c)),
  otherTeam: shared('the working employee of team B', (c: CheckContext) => createEmployee(c, {}, 'otherTeam')),
};

export function workingEmployee(c: CheckContext, auth: KeyName = 'team'): Promise<Rec> {
  return auth === 'otherTeam' ? workingEmployees.otherTeam(c) : workingEmployees.team(c);
}

/** A new assignment of the team's working employee to a project of the team. */
export function createWorkingAssignment(c: CheckContext, auth: KeyName = 'team'): Promise<{ project: Rec; employee: Rec; assignment: Rec; }> {
  return setup(`an assignment of the working employee of ${teamName(auth)}`, async () => {
    const project = await aProject(c, auth);
    const employee = await workingEmployee(c, auth);
    const assignment = await createAssignment(c, { employee_id: employee.id, project_id: project.id }, auth);
    return { project, employee, assignment };
  });
}

/** An employee plus an assignment of it to a project of the team. */
export function createAssignmentFixture(c: CheckContext, auth: KeyName = 'team'): Promise<{ project: Rec; employee: Rec; assignment: Rec; }> {
  return setup(`an employee assigned to a project of ${teamName(auth)}`, async () => {
    const project = await aProject(c, auth);
    const employee = await createEmployee(c, {}, auth);
    const assignment = await createAssignment(c, { employee_id: employee.id, project_id: project.id }, auth);
    return { project, employee, assignment };
  });
}

export async function postOrganization(c: CheckContext, body: Rec = {}, auth: Auth = 'team', idempotencyKey?: string): Promise<ApiResponse> {
  const e = c.settings.paths.organizationCreate;
  const res = await c.api.send({
    method: e.method,
    path: e.path,
    auth,
    json: { ...filledFor(c, 'createOrganization', 'name', idempotencyKey), ...body },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
  const id = (res.body as Rec | undefined)?.id;
  if (is2xx(res) && typeof id === 'string') c.ledger.keep('organization', id);
  return res;
}

export function createOrganization(c: CheckContext, body: Rec = {}, auth: KeyName = 'team'): Promise<Rec> {
  return setup(`create an organization of ${teamName(auth)}`, async () => {
    const res = await postOrganization(c, body, auth);
    expectStatus(res, '2xx', 'create organization');
    return expectResource(res, 'organization');
  }, { subject: subjects.organizationCreate });
}

/** A file to upload; the same `seed` makes the same file (name and bytes), as a retry with its key sends it. */
export function testFile(c: CheckContext, size: number, seed?: number): UploadFile {
  const fileSeed = seed === undefined ? nextFileSeed() : currentFileSeed();
  return {
    // in every script, as a person names a file (read back unchanged: EP-CREATE-PERSISTS)
    filename: `conformance-${c.target.runId}-${size} ${sampleOf(humanText, c.target.seed + fileSeed)}.bin`,
    contentType: 'application/octet-stream',
    size,
    seed: seed ?? c.target.seed + 7919 * fileSeed,
  };
}

export interface UploadOptions {
  auth?: Auth;
  idempotencyKey?: string;
  category?: string;
  timeoutMs?: number;
  fileFirst?: boolean;
}

export async function uploadFile(c: CheckContext, file: UploadFile, o: UploadOptions = {}): Promise<ApiResponse> {
  const res = await c.api.send({
    method: 'POST',
    path: '/files',
    auth: o.auth,
    upload: { fields: o.category ? { category: o.category } : {}, file, ...(o.fileFirst ? { fileFirst: true } : {}) },
    ...(o.idempotencyKey ? { idempotencyKey: o.idempotencyKey } : {}),
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
  });
  const id = (res.body as Rec | undefined)?.id;
  if (is2xx(res) && typeof id === 'string') c.ledger.add('file', id, typeof o.auth === 'string' && o.auth !== 'none' ? o.auth : 'team');
  return res;
}

export async function uploadAttachment(c: CheckContext, entity: { type: string; id: string; }, file: UploadFile, o: UploadOptions = {}): Promise<ApiResponse> {
  const fields: Record<string, string> = { entity_type: entity.type, entity_id: entity.id, ...(o.category ? { category: o.category } : {}) };
  const res = await c.api.send({
    method: 'POST',
    path: '/attachments',
    auth: o.auth,
    upload: { fields, file, ...(o.fileFirst ? { fileFirst: true } : {}) },
    ...(o.idempotencyKey ? { idempotencyKey: o.idempotencyKey } : {}),
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
  });
  const id = (res.body as Rec | undefined)?.id;
  if (is2xx(res) && typeof id === 'string') c.ledger.add('attachment', id, typeof o.auth === 'string' && o.auth !== 'none' ? o.auth : 'team');
  return res;
}

export async function attachmentsOf(c: CheckContext, entity: { type: string; id: string; }, auth: KeyName = 'team'): Promise<ApiResponse> {
  return sendList(c, '/attachments', { entity_type: entity.type, entity_id: entity.id, limit: 100 }, auth);
}
