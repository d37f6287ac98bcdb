// Every mutating endpoint the suite can observe the effect of, as data: what to arrange, which
// request to send, and the views where an effect would show. Refusal checks run over this table,
// so an endpoint added here is checked for every way a request can be refused.
import { randomUUID } from 'node:crypto';
import type { Rec } from '../../contract/json.js';
import type { KeyName, PathSetting } from '../../contract/settings.js';
import type { CheckContext } from './check.js';
import { is2xx } from './judge/assert.js';
import { expectResource } from './judge/problems.js';
import type { Refusal } from './plan/cells.js';
import { type RefusalRow, refusalRow } from './plan/refusal-rows.js';
import {
  aProject,
  createAssignment,
  createOrganization,
  createWorkingAssignment,
  marker,
  testFile,
  uploadAttachment,
  uploadFile,
  workingEmployee,
} from './records.js';
import { teamB } from './team-b.js';
import type { ApiRequest, ApiResponse } from './transport/client.js';
import { collection, organizationNamed, type View, viewsOf } from './views.js';
import { lists } from './walk.js';

export type { Refusal } from './plan/cells.js';

/** valid: succeeds when authorized; other: a different valid request (reused keys); invalid: a field of the wrong type beside a real change. */
export type Variant = 'valid' | 'other' | 'invalid';

export interface Arranged {
  /** Where an effect of the refused request would show, read with the owner's key. */
  views: View[];
  request(variant: Variant): ApiRequest;
}

export interface Mutation extends RefusalRow {
  needs?: PathSetting[];
  /** The records the request acts on; for cross-team, another team's records (or references to them). */
  arrange(c: CheckContext, refusal: Refusal): Promise<Arranged>;
}

const note = (c: CheckContext, v: Variant) => `${marker(c)} ${v} ${randomUUID().slice(0, 8)}`;
const ownerOf = (r: Refusal): KeyName => (r === 'cross-team' ? 'otherTeam' : 'team');
/** A patch of one string field, or (invalid) the same plus a field of the wrong type. */
const patch = (path: string, field: string, wrong: Rec) => (c: CheckContext, v: Variant): ApiRequest => ({
  method: 'PATCH',
  path,
  json: { [field]: note(c, v), ...(v === 'invalid' ? wrong : {}) },
});

