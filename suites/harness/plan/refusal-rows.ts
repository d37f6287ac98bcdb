// Which refusals each mutating operation is checked for (refusals.check.ts): the rows the coverage
// table plans the refusal cells from, and to which mutations.ts attaches how each request is
// arranged. A refusal a row leaves out is planned with the reason the surface gives (table.ts).
import { type Refusal, REFUSALS } from '../../../specs/registry.js';

export interface RefusalRow {
  /** operationId (specs/openapi/operations.ts, or the mock's name for an endpoint whose path is not shown). */
  op: string;
  name: string;
  refusals: readonly Refusal[];
}

/** Without a JSON body no field can have the wrong type. */
const NO_BODY: readonly Refusal[] = REFUSALS.filter((r) => r !== 'invalid-body');
/**
 * A DELETE has no body: its only other request is another path, and how far a key reaches (one
 * operation, or one method and path) is not shown, so a deployment may run it as a new request.
 */
const DELETES: readonly Refusal[] = ['cross-team', 'read-only', 'no-key'];

export const REFUSAL_ROWS: readonly RefusalRow[] = [
  { op: 'updateProject', name: 'PATCH /projects/{id}', refusals: REFUSALS },
  { op: 'updateAssignment', name: 'PATCH /assignments/{id}', refusals: REFUSALS },
  { op: 'deleteAssignment', name: 'DELETE /assignments/{id}', refusals: DELETES },
  { op: 'createAssignment', name: 'POST /assignments', refusals: REFUSALS },
  { op: 'updateEmployee', name: 'PATCH /employees/{id}', refusals: REFUSALS },
  { op: 'createOrganization', name: 'create organization', refusals: ['read-only', 'no-key', 'invalid-body', 'reused-key'] },
  { op: 'updateOrganization', name: 'PATCH /organizations/{id}', refusals: REFUSALS },
  { op: 'uploadAttachment', name: 'POST /attachments', refusals: NO_BODY },
  { op: 'deleteAttachment', name: 'DELETE /attachments/{id}', refusals: DELETES },
  { op: 'deleteFile', name: 'file delete', refusals: DELETES },
];

export function refusalRow(op: string): RefusalRow {
  const row = REFUSAL_ROWS.find((r) => r.op === op);
  if (!row) throw new Error(`no refusal row for ${op}`);
  return row;
}
