// The list pipeline every list endpoint shares: parse the §4 list parameters, take the team's
// sorted index (narrowed to one reference when the query filters by one), keep what the filters
// and `q` keep, cut the page and serialize the envelope. The answer says what it was built from
// (Result.page), so whoever keeps answers knows when one is stale.
import { type Collection, COLLECTIONS, listedCollections, resource } from '../../specs/registry.js';
import type { AppContext } from './context.js';
import type { Exchange, PageBasis, Result } from './exchange.js';
import { type Filter, type ListPlan, type ListSource, type Page, pageBytes, paginate, parseListQuery } from './pagination.js';
import type { Entry, IndexFilter } from './store.js';

/** Sort fields per list (the registry's rows); the first is the default (order default: asc, reading default-order). */
export const SORT_FIELDS = Object.fromEntries(COLLECTIONS.map((c) => [c, resource(c).sort])) as Readonly<Record<Collection, readonly string[]>>;

/** The CONFORMANCE_SORT_FIELDS value (the suite's settings name the paginated lists it walks). */
export const sortFieldsSetting = (): string =>
  listedCollections().filter((r) => SORT_FIELDS[r].length).map((r) => `${r}=${SORT_FIELDS[r].join(',')}`).join(';');

/** The filters of the query among `fields`: a parameter absent or empty is no filter. */
export function filtersOf(query: Record<string, unknown>, fields: readonly string[]): Filter[] {
  return fields.flatMap((field) => {
    const v = query[field];
    return typeof v === 'string' && v !== '' ? [{ field, value: field.endsWith('_id') ? v.toLowerCase() : v }] : [];
  });
}

export function listPage(ctx: AppContext, ex: Exchange, source: ListSource): Result {
  const { hooks, readings } = ctx;
  let plan: ListPlan = { source, query: parseListQuery(ex.query, source.sortFields, ctx.codec, readings), team: ex.principal.team };
  if (hooks.list) plan = hooks.list(ex, plan);
  const { query: lq, team } = plan;
  const { col, filters, searchField } = plan.source;
  // Reading page-scan=window scans the team's whole list, as a server filtering what it reads would.
  const window = readings.value('page-scan') === 'window';
  const sorted = plan.entries ?? col.sorted(team, lq.sort, window ? undefined : indexFilterOf(filters)).entries;
  const q = lq.q;
  const keep = (e: Entry): boolean => filters.every((f) => e.row[f.field] === f.value) && (!q || searchText(e, searchField).includes(q));
  let page = paginate(sorted, lq, keep, ctx.codec, { lookAhead: readings.value('empty-last-page') === 'never', window });
  if (hooks.page) page = hooks.page(ex, page, plan);
  const view = plan.source.view;
  const body = pageBytes(page.items.map((e) => bytesOf(e, view(e))), page, readings, ex.buffers);
  return { status: 200, json: body, page: basisOf(plan, page) };
}

function basisOf(plan: ListPlan, page: Page): PageBasis {
  const { source, query, team } = plan;
  return {
    collections: [source.col, ...(source.dependsOn ?? [])],
    team,
    items: page.items,
    fields: [query.sort, ...source.filters.map((f) => f.field), ...(query.q ? [source.searchField] : [])],
    opaque: plan.entries !== undefined,
  };
}

/** The reference filter an index can serve: the first filter by an id. */
function indexFilterOf(filters: readonly Filter[]): IndexFilter | undefined {
  const f = filters.find((x) => x.field.endsWith('_id'));
  return f && { field: f.field, value: f.value };
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
