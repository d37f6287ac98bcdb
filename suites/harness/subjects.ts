// Records of any resource, made and changed through the operation table (harness/plan/operations.ts)
// rather than one helper per endpoint: a create with every field filled or only the required
// ones, its references naming records of the same team, a record for a PATCH to change (created,
// or a scratch project), and the subject whose views show it (for a resource shown only embedded
// in another's records, a record that embeds it). What is made is entered in the ledger.
import type { Rec } from '../../contract/json.js';
import type { KeyName } from '../../contract/settings.js';
import { type Collection, resource, roleOf } from '../../specs/registry.js';
import type { CheckContext } from './check.js';
import { expectStatus, is2xx } from './judge/assert.js';
import { expectResource } from './judge/problems.js';
import { type Field, type Operation, operationNamed, recordKind, requestTo, servedOperations, servedViews } from './plan/operations.js';
import { anotherProject, aProject, createEmployee, createOrganization, filledBody, markedText, testFile, workingEmployee } from './records.js';
import { setup } from './setup.js';
import type { ApiResponse, Auth } from './transport/client.js';
import type { UploadFile } from './transport/upload.js';
import { nextUploadSize } from './value-seeds.js';
import { isNewestFirst, newestFirst, type RecordSubject } from './views.js';
import { SAMPLE_PAGES, walkWithin } from './walk.js';

/** What a request sends: a JSON body, or (an upload) its fields and the file. */
export interface Sent {
  body: Rec;
  file?: UploadFile;
}

/** What the record a request makes or changes must show of what it sent (an upload: its fields, the file's name and size). */
export function shownOf(op: Operation, sent: Sent): Rec {
  return op.multipart && sent.file ? { ...sent.body, filename: sent.file.filename, size: sent.file.size } : sent.body;
}

export const createOf = (c: CheckContext, resource: string): Operation | undefined =>
  servedOperations(c.settings).find((o) => o.resource === resource && o.kind === 'create');

export const patchOf = (c: CheckContext, resource: string): Operation | undefined =>
  servedOperations(c.settings).find((o) => o.resource === resource && o.kind === 'patch');

/** The first free-text field of a request (no listed values, no format, no reference): where a run writes its marked text. */
export function textFieldOf(op: Operation): Field | undefined {
  return op.fields.find((f) => f.types.includes('string') && f.types.length <= 2 && !f.enum && !f.examples && !f.format && !f.references && f.name !== 'id');
}

/** Sends `op` (its path id filled), entering what a create makes in the ledger. */
export async function send(
  c: CheckContext,
  op: Operation,
  o: {
    id?: string;
    sent?: Sent;
    /** A key of the run, or another form of Authorization (what it makes is the team's, the run's key served). */
    auth?: Auth;
    idempotencyKey?: string;
    /** The JSON body sent as text under this Content-Type instead of `application/json`. */
    contentType?: string;
    headers?: Record<string, string>;
    omit?: readonly string[];
  } = {},
): Promise<ApiResponse> {
  const { method, path } = requestTo(op, o.id);
  const auth = o.auth ?? 'team';
  const body = o.sent?.body;
  const upload = op.multipart && o.sent?.file
    ? { upload: { fields: Object.fromEntries(Object.entries(body ?? {}).map(([k, v]) => [k, String(v)])), file: o.sent.file } }
    : {};
  const json = body === undefined ? {} : o.contentType ? { rawBody: JSON.stringify(body) } : { json: body };
  const res = await c.api.send({
    method,
    path,
    auth,
    ...(op.multipart ? upload : json),
    ...(o.idempotencyKey ? { idempotencyKey: o.idempotencyKey } : {}),
    headers: { ...o.headers, ...(o.contentType && !op.multipart ? { 'content-type': o.contentType } : {}) },
    ...(o.omit ? { omit: o.omit } : {}),
  });
  const id = (res.body as Rec | undefined)?.id;
  const role = roleOf(op);
  if ((role === 'create' || role === 'upload') && is2xx(res) && typeof id === 'string') {
    // what the API can delete is deleted at the end; the rest is kept, counted as left behind
    const made = resource(op.resource as Collection);
    const owner: KeyName = typeof auth === 'object' ? ('key' in auth ? auth.key : 'team') : auth === 'none' ? 'team' : auth;
    if (made.operations.delete) c.ledger.add(made.kind, id, owner);
    else c.ledger.keep(made.kind, id, owner);
  }
  if (op.kind === 'delete' && is2xx(res) && o.id) c.ledger.gone(o.id);
  return res;
}

