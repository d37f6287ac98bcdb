// Written faults of lists, pages and cursors (§4 list query parameters and rules 1–3).
import { ApiError, badRequest } from '../../reference/errors.js';
import { repeatBoundary } from '../families.js';
import { fault } from '../fault.js';
import { CURSOR_RULES, editCursor, isList, LIST_PARAMS, refuseList, reissued, requestedSort, sortFieldsOf } from '../lists.js';
import { editBody } from '../records.js';
import { letThrough } from '../refusals.js';

const always = () => true;
const every = (list: string) => (ex: { operationId: string; }) => ex.operationId === list;
const undecodable = (ctx: Parameters<typeof reissued>[0], cursor: string) => cursor !== '' && ctx.codec.decode(cursor) === undefined;
const withoutFilters = (fields: readonly string[]) => <P extends { source: { filters: readonly { field: string; }[]; }; }>(plan: P): P => ({
  ...plan,
  source: { ...plan.source, filters: plan.source.filters.filter((f) => !fields.includes(f.field)) },
});

export const paginationFaults = [
  fault('limit-zero-5xx', ['LIST-LIMIT'], 'limit=0 crashes the list with a 500', () => ({
    respond: (ex, answer) =>
      ex?.operationId === 'listProjects' && ex.query.limit === '0' && answer.status === 400
        ? { ...answer, status: 500, error: { api: new ApiError(500, 'internal_error', 'Internal error'), envelope: 'full' } }
        : answer,
  })),
  fault('cursor-undecodable-first-page', CURSOR_RULES['cursor-undecodable-first-page'].requirements,
    'an undecodable cursor answers the first page (pre-1.4.0 behaviour)',
    (ctx) => ({ handle: editCursor(ctx, always, CURSOR_RULES['cursor-undecodable-first-page'].edit) })),
  fault('cursor-tampered-5xx', ['LIST-CURSOR-UNDECODABLE'], 'a cursor that does not decode (tampered, truncated, re-encoded) crashes the list with a 500',
    (ctx) => ({
      handle: editCursor(ctx, always, (c, _ex, cursor) => {
        if (undecodable(c, cursor)) throw new ApiError(500, 'internal_error', 'Cursor decoding failed');
        return cursor;
      }),
    })),
  fault('cursor-across-sorts', ['LIST-CURSOR-OTHER-SORT', 'ERR-BAD-REQUEST-CURSOR'], 'a cursor issued for another sort field is accepted', (ctx) => ({
    handle: editCursor(ctx, always, (c, ex, cursor) => reissued(c, cursor, (p) => ({ ...p, s: requestedSort(c, ex) }))),
  })),
  fault('cursor-across-orders', CURSOR_RULES['cursor-across-orders'].requirements, 'a cursor issued for the other order is accepted', (ctx) => ({
    handle: editCursor(ctx, always, CURSOR_RULES['cursor-across-orders'].edit),
  })),
  fault('cursor-empty-rejected', CURSOR_RULES['cursor-empty-rejected'].requirements, 'cursor= (empty) answers 400 instead of the first page', (ctx) => ({
    handle: editCursor(ctx, always, CURSOR_RULES['cursor-empty-rejected'].edit),
  })),
  fault('bad-request-code-wrong', ['LIST-CURSOR-UNDECODABLE', 'ERR-BAD-REQUEST-CURSOR'], 'an undecodable cursor answers 400 with code invalid_cursor',
    (ctx) => ({
      handle: editCursor(ctx, always, (c, _ex, cursor) => {
        if (undecodable(c, cursor)) throw new ApiError(400, 'invalid_cursor', 'The cursor cannot be decoded');
        return cursor;
      }),
    })),
  fault('page-boundary-repeats', ['LIST-WALK-EVERY-RECORD-ONCE'], 'each next page starts with the last item of the previous page', (ctx) => ({
    page: repeatBoundary(ctx, always),
  })),
  fault('cursor-loop', ['LIST-WALK-EVERY-RECORD-ONCE', 'LIST-PAGE-WALK'],
    'a page after the first gives as its nextCursor the cursor it was asked with: a walk that follows it never ends', () => ({
      page: (ex, page, plan) => (plan.query.after && page.hasMore && typeof ex.query.cursor === 'string' ? { ...page, nextCursor: ex.query.cursor } : page),
    })),
  fault('page-boundary-skips', ['LIST-WALK-EVERY-RECORD-ONCE'], 'each next page skips the first item after the cursor', () => ({
    page: (_ex, page, plan) => (plan.query.after && page.items.length > 0 ? { ...page, items: page.items.slice(1) } : page),
  })),
  fault('ties-unstable', ['LIST-WALK-EVERY-RECORD-ONCE'], 'the cursor positions by sort value only, so records tied with the last item are skipped', (ctx) => ({
    // a cursor past every id of its sort value: the next page starts after all records tied with it
    handle: editCursor(ctx, always, (c, _ex, cursor) => reissued(c, cursor, (p) => ({ ...p, i: p.o === 'asc' ? '\uffff' : '' }))),
  })),
  fault('has-more-wrong', ['LIST-HASMORE-FALSE-LAST', 'LIST-WALK-EVERY-RECORD-ONCE'], 'hasMore is false (and nextCursor empty) on pages that are not the last',
    () => ({
      page: (_ex, page) => (page.hasMore ? { ...page, hasMore: false, nextCursor: '' } : page),
    })),
  fault('next-cursor-missing', ['LIST-HASMORE-FALSE-LAST', 'LIST-PAGE-WALK', 'RES-PAGE-ENVELOPE'], 'hasMore is true but nextCursor is empty', () => ({
    page: (_ex, page) => ({ ...page, nextCursor: '' }),
  })),
  fault('page-over-limit', ['LIST-LIMIT'], 'pages hold limit + 1 items', () => ({
    list: (_ex, plan) => ({ ...plan, query: { ...plan.query, limit: plan.query.limit + 1 } }),
  })),
  fault('order-ignored', ['LIST-ORDER'], 'order=desc is ignored (always ascending)', () => ({
    handle: (ex, next) => {
      if (isList(ex.operationId) && ex.query.order === 'desc') ex.query = { ...ex.query, order: 'asc' };
      return next();
    },
  })),
  fault('sort-ignored', ['LIST-SORT'], 'the sort parameter is ignored (always the default field)', (ctx) => ({
    handle: (ex, next) => {
      if (typeof ex.query.sort === 'string' && sortFieldsOf(ctx, ex.operationId).includes(ex.query.sort)) {
        ex.query = { ...ex.query };
        delete ex.query.sort;
      }
      return next();
    },
  })),
  fault('q-rejected', ['LIST-Q'], 'a list request with q answers 400', () => ({
    handle: refuseList((ex) => ex.query.q !== undefined, () => badRequest('Unsupported query parameter', { q: 'is not supported' })),
  })),
  fault('list-params-rejected', ['LIST-PARAMS-ALL-LISTS'], 'GET /attachments and GET /cvs reject limit/cursor/sort/order/q with 400', () => ({
    handle: (ex, next) => {
      const given = LIST_PARAMS.filter((p) => ex.query[p] !== undefined);
      if (['listAttachments', 'listCvs'].includes(ex.operationId) && given.length) {
        throw badRequest('Unsupported query parameters', Object.fromEntries(given.map((p) => [p, 'is not supported'])));
      }
      return next();
    },
  })),
  fault('lists-broken', [
    'EP-PROJECTS-LIST',
    'EP-ASSIGNMENTS-LIST',
    'EP-ORGANIZATIONS-LIST',
    'EP-CVS-LIST',
    'EP-ATTACHMENTS-LIST',
    'LIST-PAGE-WALK',
    'AUTH-BEARER-HEADER',
  ], 'every list endpoint answers 500', () => ({ handle: refuseList(always, () => new ApiError(500, 'internal_error', 'List unavailable')) })),
  fault('list-filter-ignored', ['LIST-FILTER-PROJECT-ID', 'LIST-FILTER-EMPLOYEE-ID'], 'project_id/employee_id filters are ignored', () => ({
    list: (ex, plan) => (['listAssignments', 'listCvs'].includes(ex.operationId) ? withoutFilters(['project_id', 'employee_id'])(plan) : plan),
  })),
  fault('assignments-filter-combined-ignores-project', ['LIST-FILTER-PROJECT-ID'],
    'GET /assignments with both project_id and employee_id applies only employee_id', () => ({
      list: (
        ex,
        plan,
      ) => (every('listAssignments')(ex) && plan.source.filters.some((f) => f.field === 'employee_id') ? withoutFilters(['project_id'])(plan) : plan),
    })),
  fault('attachments-filter-ignored', ['LIST-ATTACHMENTS-FOR-ENTITY'], 'GET /attachments ignores entity_id (all attachments of the entity type)', () => ({
    list: (ex, plan) => (every('listAttachments')(ex) ? withoutFilters(['entity_id'])(plan) : plan),
  })),
  fault('attachments-params-optional', ['EP-ATTACHMENTS-LIST-PARAMS-REQUIRED'], 'GET /attachments without entity_type/entity_id answers 200', () => ({
    validate: (ex, next) =>
      !every('listAttachments')(ex) ? next() : letThrough(next, (err) => {
        if (!Object.values(err.detail ?? {}).every((v) => v === 'required')) throw err;
      }),
  })),
  fault('page-envelope-wrong', ['RES-PAGE-ENVELOPE'], 'page.hasMore is served as a string', () => ({
    respond: editBody([], (
      body,
      ex,
    ) => (isList(ex.operationId) ? { ...body, page: { ...(body.page as object), hasMore: String((body.page as { hasMore: boolean; }).hasMore) } } : body)),
  })),
  // a serializer of the narrowed query (a filter or a search) that writes local time labelled as UTC
  fault('narrowed-list-stamps-local', ['LIST-WALK-EVERY-RECORD-ONCE', 'LIST-FILTER-EMPLOYEE-ID', 'LIST-Q'],
    'a list answered with a filter or q shows created_at two hours ahead (local time written as UTC); the plain list as stored', () => ({
      respond: editBody([], (body, ex) => {
        const narrowed = Object.entries(ex.query).some(([k, v]) => !LIST_PARAMS.includes(k as (typeof LIST_PARAMS)[number]) || (k === 'q' && v));
        if (!isList(ex.operationId) || !narrowed || !Array.isArray(body.data)) return body;
        const shift = (v: unknown) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(Date.parse(v) + 7_200_000).toISOString() : v);
        return { ...body, data: (body.data as Record<string, unknown>[]).map((r) => ({ ...r, created_at: shift(r.created_at) })) };
      }),
    })),
] as const;
