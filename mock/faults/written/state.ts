// Written faults of endpoints that change records and of the §3 states and transitions.
import { badRequest } from '../../reference/errors.js';
import { findOwn } from '../../reference/lookup.js';
import type { Row } from '../../reference/store.js';
import { fault, only } from '../fault.js';
import { answersWith, collectionOf, operationsOf, shown } from '../records.js';
import { afterWrite, restored } from '../writes.js';

/** What §3 says a transition records, beside the fields a body names. */
const STATE_STAMPS = ['stage_changed_at', 'archived_from_stage', 'archived_from_status', 'closed_at'];

const UPDATE_PROJECT = only('updateProject');
const emptyBody = (body: Record<string, unknown>) => Object.keys(body).length === 0;
/** Whether a PATCH closes the project (the reference's readings: a close field with a value, or status closed). */
const closes = (body: Record<string, unknown>) =>
  ['close_reason', 'close_reason_category', 'closed_at'].some((k) => body[k] !== undefined && body[k] !== null) || body.status === 'closed';

export const stateFaults = [
  fault('patch-empty-rejected', ['EP-PROJECTS-PATCH-EMPTY'], 'PATCH /projects/{id} with {} answers 400', () => ({
    handle: (ex, next) => {
      if (UPDATE_PROJECT(ex.operationId) && emptyBody(ex.body)) throw badRequest('Empty patch', { body: 'must not be empty' });
      return next();
    },
  })),
  fault('patch-empty-applies-defaults', ['EP-PROJECTS-PATCH-EMPTY'], 'PATCH /projects/{id} with {} clears the notes (re-applies a default)', (ctx) => ({
    handle: afterWrite(ctx, (ex) => UPDATE_PROJECT(ex.operationId) && emptyBody(ex.body), ({ entry }) => ({ row: restored(entry.row, undefined, ['notes']) })),
  })),
  fault('patch-ignored', ['EP-PROJECTS-PATCH', 'EP-ASSIGNMENTS-PATCH', 'EP-EMPLOYEES-PATCH', 'EP-ORGANIZATIONS-PATCH', 'EP-PATCH-PERSISTS'],
    'PATCH answers the unchanged record', (ctx) => {
    const patches = only(operationsOf('patch'));
    return {
      handle: async (ex, next) => {
        const col = collectionOf(ctx, ex.operationId);
        const kind = answersWith(ex.operationId)?.kind;
        if (!patches(ex.operationId) || !col || !kind) return next();
        return { status: 200, json: shown(ctx, kind, findOwn(ctx, ex, col, ex.params.id!, 'write')) };
      },
    };
  }),
  fault('patch-not-persisted', ['EP-PATCH-PERSISTS'], 'PATCH answers the patched record but does not store it', (ctx) => {
    const patches = only(operationsOf('patch'));
    return {
      handle: afterWrite(ctx, (ex) => patches(ex.operationId), ({ col, entry, prior, result }) => {
        if (prior) col.replace(entry, prior.row);
        return { answer: result };
      }),
    };
  }),
  fault('create-required-not-enforced', ['EP-EMPLOYEES-CREATE-FIRST-NAME-REQUIRED', 'EP-ASSIGNMENTS-CREATE-REQUIRED-FIELDS'],
    'POST /employees and /assignments accept bodies without their required fields', () => ({
      validate: (ex, next) => (['createEmployee', 'createAssignment'].includes(ex.operationId) ? undefined : next()),
    })),
  fault('create-fields-dropped', ['EP-EMPLOYEES-CREATE', 'EP-ASSIGNMENTS-CREATE'], 'creation ignores first_name and project_id of the body', (ctx) => ({
    handle: afterWrite(ctx, (ex) => ['createEmployee', 'createAssignment'].includes(ex.operationId), ({ kind, entry }) => ({
      row: kind === 'employee' ? { ...entry.row, first_name: 'Unnamed' } : restored(entry.row, undefined, ['project_id']),
    })),
  })),
  fault('stage-change-not-stamped', ['STATE-STAGE-CHANGE-STAMPED'], 'a stage change leaves stage_changed_at unchanged', (ctx) => ({
    handle: afterWrite(ctx, (ex) => UPDATE_PROJECT(ex.operationId), ({ entry, prior }) => ({ row: restored(entry.row, prior?.row, ['stage_changed_at']) })),
  })),
  fault('archive-not-recorded', ['STATE-ARCHIVE-RECORDS-PRIOR'], 'archiving sets archived_at but not archived_from_stage/status', (ctx) => ({
    handle: afterWrite(ctx, (ex) => UPDATE_PROJECT(ex.operationId), ({ entry, prior }) => ({
      row: restored(entry.row, prior?.row, ['archived_from_stage', 'archived_from_status']),
    })),
  })),
  fault('state-answered-not-stored', ['STATE-STAGE-CHANGE-STAMPED', 'STATE-CLOSE-SETS-FIELDS', 'STATE-ARCHIVE-RECORDS-PRIOR'],
    "a transition's stamps (stage_changed_at, archived_from_*, closed_at) are in the PATCH's answer but not stored: GET and the list show the old ones",
    (ctx) => ({
      handle: afterWrite(ctx, (ex) => UPDATE_PROJECT(ex.operationId), ({ col, entry, prior, result }) => {
        col.replace(entry, restored(entry.row, prior?.row, STATE_STAMPS));
        return { answer: result };
      }),
    })),
  fault('close-not-recorded', ['STATE-CLOSE-SETS-FIELDS'], 'closing stores close_reason but not closed_at or close_reason_category', (ctx) => ({
    handle: afterWrite(ctx, (ex) => UPDATE_PROJECT(ex.operationId) && closes(ex.body), ({ entry }) => ({
      row: restored(entry.row, undefined, ['closed_at', 'close_reason_category']),
    })),
  })),
  fault('is-active-not-persisted', ['STATE-EMPLOYEE-IS-ACTIVE'], 'PATCH /employees ignores is_active', (ctx) => ({
    handle: afterWrite(ctx, (ex) => ex.operationId === 'updateEmployee',
      ({ entry, prior }) => ({ row: restored(entry.row, prior?.row, ['is_active']) as Row })),
  })),
  fault('status-null-accepted', ['RES-INHERENT-FIELDS'], 'PATCH /projects/{id} takes status: null as no change (answers 200, the status kept)', () => ({
    validate: (ex, next) => {
      if (UPDATE_PROJECT(ex.operationId) && ex.body.status === null) delete ex.body.status;
      next();
    },
  })),
  fault('org-create-missing', ['EP-ORGANIZATIONS-CREATE'], 'POST /organizations does not exist (404)', () => ({
    routes: (t) => ({ ...t, routes: t.routes.filter((r) => r.operationId !== 'createOrganization') }),
  })),
] as const;
