// Written faults of the values a write takes (the boundary catalog, specs/boundaries.ts) and of the
// stamps a write leaves (§2 created_at, updated_at; §3 stage_changed_at): the mistakes a real
// implementation makes with a truthiness test, a header decoded in another charset, a validator
// that knows no null, a timestamp column its UPDATE forgets or rewrites.
import { operations } from '../../../specs/surface.js';
import { ApiError, badRequest, errorJson } from '../../reference/errors.js';
import type { Answer } from '../../reference/hooks.js';
import { JSON_TYPE } from '../../reference/pipeline.js';
import { json } from '../../reference/resources/common.js';
import { nowIso, type Row } from '../../reference/store.js';
import { fault, only } from '../fault.js';
import { isList, refuseList } from '../lists.js';
import { collectionOf, operationsOf } from '../records.js';
import { afterWrite, restored } from '../writes.js';

const JSON_CREATES = only(operations().filter((o) => o.kind === 'create' && o.body).map((o) => o.op));
const PATCHES = only(operationsOf('patch'));
const DELETES = only(operationsOf('delete'));
const UPLOADS = only(['uploadAttachment', 'uploadFile']);
const falsy = (v: unknown) => v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0);
/** The nullable request fields of each operation (favicon_url, the address identifiers…). */
const nullable = new Map(operations().map((o) => [o.op, new Set(o.fields.filter((f) => f.nullable).map((f) => f.name))]));
/** An error answered in the full envelope in place of `answer`. */
const answered = (answer: Answer, api: ApiError): Answer => ({
  status: api.status,
  contentType: JSON_TYPE,
  headers: answer.headers,
  body: errorJson(api),
  error: { api, envelope: 'full' },
});
const hasUpper = (id: string | undefined) => id !== undefined && /[A-F]/.test(id);
/** A percent-decoder that knows only upper-case hex digits: `%c3%bc` is left as it is. */
function decodeUpperHexOnly(raw: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i += 1) {
    const m = /^%([0-9A-F]{2})/.exec(raw.slice(i, i + 3));
    if (m) {
      bytes.push(parseInt(m[1]!, 16));
      i += 2;
    } else bytes.push(...Buffer.from(raw[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

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
  fault('json-media-type-exact', ['GEN-JSON-BODIES'],
    'a JSON write whose Content-Type is not exactly "application/json" (a charset parameter, another case) answers 415', () => ({
      validate: (ex, next) => {
        const type = ex.headers['content-type'];
        if ((PATCHES(ex.operationId) || JSON_CREATES(ex.operationId)) && type !== undefined && type !== 'application/json') {
          throw new ApiError(415, 'unsupported_media_type', 'Unsupported Content-Type', { 'content-type': 'expected application/json' });
        }
        return next();
      },
    })),
  fault('accept-exact-json', ['GEN-JSON-BODIES'],
    'Accept is compared as a string with "application/json" and "*/*": application/* and a weighted list answer 406', () => ({
      respond: (ex, answer) => {
        const accept = ex?.headers.accept?.trim();
        return accept !== undefined && accept !== 'application/json' && accept !== '*/*'
          ? answered(answer, new ApiError(406, 'not_acceptable', 'Not acceptable'))
          : answer;
      },
    })),
  fault('upper-id-other-team', ['ISO-OTHER-TEAM-AS-MISSING', 'ISO-GET-OTHER-TEAM-404'],
    'a path id in upper case is looked up case-insensitively in every team (the fallback query lower(id) = lower($1) has no team condition)', () => ({
      lookup: (_ex, find, next) => (hasUpper(find.id) && find.access !== 'reference' ? find.collection.find(find.id) ?? next() : next()),
    })),
  fault('upper-id-write-lost', ['EP-PATCH-PERSISTS', 'EP-DELETE-GONE'],
    'a PATCH or DELETE by an upper-case path id answers as done, but its UPDATE or DELETE ... WHERE id = $1 matches no row', (ctx) => ({
      handle: async (ex, next) => {
        if (!hasUpper(ex.params.id) || !(PATCHES(ex.operationId) || DELETES(ex.operationId))) return next();
        const col = collectionOf(ctx, ex.operationId);
        const was = col?.get(ex.principal.team, ex.params.id!);
        if (!col || !was) return next();
        if (DELETES(ex.operationId)) return json(200, { success: true });
        const row = { ...was.row };
        const result = await next();
        const now = col.get(ex.principal.team, ex.params.id!);
        if (now) col.replace(now, row);
        return result;
      },
    })),
  fault('q-lower-hex-undecoded', ['LIST-Q'], 'search text is percent-decoded by hand, upper-case hex digits only: q=%c3%bc is searched as "%c3%bc"', () => ({
    handle: (ex, next) => {
      const raw = /[?&]q=([^&]*)/.exec(ex.url)?.[1];
      if (isList(ex.operationId) && raw !== undefined) ex.query.q = decodeUpperHexOnly(raw);
      return next();
    },
  })),
  fault('repeated-param-ignored', ['LIST-PARAMS-ALL-LISTS', 'LIST-FILTER-EMPLOYEE-ID'],
    'a list parameter given twice is read as an array, fails a typeof check and is dropped: employee_id=x&employee_id=y lists every assignment, limit=1&limit=2 a page of the default size',
    () => ({
      handle: (ex, next) => {
        if (isList(ex.operationId)) { for (const [k, v] of Object.entries(ex.query)) if (Array.isArray(v)) delete ex.query[k]; }
        return next();
      },
    })),
  fault('empty-param-5xx', ['LIST-PARAMS-ALL-LISTS'], 'a list parameter given empty (limit=, q=, employee_id=) reaches the query unchecked and answers 500',
    () => ({
      handle: refuseList(
        (ex) => Object.entries(ex.query).some(([k, v]) => v === '' && k !== 'cursor'),
        () => new ApiError(500, 'internal_error', 'Internal error'),
      ),
    })),
  fault('malformed-json-5xx-on-patch', ['EP-INVALID-BODY-NO-EFFECT', 'ERR-ENVELOPES'],
    'a PATCH whose body is not valid JSON answers 500: the parse error of the update routes is not mapped to a client error', () => ({
      respond: (ex, answer) =>
        ex?.method === 'PATCH' && answer.error?.api.code === 'bad_request' && answer.error.api.detail?.body === 'is not valid JSON'
          ? answered(answer, new ApiError(500, 'internal_error', 'Internal error'))
          : answer,
    })),
  fault('text-cut-at-64k', ['EP-PATCH-PERSISTS'], 'text over 65,535 characters is stored cut to 65,535 (a TEXT column), the write answered as stored',
    (ctx) => ({
      handle: afterWrite(ctx, (ex) => PATCHES(ex.operationId), ({ entry }) => {
        const long = Object.keys(entry.row).filter((k) => typeof entry.row[k] === 'string' && String(entry.row[k]).length > 65_535);
        return long.length ? { row: { ...entry.row, ...Object.fromEntries(long.map((k) => [k, String(entry.row[k]).slice(0, 65_535)])) } } : undefined;
      }),
    })),
  fault('large-json-5xx', ['EP-INVALID-BODY-NO-EFFECT'], "a JSON body over the body limit answers 500: the framework's size error is not mapped to 413",
    () => ({
      respond: (ex, answer) => (ex && answer.error?.api.code === 'payload_too_large' && answer.error.api.detail?.body
        ? answered(answer, new ApiError(500, 'internal_error', 'Internal error'))
        : answer),
    })),
] as const;
