// The shared list pipeline of every list endpoint: parse the §4 list parameters,
// take the team's sorted index (narrowed to one reference when the query filters by one),
// filter, paginate, serialize the page envelope, and keep the page in the page cache for
// as long as nothing it shows or depends on changes.
import type { AppContext } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { listFaultEffects, refuseOtherTeamsFilter } from '../list-faults.js';
import { type CachedPage, versionsOf } from '../page-cache.js';
import { pageBytes, pageJson, paginate, parseListQuery, withEntries } from '../pagination.js';
import type { ReadInput, Result } from '../route.js';
import type { Collection, Entry, IndexFilter, ResourceName, TeamId } from '../store.js';

/** Documented sort fields per list; the first is the default (order default: asc, reading default-order). */
export const SORT_FIELDS = {
  projects: ['created_at', 'updated_at', 'title'],
  organizations: ['created_at', 'updated_at', 'name'],
  assignments: ['created_at', 'updated_at'],
  cvs: ['created_at', 'updated_at', 'name'],
  attachments: ['created_at', 'filename'],
} as const;

/**
 * The row fields each list's query filters compare (the query parameter has the field's name).
 * A cached page depends on them; those holding ids are indexed, so a filtered page costs in
 * proportion to the page, not to the team's whole collection.
 */
const FILTER_FIELDS: Partial<Record<ResourceName, readonly string[]>> = {
  assignments: ['project_id', 'employee_id'],
  cvs: ['employee_id'],
  attachments: ['entity_type', 'entity_id'],
};
const ID_FILTERS = new Set(['project_id', 'employee_id', 'entity_id']);

/** The CONFORMANCE_SORT_FIELDS value (the suite's settings name the four paginated lists it walks). */
export const sortFieldsSetting = (): string =>
  (['projects', 'assignments', 'organizations', 'cvs'] as const).map((r) => `${r}=${SORT_FIELDS[r].join(',')}`).join(';');

