// A field a record shows otherwise than the request that wrote it sent: one finding per resource,
// field and kind of wrongness, wherever it shows (every answer and view that compares it), failing
// that field's requirement — what persists a write of it — not the requirements of each check
// that met it. The check that met it records the finding and compares the other fields; the cause
// lists every place the field showed wrong (C5 `findings`, reported as the audit's are).
import type { Rec } from '../../contract/json.js';
import type { Concerning } from './judge/assert.js';
import { activeRequirements, currentCheck, recordFinding } from './run/current.js';
import type { ApiResponse } from './transport/client.js';
import { excerptAt } from './transport/excerpt.js';

/** What kind of write sent the field: a JSON create, a PATCH, or an upload (whose size the bytes decide). */
export type WriteKind = 'create' | 'patch' | 'upload';

/** The kind of write an operation is: an upload is a multipart create. */
export const writeKindOf = (op: { kind: string; multipart?: boolean; op: string; }): WriteKind =>
  op.multipart || /^upload/.test(op.op) ? 'upload' : op.kind === 'patch' ? 'patch' : 'create';

/**
 * §2 File: "Same fields as Attachment without `entity_type` and `entity_id`." A file's field is an
 * attachment's field: a wrong one shows in both resources as one bug.
 */
const FIELD_OWNER: Record<string, string> = { files: 'attachments' };

/** How a cause names the resources that share a field. */
const SHARERS: Record<string, string> = { attachments: 'attachments and files' };

/** Each upload endpoint's requirement: the File or Attachment it answers is the upload's (§4 Attachments, Files). */
const UPLOAD_RULE: Record<string, string> = { files: 'EP-FILES-CREATE', attachments: 'EP-ATTACHMENTS-CREATE' };

/**
 * The requirements a field shown otherwise than sent violates: what persists a write of it —
 * the category of an upload (§4 Files), an employee's `is_active` (§3), the size of an upload
 * (not sent as a field: the upload endpoint answers the File or Attachment of the bytes it got),
 * or any other field a create or PATCH sent (§4: the fields sent are the record's).
 */
export function fieldRequirements(resource: string, field: string, write: WriteKind): string[] {
  if (write === 'upload' && field === 'category') return ['UPLOAD-CATEGORY-STORED'];
  if (resource === 'employees' && field === 'is_active') return ['STATE-EMPLOYEE-IS-ACTIVE'];
  if (write === 'upload' && field === 'size') return [UPLOAD_RULE[resource] ?? 'EP-CREATE-PERSISTS'];
  return [write === 'patch' ? 'EP-PATCH-PERSISTS' : 'EP-CREATE-PERSISTS'];
}

/**
 * The requirement of each embedded copy (registry embeddedIn: parent resource and property):
 * §2 Assignment shows `employee` "embedded in responses", a copy of the employee as it is now.
 */
export const EMBEDDED_RULE: Record<string, string> = { 'assignments.employee': 'RES-ASSIGNMENT-EMBEDDED-CURRENT' };

/** One finding per embedding, whichever field or record showed it stale. */
export const embeddedFindingKey = (parent: string, property: string) => `embedded ${parent}.${property} | not the record as it is`;

/** One finding per operation whose retry is not a replay of its first answer, whichever check retried it. */
export const replayFindingKey = (op: string) => `replay ${op} | not the first answer`;

export const fieldFindingKey = (resource: string, field: string) => `field ${FIELD_OWNER[resource] ?? resource}.${field} | not as sent`;

/** The requirements a record's persistence is checked under (§4 and §3's is_active): what a write shown otherwise fails. */
const PERSISTS = ['EP-CREATE-PERSISTS', 'EP-PATCH-PERSISTS', 'EP-PATCH-PARTIAL', 'STATE-EMPLOYEE-IS-ACTIVE', 'EP-ORGANIZATIONS-PATCH'];

/**
 * What a failure about a write shown otherwise is about, so that every check meeting one bug
 * reports one cause failing that field's requirement: the finding `key` (a field's, a limit's),
 * failing what persists the field (`at`; fieldRequirements) for the kind of write the running step
 * or else the check checks (a PATCH or a create), never the step's other rules (an idempotency or
 * isolation step that met the field), or `rule` where the failure is of another rule about the
 * write (a PATCH that changed a field it did not name: EP-PATCH-PARTIAL). Undefined when the check
 * checks no persistence: the failure then stays the check's own.
 */
export function writeConcern(key: string, at?: { resource: string; field: string; }, rule?: string): Concerning | undefined {
  const tags = currentCheck()?.requirements ?? [];
  const kindIn = (ids: readonly string[]): WriteKind | undefined =>
    ['EP-PATCH-PERSISTS', 'EP-ORGANIZATIONS-PATCH', 'STATE-EMPLOYEE-IS-ACTIVE', 'EP-PATCH-PARTIAL'].some((id) => ids.includes(id))
      ? 'patch'
      : ids.includes('EP-CREATE-PERSISTS')
      ? 'create'
      : undefined;
  const write = kindIn(activeRequirements()) ?? kindIn(tags);
  if (!write) return undefined;
  const plain = write === 'patch' ? 'EP-PATCH-PERSISTS' : 'EP-CREATE-PERSISTS';
  const wanted = rule ? [rule] : at ? fieldRequirements(at.resource, at.field, write) : [plain];
  // a requirement the check is not tagged with cannot be failed by it: the plain persistence rule then
  for (const ids of [wanted, [plain], tags.filter((id) => PERSISTS.includes(id))]) {
    const own = ids.filter((id) => tags.includes(id));
    if (own.length) return { finding: key, requirement: own };
  }
  return undefined;
}

const show = (v: unknown) => JSON.stringify(v) ?? 'undefined';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The request a response answered, as the audit names operations: `POST /files`, `GET /files/{id}`. */
export function whereOf(res: ApiResponse): string {
  const { method, url } = res.exchange.request;
  return `${method} ${new URL(url).pathname.replace(/^.*?\/v\d+(?=\/)/, '').replace(UUID, '{id}')}`;
}

/**
 * Records each of `fields` that `got` shows otherwise than `sent` as the finding of its field,
 * seen in `where` (an operation's answer or a view). What varies between occurrences (the value,
 * the record) stays in the evidence of the first; the key is the resource and field alone.
 */
export function notAsSent(
  res: ApiResponse,
  fields: readonly string[],
  sent: Rec,
  got: Rec,
  at: { resource: string; write: WriteKind; where?: string; pointer?: string; },
): void {
  const where = at.where ?? whereOf(res);
  for (const field of fields) {
    const key = fieldFindingKey(at.resource, field);
    const owner = FIELD_OWNER[at.resource] ?? at.resource;
    const pointer = `${at.pointer ?? ''}/${field}`;
    const requirements = fieldRequirements(at.resource, field, at.write);
    recordFinding(() => ({
      key,
      requirements,
      message: `${field} of ${SHARERS[owner] ?? owner} is shown otherwise than sent: ${field}=${show(got[field])} for ${show(sent[field])} (${where})`,
      pointer,
      seenIn: [where],
      count: 1,
      request: res.exchange.request,
      ...(res.exchange.response ? { response: res.exchange.response } : {}),
      curl: res.exchange.curl,
      ...(res.body !== undefined ? { excerpt: excerptAt(res.body, pointer) } : {}),
    }), key, where, requirements);
  }
}