type Referenced = (c: CheckContext, auth: KeyName, current?: Rec) => Promise<Rec | undefined>;

/**
 * Where a reference needs more than a new record of its resource: projects cannot be created (§4
 * shows no POST /projects), so one of the team's is found; an assignment names an employee who
 * works (§2 Employee `is_active`), reused across checks; an organization is made through the
 * create at the target's path (CONFORMANCE_PATH_ORGANIZATION_CREATE). Any other resource is made
 * through its create.
 */
const REFERENCED: Partial<Record<Collection, { one: Referenced; another: Referenced; }>> = {
  projects: { one: (c, auth) => aProject(c, auth), another: (c, auth, current) => anotherProject(c, current!, auth) },
  employees: { one: (c, auth) => workingEmployee(c, auth), another: (c, auth) => createEmployee(c, {}, auth) },
  organizations: { one: (c, auth) => createOrganization(c, {}, auth), another: (c, auth) => createOrganization(c, {}, auth) },
};

async function madeForReference(c: CheckContext, collection: string, auth: KeyName): Promise<Rec | undefined> {
  return createOf(c, collection) ? (await made(c, collection, { auth, required: true })).record : undefined;
}

/** A record of the team a reference may name (undefined: the run cannot make or find one). */
export async function referenceTo(c: CheckContext, resource: string, auth: KeyName = 'team'): Promise<Rec | undefined> {
  const own = REFERENCED[resource as Collection];
  return own ? own.one(c, auth) : madeForReference(c, resource, auth);
}

/** Another record of the same resource than `current`, for a reference to move to (undefined: none). */
export async function anotherReference(c: CheckContext, resource: string, current: Rec, auth: KeyName = 'team'): Promise<Rec | undefined> {
  const own = REFERENCED[resource as Collection];
  return own ? own.another(c, auth, current) : madeForReference(c, resource, auth);
}

/**
 * Values of a create's reference fields, naming records of `auth`'s team: required ones always,
 * the others when `all`. A reference chosen by a sibling `*_type` (an attachment's entity) names
 * a record of `type`, or of the first resource the run can make.
 */
export async function referencesOf(c: CheckContext, op: Operation, o: { auth?: KeyName; all?: boolean; type?: string; } = {}): Promise<Rec> {
  const out: Rec = {};
  for (const f of op.fields.filter((x) => x.references && (o.all || x.required))) {
    const typed = op.fields.find((x) => x.name === `${f.name.slice(0, -3)}_type` && x.enum);
    const candidates = o.type ? [`${o.type}s`] : f.references!;
    for (const resource of candidates) {
      const record = await referenceTo(c, resource, o.auth);
      if (!record) continue;
      out[f.name] = record.id;
      if (typed) out[typed.name] = resource.slice(0, -1);
      break;
    }
  }
  return out;
}

/** A body of `op` with every field filled (or, `required`, only the required ones), its text field marked, its references given. */
export async function bodyOf(c: CheckContext, op: Operation, o: { auth?: KeyName; required?: boolean; type?: string; } = {}): Promise<Sent> {
  const refs = await referencesOf(c, op, { ...o, all: !o.required });
  const text = textFieldOf(op);
  const all = filledBody(c, op.op);
  const filled = o.required ? {} : all;
  const required = Object.fromEntries(op.fields.filter((f) => f.required && !f.references && !(f.name in refs)).map((f) => [f.name, all[f.name]]));
  // the text field is sent even when optional: it carries the run id every record left behind is named with
  const body: Rec = { ...filled, ...required, ...(text ? { [text.name]: markedText(c) } : {}), ...refs };
  return op.multipart ? { body, file: testFile(c, nextUploadSize()) } : { body };
}

/** Makes a record of `resource` (filled, unless `required`), through its create; fails the check unless it answers 2xx with the record. */
export async function made(
  c: CheckContext,
  resource: string,
  o: { auth?: KeyName; required?: boolean; sent?: Sent; } = {},
): Promise<{ record: Rec; res: ApiResponse; sent: Sent; op: Operation; }> {
  const op = createOf(c, resource);
  if (!op) throw new Error(`no operation creates ${resource}`);
  const sent = o.sent ?? (await bodyOf(c, op, o));
  const res = await send(c, op, { sent, auth: o.auth });
  expectStatus(res, '2xx', op.op);
  return { record: expectResource(res, recordKind(op)!, `${op.op} answer`), res, sent, op };
}