export const mutations: readonly Mutation[] = [
  {
    ...refusalRow('updateProject'),
    async arrange(c, r) {
      const project = await aProject(c, ownerOf(r));
      // Snapshotted by GET with the owner's key, another team's project too: a server that applies
      // the refused PATCH anyway gets its record put back. A reused key applies its first PATCH on
      // every server, so that one runs only where the change can be undone.
      const before = await c.ledger.before('projects', project, { auth: ownerOf(r) });
      const why = r === 'reused-key' ? c.ledger.irreversible(before, ['notes']) : undefined;
      if (why) c.skip(why);
      return {
        views: viewsOf(c, { kind: 'project', id: String(project.id) }, ownerOf(r)),
        request: (v) => patch(`/projects/${project.id}`, 'notes', { skills: 'not-an-array' })(c, v),
      };
    },
  },
  {
    ...refusalRow('updateAssignment'),
    async arrange(c, r) {
      const { assignment: a } = await createWorkingAssignment(c, ownerOf(r));
      const views = viewsOf(c, { kind: 'assignment', id: String(a.id), employee_id: String(a.employee_id), project_id: String(a.project_id) }, ownerOf(r));
      return { views, request: (v) => patch(`/assignments/${a.id}`, 'role', { bill_rate: 'not-a-number' })(c, v) };
    },
  },
  {
    ...refusalRow('deleteAssignment'),
    async arrange(c, r) {
      const { project, employee, assignment: first } = await createWorkingAssignment(c, ownerOf(r));
      const second = await createAssignment(c, { employee_id: employee.id, project_id: project.id }, ownerOf(r));
      const views = [first, second].flatMap((a) =>
        viewsOf(c, { kind: 'assignment', id: String(a.id), employee_id: String(employee.id), project_id: String(project.id) }, ownerOf(r)).slice(0, 2)
      );
      return { views, request: (v) => ({ method: 'DELETE', path: `/assignments/${(v === 'other' ? second : first).id}` }) };
    },
  },
  {
    ...refusalRow('createAssignment'),
    async arrange(c, r) {
      const project = await aProject(c);
      // cross-team: the body names another team's employee; the effect would show on either side
      const employee = r === 'cross-team' ? (await teamB(c)).employee : await workingEmployee(c);
      const mine = { ...lists.assignments, query: { employee_id: String(employee.id) } };
      const views = [collection(c, mine), ...(r === 'cross-team' ? [collection(c, mine, 'otherTeam')] : [])];
      return {
        views,
        request: (v) => ({
          method: 'POST',
          path: '/assignments',
          json: { employee_id: employee.id, project_id: project.id, role: note(c, v), ...(v === 'invalid' ? { bill_rate: 'not-a-number' } : {}) },
        }),
      };
    },
  },
  {
    ...refusalRow('updateEmployee'),
    async arrange(c, r) {
      const { employee, assignment } = await createWorkingAssignment(c, ownerOf(r));
      const views = viewsOf(c, { kind: 'employee', id: String(employee.id), assignments: [String(assignment.id)] }, ownerOf(r));
      return { views, request: (v) => patch(`/employees/${employee.id}`, 'last_name', { is_active: 'yes' })(c, v) };
    },
  },
  {
    ...refusalRow('createOrganization'),
    async arrange(c, r) {
      const names = { valid: note(c, 'valid'), other: note(c, 'other'), invalid: note(c, 'invalid') };
      // the request that must leave no trace: the refused one (for a reused key, the second)
      const refused = r === 'reused-key' ? names.other : r === 'invalid-body' ? names.invalid : names.valid;
      const e = c.settings.paths.organizationCreate;
      return {
        views: [organizationNamed(c, refused)],
        request: (v) => ({ method: e.method, path: e.path, json: { name: names[v], ...(v === 'invalid' ? { roles: 'recruiter' } : {}) } }),
      };
    },
  },
  {
    ...refusalRow('updateOrganization'),
    async arrange(c, r) {
      const org = r === 'cross-team' ? (await teamB(c)).organization : await createOrganization(c);
      const views = viewsOf(c, { kind: 'organization', id: String(org.id), name: String(org.name) }, ownerOf(r));
      return { views, request: (v) => patch(`/organizations/${org.id}`, 'notes', { roles: 'recruiter' })(c, v) };
    },
  },
  {
    ...refusalRow('uploadAttachment'),
    async arrange(c, r) {
      const employee = r === 'cross-team' ? (await teamB(c)).employee : await workingEmployee(c);
      const entity = { type: 'employee', id: String(employee.id) };
      const of = { path: '/attachments', resource: 'attachment' as const, query: { entity_type: entity.type, entity_id: entity.id } };
      const views = [collection(c, of), ...(r === 'cross-team' ? [collection(c, of, 'otherTeam')] : [])];
      const files = { valid: testFile(c, 64), other: testFile(c, 64), invalid: testFile(c, 64) };
      return {
        views,
        request: (v) => ({ method: 'POST', path: '/attachments', upload: { fields: { entity_type: entity.type, entity_id: entity.id }, file: files[v] } }),
      };
    },
  },
  {
    ...refusalRow('deleteAttachment'),
    async arrange(c, r) {
      const owner = ownerOf(r);
      const entity = { type: 'employee', id: String((await workingEmployee(c, owner)).id) };
      const first = created(await uploadAttachment(c, entity, testFile(c, 32), { auth: owner }));
      const second = created(await uploadAttachment(c, entity, testFile(c, 32), { auth: owner }));
      const of = { path: '/attachments', resource: 'attachment' as const, query: { entity_type: entity.type, entity_id: entity.id } };
      return { views: [collection(c, of, owner)], request: (v) => ({ method: 'DELETE', path: `/attachments/${(v === 'other' ? second : first).id}` }) };
    },
  },
  {
    ...refusalRow('deleteFile'),
    needs: ['fileDelete'],
    async arrange(c, r) {
      const owner = ownerOf(r);
      const first = created(await uploadFile(c, testFile(c, 32), { auth: owner }));
      const second = created(await uploadFile(c, testFile(c, 32), { auth: owner }));
      const e = c.settings.paths.fileDelete!;
      const views = [first, second].flatMap((f) => viewsOf(c, { kind: 'file', id: String(f.id) }, owner));
      return { views, request: (v) => ({ method: e.method, path: e.path.replace('{id}', String((v === 'other' ? second : first).id)) }) };
    },
  },
];

function created(res: ApiResponse): Rec {
  if (!is2xx(res)) throw new Error(`setup upload answered ${res.status}`);
  return expectResource(res, 'file');
}

/** A request sent by a refusal check: anything it happens to create is entered in the ledger. */
export async function sendTracked(c: CheckContext, m: Mutation, req: ApiRequest): Promise<ApiResponse> {
  const res = await c.api.send(req);
  const id = (res.body as Rec | undefined)?.id;
  if (!is2xx(res) || typeof id !== 'string') return res;
  const auth: KeyName = typeof req.auth === 'string' && req.auth !== 'none' ? req.auth : 'team';
  if (m.op === 'createAssignment') c.ledger.add('assignment', id, auth);
  if (m.op === 'uploadAttachment') c.ledger.add('attachment', id, auth);
  if (m.op === 'createOrganization') c.ledger.keep('organization', id);
  return res;
}