export interface ListSource {
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

export function listPage(ctx: AppContext, input: ReadInput, spec: ListSource): Result {
  const f = ctx.faults;
  if (f.on('lists-broken')) throw new ApiError(500, 'internal_error', 'List unavailable');
  const { team } = input.principal;
  refuseOtherTeamsFilter(ctx, team, input.query);
  const url = input.url;
  const hit = f.on('shape-mixed') ? undefined : ctx.pages.get(team, url);
  if (hit) return { status: 200, json: hit.body };
  // Under a fault, a page is kept only while no collection it reads changes at all.
  const collections = [spec.col, ...(spec.dependsOn ?? [])];
  const versions = f.active === undefined ? undefined : versionsOf(collections);
  const built = buildPage(ctx, input, spec);
  const current = versions === undefined ? stillCurrent(spec, team, built) : () => versionsOf(collections) === versions;
  ctx.pages.set(team, url, { body: built.body, current });
  return { status: 200, json: built.body };
}

interface BuiltPage {
  body: Buffer;
  items: Entry[];
  /** The fields the page's order, filter and search read. */
  fields: string[];
}

/**
 * Whether a page built without a fault is still the answer: no entry it shows was replaced
 * or removed, no entry was added or removed and no value of a field it is ordered, filtered or
 * searched by changed, and the collections its items embed are unchanged.
 */
function stillCurrent(spec: ListSource, team: TeamId, built: BuiltPage): CachedPage['current'] {
  const { col } = spec;
  const { items, fields } = built;
  const stamp = col.orderStamp(team, fields);
  const deps = (spec.dependsOn ?? []).map((d) => [d, d.version(team)] as const);
  // A filter on fields this module does not know of may read anything: any change then counts.
  const opaque = spec.filter !== undefined && FILTER_FIELDS[col.name] === undefined;
  const version = col.version(team);
  return () =>
    (opaque ? col.version(team) === version : col.orderStamp(team, fields) === stamp)
    && deps.every(([d, v]) => d.version(team) === v)
    && items.every((e) => e.superseded !== true);
}

/** The reference filter of the query an index can serve (ids are validated by the handler first). */
function indexFilterOf(col: Collection, query: Record<string, unknown>): IndexFilter | undefined {
  for (const field of FILTER_FIELDS[col.name] ?? []) {
    if (!ID_FILTERS.has(field)) continue;
    const value = idFilter(query, field);
    if (value !== undefined) return { field, value };
  }
  return undefined;
}

function buildPage(ctx: AppContext, input: ReadInput, spec: ListSource): BuiltPage {
  const f = ctx.faults;
  const query = input.query;
  if (f.on('list-params-rejected') && spec.secondary) {
    const given = LIST_PARAMS.filter((p) => query[p] !== undefined);
    if (given.length) throw badRequest('Unsupported query parameters', Object.fromEntries(given.map((p) => [p, 'is not supported'])));
  }
  if (f.on('q-rejected') && query.q !== undefined) throw badRequest('Unsupported query parameter', { q: 'is not supported' });
  let lq = parseListQuery(query, spec.sortFields, ctx.codec, f, ctx.readings, input.operationId);
  const lf = listFaultEffects(ctx, input.operationId, query);
  if (lf?.limitAfterFirst && lq.after) lq = { ...lq, limit: Number(ctx.readings.value('default-limit')) };
  const team = lf?.cursorTeam && lq.after?.t ? lq.after.t : input.principal.team;
  const allTeams = f.on('other-team-in-list') || (f.on('list-filter-leaks') && spec.filtered === true) || lf?.allTeams === true;
  // Faults change what a filter keeps (list-filter-ignored, ...): the index is used without one only.
  // Reading page-scan=window scans the team's whole list, as a server filtering what it reads would.
  const window = ctx.readings.value('page-scan') === 'window';
  const narrowed = f.active === undefined && spec.filter !== undefined && !window ? indexFilterOf(spec.col, query) : undefined;
  let sorted = ctx.sorted.get(spec.col, team, lq.sort, allTeams, narrowed);
  if (lf?.keepRemoved) sorted = withEntries(sorted, spec.col.removedOf(team), lq.sort);
  const q = lq.q;
  const filter = spec.filter;
  const keep = (e: Entry): boolean => (!filter || filter(e)) && (!q || searchText(e, spec.searchField).includes(q));
  const page = paginate(sorted, lq, keep, ctx.codec, f, {
    lookAhead: ctx.readings.value('empty-last-page') === 'never',
    window,
    repeatBoundary: lf?.boundaryRepeats === true,
  });
  if (lf?.cursorTeam && page.nextCursor) page.nextCursor = ctx.codec.encode({ ...ctx.codec.decode(page.nextCursor)!, t: team });
  const fields = [lq.sort, ...(filter ? (FILTER_FIELDS[spec.col.name] ?? []) : []), ...(q ? [spec.searchField] : [])];
  if (f.active === undefined) {
    return { body: pageBytes(page.items.map((e) => bytesOf(e, spec.view(e))), page, ctx.readings, input.arena), items: page.items, fields };
  }
  let json = pageJson(page.items.map(spec.view), page, ctx.readings);
  if (f.on('page-envelope-wrong')) json = json.replace(/"hasMore":(true|false)/, '"hasMore":"$1"');
  if (f.on('next-cursor-missing')) json = json.replace(/"nextCursor":"[^"]+"/, '"nextCursor":""');
  return { body: Buffer.from(json), items: page.items, fields };
}

/** Each entry's searched text, lower-cased once: a search reads every entry of the team's list. */
const searchTexts = new WeakMap<Entry, string>();

function searchText(e: Entry, field: string): string {
  let text = searchTexts.get(e);
  if (text === undefined) searchTexts.set(e, text = String(e.row[field] ?? '').toLowerCase());
  return text;
}

/** Each entry's JSON as UTF-8, kept while the view answers the same text, so pages copy bytes instead of encoding. */
const entryBytes = new WeakMap<Entry, { json: string; bytes: Buffer; }>();

function bytesOf(e: Entry, json: string): Buffer {
  const hit = entryBytes.get(e);
  if (hit && hit.json === json) return hit.bytes;
  const bytes = Buffer.from(json);
  entryBytes.set(e, { json, bytes });
  return bytes;
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
