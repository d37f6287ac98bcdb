// The shared list pipeline of every list endpoint: parse the §4 list parameters,
// take the team's sorted view, filter, paginate, serialize the page envelope.
import type { AppContext } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { pageJson, paginate, parseListQuery } from '../pagination.js';
import { operationHeaders } from '../deprecation.js';
import { versionsOf } from '../page-cache.js';
import { JSON_TYPE, type Input, type Result, type RouteConfig } from '../route.js';
import type { Collection, Entry } from '../store.js';

/** Documented sort fields per list; the first is the default (order default: asc, reading default-order). */
export const SORT_FIELDS = {
  projects: ['created_at', 'updated_at', 'title'],
  organizations: ['created_at', 'updated_at', 'name'],
  assignments: ['created_at', 'updated_at'],
  cvs: ['created_at', 'updated_at', 'name'],
  attachments: ['created_at', 'filename'],
} as const;

/** The CONFORMANCE_SORT_FIELDS value (the suite's settings name the four paginated lists it walks). */
export const sortFieldsSetting = (): string =>
  (['projects', 'assignments', 'organizations', 'cvs'] as const).map((r) => `${r}=${SORT_FIELDS[r].join(',')}`).join(';');

export interface ListSpec {
  col: Collection;
  sortFields: readonly string[];
  /** The name-like field `q` searches (case-insensitive substring). */
  searchField: string;
  /** Extra filter; `filtered` says whether one was given (list-filter-leaks widens those). */
  filter?: (e: Entry) => boolean;
  filtered?: boolean;
  view: (e: Entry) => string;
  /** GET /attachments and GET /cvs: the list-params-rejected fault applies. */
  secondary?: boolean;
  /** Versions of other collections the items embed (assignments embed employees). */
  dependsOn?: Collection[];
}

const LIST_PARAMS = ['limit', 'cursor', 'sort', 'order', 'q'];

export function listPage(ctx: AppContext, input: Input, spec: ListSpec): Result {
  const f = ctx.faults;
  if (f.on('lists-broken')) throw new ApiError(500, 'internal_error', 'List unavailable');
  const { team } = input.principal;
  const url = input.req.url;
  const hit = f.on('shape-mixed') ? undefined : ctx.pages.get(team, url);
  if (hit) return { status: 200, json: hit.body };
  const collections = [spec.col, ...(spec.dependsOn ?? [])];
  const versions = versionsOf(collections);
  const result = buildPage(ctx, input, spec);
  const body = Buffer.from(result.json);
  const { operationId, scope } = input.req.routeOptions.config as Partial<RouteConfig>;
  if (!scope) return result;
  const headers = { 'content-type': JSON_TYPE, 'content-length': String(body.length), ...Object.fromEntries(operationHeaders(ctx, operationId)) };
  ctx.pages.set(team, url, { body, headers, scope, collections, versions });
  return result;
}

function buildPage(ctx: AppContext, input: Input, spec: ListSpec): { status: number; json: string } {
  const f = ctx.faults;
  const query = input.query;
  if (f.on('list-params-rejected') && spec.secondary) {
    const given = LIST_PARAMS.filter((p) => query[p] !== undefined);
    if (given.length) throw badRequest('Unsupported query parameters', Object.fromEntries(given.map((p) => [p, 'is not supported'])));
  }
  if (f.on('q-rejected') && query.q !== undefined) throw badRequest('Unsupported query parameter', { q: 'is not supported' });
  const lq = parseListQuery(query, spec.sortFields, ctx.codec, f, ctx.readings);
  const allTeams = f.on('other-team-in-list') || (f.on('list-filter-leaks') && spec.filtered === true);
  const sorted = ctx.sorted.get(spec.col, input.principal.team, lq.sort, allTeams);
  const q = lq.q;
  const filter = spec.filter;
  const keep = (e: Entry): boolean =>
    (!filter || filter(e)) && (!q || String(e.row[spec.searchField] ?? '').toLowerCase().includes(q));
  const page = paginate(sorted, lq, keep, ctx.codec, f);
  let json = pageJson(page.items.map(spec.view), page, ctx.readings);
  if (f.on('page-envelope-wrong')) json = json.replace(/"hasMore":(true|false)/, '"hasMore":"$1"');
  if (f.on('next-cursor-missing')) json = json.replace(/"nextCursor":"[^"]+"/, '"nextCursor":""');
  return { status: 200, json };
}

/** A query filter that must be a UUID when given (400 with detail otherwise). */
export function idFilter(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) {
    throw badRequest('Invalid query parameter', { [name]: 'must be a UUID' });
  }
  return v.toLowerCase();
}
