// Written faults of the values a write takes (the boundary catalog, specs/boundaries.ts) and of the
// stamps a write leaves (§2 created_at, updated_at; §3 stage_changed_at): the mistakes a real
// implementation makes with a truthiness test, a header decoded in another charset, a validator
// that knows no null, a timestamp column its UPDATE forgets or rewrites.
import { operations } from '../../../specs/surface.js';
import { ApiError, badRequest } from '../../reference/errors.js';
import { nowIso, type Row } from '../../reference/store.js';
import { fault, only } from '../fault.js';
import { refuseList } from '../lists.js';
import { operationsOf } from '../records.js';
import { afterWrite, restored } from '../writes.js';

const JSON_CREATES = only(operations().filter((o) => o.kind === 'create' && o.body).map((o) => o.op));
const PATCHES = only(operationsOf('patch'));
const UPLOADS = only(['uploadAttachment', 'uploadFile']);
const falsy = (v: unknown) => v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0);
/** The nullable request fields of each operation (favicon_url, the address identifiers…). */
const nullable = new Map(operations().map((o) => [o.op, new Set(o.fields.filter((f) => f.nullable).map((f) => f.name))]));

export const inputFaults = [
  fault('falsy-values-dropped', ['EP-PATCH-PERSISTS', 'EP-CREATE-PERSISTS'],
    'writes merge the body with `||`: a PATCH of "", 0, false or [] keeps the old value; a create stores "", 0 and [] as null and false as true', (ctx) => ({
      handle: afterWrite(ctx, (ex) => PATCHES(ex.operationId) || JSON_CREATES(ex.operationId), ({ entry, prior }, ex) => {
        const dropped = Object.keys(ex.body).filter((k) => falsy(ex.body[k]));
        if (!dropped.length) return undefined;
        if (prior) return { row: restored(entry.row, prior.row, dropped) };
        const row: Row = { ...entry.row };
        for (const k of dropped) row[k] = ex.body[k] === false ? true : null;
        return { row };
      }),
    })),
  fault('upload-filename-latin1', ['EP-CREATE-PERSISTS'],
    'the file part\'s filename is decoded as latin1: "Müller.pdf" sent in UTF-8 is stored as "MÃ¼ller.pdf"', (ctx) => ({
      handle: afterWrite(ctx, (ex) => UPLOADS(ex.operationId), ({ entry }) => {
        const name = String(entry.row.filename ?? '');
        const mangled = Buffer.from(name, 'utf8').toString('latin1');
        return mangled === name ? undefined : { row: { ...entry.row, filename: mangled } };
      }),
    })),
  fault('nullable-null-refused', ['EP-PATCH-PERSISTS'], 'a PATCH sending null to a field typed "or null" (favicon_url) answers 400 "must be a string"', () => ({
    validate: (ex, next) => {
      const fields = nullable.get(ex.operationId);
      if (PATCHES(ex.operationId) && fields && [...fields].some((k) => k in ex.body && ex.body[k] === null)) {
        throw badRequest('Validation failed', Object.fromEntries([...fields].filter((k) => ex.body[k] === null).map((k) => [k, 'must be a string'])));
      }
      return next();
    },
  })),
  fault('patch-keeps-updated-at', ['RES-UPDATED-AT-MOVES'], 'a PATCH stores the named fields but leaves updated_at at its former value', (ctx) => ({
    handle: afterWrite(ctx, (ex) => PATCHES(ex.operationId), ({ entry, prior }) => ({ row: restored(entry.row, prior?.row, ['updated_at']) })),
  })),
  fault('patch-resets-created-at', ['RES-CREATED-AT-STABLE'], 'a PATCH that changes a field also sets created_at to the time of the update', (ctx) => ({
    handle: afterWrite(ctx, (ex) => PATCHES(ex.operationId) && Object.keys(ex.body).length > 0, ({ entry }) => ({
      row: { ...entry.row, created_at: String(entry.row.updated_at ?? nowIso()) },
    })),
  })),
  fault('stage-changed-at-on-any-patch', ['STATE-STAGE-CHANGE-STAMPED'],
    'any PATCH /projects/{id} that changes a field stamps stage_changed_at, the stage unchanged (a trigger without IS DISTINCT FROM)', (ctx) => ({
      handle: afterWrite(ctx, (ex) => ex.operationId === 'updateProject' && Object.keys(ex.body).length > 0, ({ entry }) => ({
        row: { ...entry.row, stage_changed_at: nowIso() },
      })),
    })),
  fault('search-walk-stops-early', ['LIST-Q'], 'with q, a page reached through a cursor says hasMore false: the rest of the results is unreachable', () => ({
    page: (_ex, page, plan) => (plan.query.q && plan.query.after && page.hasMore ? { ...page, hasMore: false, nextCursor: '' } : page),
  })),
  fault('q-reserved-5xx', ['LIST-Q'],
    'search text holding a quote, a backslash or a LIKE wildcard crashes the list with a 500 (the text spliced into the query)', () => ({
      handle: refuseList((ex) => typeof ex.query.q === 'string' && /[%_'"\\]/.test(ex.query.q), () => new ApiError(500, 'internal_error', 'Internal error')),
    })),
  fault('idem-key-ignores-endpoint', ['IDEM-REPLAY'],
    'the idempotency store is keyed on the team and the body alone: DELETE /assignments/{y} with the key of DELETE /assignments/{x} replays its success, y not deleted',
    () => ({
      idempotency: { scope: (_ex, scope) => scope.slice(0, 1), fingerprint: (_ex, parts) => parts.slice(1) },
    })),
  fault('attachments-list-rejects-contact', ['EP-ATTACHMENTS-LIST'],
    'GET /attachments?entity_type=contact answers 400: the list checks the type against the tables it can read', () => ({
      validate: (ex, next) => {
        if (ex.operationId === 'listAttachments' && ex.query.entity_type === 'contact') {
          throw badRequest('Validation failed', { entity_type: 'is not supported' });
        }
        return next();
      },
    })),
  fault('default-end-date-timestamp', ['RES-TIMESTAMPS-DATES-STRINGS'],
    'an assignment created without end_date gets a default end date spelled as a full timestamp', (ctx) => ({
      handle: afterWrite(ctx, (ex) => ex.operationId === 'createAssignment' && ex.body.end_date === undefined, ({ entry }) => ({
        row: { ...entry.row, end_date: '2031-12-31T00:00:00.000Z' },
      })),
    })),
] as const;
