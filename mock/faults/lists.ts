// What the list faults share: which view of a list a request asks for, entries drawn from every
// team or kept after deletion, and the cursor rules (§4 rules 1–2, changelog 1.4.0) a list can
// break.
import type { AppContext } from '../reference/context.js';
import { ApiError, badRequest } from '../reference/errors.js';
import type { Exchange } from '../reference/exchange.js';
import type { Hooks } from '../reference/hooks.js';
import { SORT_FIELDS } from '../reference/lists.js';
import { servedOperations } from '../reference/openapi.js';
import type { ListPlan } from '../reference/pagination.js';
import type { CursorPayload } from '../reference/pagination.js';
import { type Collection, compareKeys, type Entry, type TeamId } from '../reference/store.js';
import { collectionOf } from './records.js';

/** The list operations of the operation table. */
export const LIST_OPERATIONS = new Set(servedOperations().filter((e) => e.list).map((e) => e.operationId));
export const isList = (operationId: string | undefined): boolean => operationId !== undefined && LIST_OPERATIONS.has(operationId);

/** The query parameters of §4 that every list takes. */
export const LIST_PARAMS = ['limit', 'cursor', 'sort', 'order', 'q'];

/** The filters by a record's id a list query can give. */
const ID_FILTERS = ['project_id', 'employee_id', 'entity_id'];

/**
 * The views a list request asks for: the plain list, or the list filtered by each id it gives
 * (`listAssignments?project_id`); and, with a search, the search too (`listAssignments?q`).
 */
export function viewsOf(ex: Exchange): string[] {
  const filters = ID_FILTERS.filter((f) => typeof ex.query[f] === 'string' && ex.query[f] !== '');
  const base = filters.length ? filters.map((f) => `${ex.operationId}?${f}`) : [ex.operationId];
  return typeof ex.query.q === 'string' && ex.query.q !== '' ? [...base, `${ex.operationId}?q`] : base;
}

/** Every team's entries of a collection, ascending by (sort value, id). */
export function everyTeamSorted(col: Collection, sort: string): Entry[] {
  return col.entries().sort((x, y) => compareKeys(x.row[sort], x.row.id, y, sort));
}

/** A list hook drawing the plan's entries from every team, when `when` holds. */
export const fromEveryTeam = (when: (ex: Exchange, plan: ListPlan) => boolean): NonNullable<Hooks['list']> => (ex, plan) =>
  when(ex, plan) ? { ...plan, entries: everyTeamSorted(plan.source.col, plan.query.sort) } : plan;

/** Deleted entries kept per collection and team, for lists that keep showing them. */
export class Removed {
  private readonly kept = new Map<string, Entry[]>();

  add(col: Collection, e: Entry): void {
    const key = `${col.name}|${e.team}`;
    this.kept.set(key, [...(this.kept.get(key) ?? []), e]);
  }

  of(col: Collection, team: TeamId): readonly Entry[] {
    return this.kept.get(`${col.name}|${team}`) ?? [];
  }
}

/** The sort fields of a list operation, the default first. */
export function sortFieldsOf(ctx: AppContext, operationId: string): readonly string[] {
  const name = collectionOf(ctx, operationId)?.name;
  return name !== undefined && name in SORT_FIELDS ? SORT_FIELDS[name as keyof typeof SORT_FIELDS] : [];
}

/** The order and sort a list request asks for, defaults included (the cursor must have been issued for these). */
function requested(ctx: AppContext, ex: Exchange): { sort: string; order: string; } {
  const sorts = sortFieldsOf(ctx, ex.operationId);
  const sort = typeof ex.query.sort === 'string' && ex.query.sort !== '' ? ex.query.sort : sorts[0] ?? '';
  const order = typeof ex.query.order === 'string' && ex.query.order !== '' ? ex.query.order : ctx.readings.value('default-order');
  return { sort, order };
}

/** The cursor rules a list can break, each as what it does to a request's cursor before the list reads it. */
export const CURSOR_RULES = {
  'cursor-undecodable-first-page': {
    requirements: ['LIST-CURSOR-UNDECODABLE', 'ERR-BAD-REQUEST-CURSOR', 'CHANGELOG-1-4-0-CURSOR-400'],
    words: 'an undecodable cursor answers the first page',
    /** A cursor that does not decode is dropped. */
    edit: (ctx: AppContext, ex: Exchange, cursor: string) => (ctx.codec.decode(cursor) ? cursor : undefined),
  },
  'cursor-empty-rejected': {
    requirements: ['LIST-CURSOR-EMPTY-FIRST-PAGE', 'CHANGELOG-1-4-0-EMPTY-CURSOR-FIRST-PAGE'],
    words: 'cursor= (empty) answers 400 instead of the first page',
    edit: (_ctx: AppContext, _ex: Exchange, cursor: string) => {
      if (cursor === '') throw badRequest('Invalid cursor', { cursor: 'must not be empty' });
      return cursor;
    },
  },
  'cursor-across-orders': {
    requirements: ['LIST-CURSOR-OTHER-ORDER', 'ERR-BAD-REQUEST-CURSOR'],
    words: 'a cursor issued for the other order is accepted',
    /** A cursor of the other order is taken as one of the order asked for. */
    edit: (ctx: AppContext, ex: Exchange, cursor: string) => reissued(ctx, cursor, (p) => ({ ...p, o: requested(ctx, ex).order as CursorPayload['o'] })),
  },
} as const;
export type CursorRule = keyof typeof CURSOR_RULES;

/** The cursor re-encoded after `edit`, when it decodes. */
export function reissued(ctx: AppContext, cursor: string, edit: (p: CursorPayload) => CursorPayload): string {
  const p = ctx.codec.decode(cursor);
  return p ? ctx.codec.encode(edit(p)) : cursor;
}

/** A handle hook editing the cursor of the list requests `when` picks, before the list reads it (undefined drops it). */
export function editCursor(
  ctx: AppContext,
  when: (ex: Exchange) => boolean,
  edit: (ctx: AppContext, ex: Exchange, cursor: string) => string | undefined,
): NonNullable<Hooks['handle']> {
  return (ex, next) => {
    const cursor = ex.query.cursor;
    if (!isList(ex.operationId) || !when(ex) || typeof cursor !== 'string') return next();
    const edited = edit(ctx, ex, cursor);
    ex.query = { ...ex.query };
    if (edited === undefined) delete ex.query.cursor;
    else ex.query.cursor = edited;
    return next();
  };
}

/** The sort a request asks for, when it is one of the list's sort fields. */
export function requestedSort(ctx: AppContext, ex: Exchange): string {
  return requested(ctx, ex).sort;
}

/** A list request refused outright. */
export const refuseList = (when: (ex: Exchange) => boolean, refusal: () => ApiError): NonNullable<Hooks['handle']> => (ex, next) => {
  if (isList(ex.operationId) && when(ex)) throw refusal();
  return next();
};