/**
 * The record a PATCH of `op` changes, as it is now: a new record with every field filled, or, for
 * a resource the API cannot create (projects), a scratch project, snapshotted first so that the
 * ledger puts it back. Skips the check when there is none.
 */
export async function patchTarget(c: CheckContext, op: Operation, auth: KeyName = 'team'): Promise<Rec> {
  return setup(`a record for ${op.op} to change`, async () => {
    if (createOf(c, op.resource)) return (await made(c, op.resource, { auth })).record;
    if (op.resource !== 'projects' || !c.settings.scratchProjects.length) {
      c.skip(`${op.op} changes pre-existing ${op.resource}: runs on CONFORMANCE_SCRATCH_PROJECTS only`);
    }
    const id = c.settings.scratchProjects[0]!;
    // the snapshot the ledger puts back is the first one; the change starts from the record as it is now
    await c.ledger.before('projects', id, { auth });
    const now = await c.api.send({ method: 'GET', path: `/projects/${id}`, auth });
    expectStatus(now, '2xx', 'GET /projects/{id} of a scratch project');
    return expectResource(now, 'project');
  });
}

/**
 * The subject whose views show `record`: for a resource shown only embedded in another's records
 * (an employee in its assignments), `embed` makes a record that embeds it first.
 */
export async function subjectOf(c: CheckContext, resource: string, record: Rec, o: { auth?: KeyName; embed?: boolean; } = {}): Promise<RecordSubject> {
  const embedded = servedViews(c.settings, resource).filter((v) => v.kind === 'embedded');
  const own = servedViews(c.settings, resource).some((v) => v.kind !== 'embedded');
  if (own || !embedded.length || o.embed === false) return { resource, record };
  const embeddedIn: Record<string, Rec[]> = {};
  for (const parent of new Set(embedded.map((v) => v.embedded!.parent.resource))) {
    const property = embedded.find((v) => v.embedded!.parent.resource === parent)!.embedded!.property;
    const parentOp = createOf(c, parent);
    if (!parentOp) continue;
    const sent = await bodyOf(c, parentOp, { auth: o.auth });
    sent.body[`${property}_id`] = record.id;
    embeddedIn[parent] = [(await made(c, parent, { auth: o.auth, sent })).record];
  }
  return { resource, record, embeddedIn };
}

export { operationNamed };

/** Two records of `resource` naming the same records (one entity, one employee and project): a record and its sibling. */
export async function siblings(c: CheckContext, resource: string, auth: KeyName = 'team'): Promise<[Rec, Rec]> {
  const op = createOf(c, resource);
  if (!op) throw new Error(`no operation creates ${resource}`);
  const first = await bodyOf(c, op, { auth });
  const second = await bodyOf(c, op, { auth });
  for (const f of op.fields.filter((x) => x.references || x.enum)) if (f.name in first.body) second.body[f.name] = first.body[f.name];
  return [(await made(c, resource, { auth, sent: first })).record, (await made(c, resource, { auth, sent: second })).record];
}

/**
 * How many records of `resource` the views that list it by the values `record` names (its
 * filters, its entity; else the list itself) show that `matches` accepts; undefined when no such
 * view can be read whole within the page budget.
 */
export async function copiesOf(
  c: CheckContext,
  resource: string,
  record: Rec,
  matches: (item: Rec) => boolean,
  auth: KeyName = 'team',
): Promise<number | undefined> {
  const views = servedViews(c.settings, resource);
  const narrow = views.filter((v) => (v.kind === 'filter' || v.kind === 'entity') && (v.filters ?? []).every((f) => typeof record[f] === 'string'));
  const pick = narrow.sort((a, b) => (b.filters?.length ?? 0) - (a.filters?.length ?? 0))[0] ?? views.find((v) => v.kind === 'list');
  if (!pick) return undefined;
  const op = operationNamed(c.settings, pick.op)!;
  const query = Object.fromEntries((pick.filters ?? []).map((f) => [f, String(record[f])]));
  // newest first where the deployment sorts by created_at: what the run just made is on the first pages
  const list = newestFirst(c, { path: op.path, resource: recordKind(op)!, query });
  const w = await walkWithin(c, list, { limit: 100, auth, refusedIsEmpty: true, ...(isNewestFirst(list) ? { maxPages: SAMPLE_PAGES } : {}) });
  const n = w.items.filter(matches).length;
  return w.complete || n > 1 ? n : undefined;
}
