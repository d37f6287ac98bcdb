// Walking a list: follow page.nextCursor while page.hasMore, validating every page and the
// pagination rules on the way (§4 list rules, Page envelope).
import { type Collection, pageableCollections, resources } from '../../specs/registry.js';
import type { CheckContext } from './check.js';
import { ensure, expectStatus, fail, is2xx } from './judge/assert.js';
import { expectPage, type Page, type Resource } from './judge/problems.js';
import type { ApiResponse, Auth } from './transport/client.js';

export interface ListSpec {
  path: string;
  resource: Resource;
  query?: Record<string, string>;
}

/** The list of each collection that has one (the registry's list operations), by collection. */
export const lists = Object.fromEntries(
  resources().flatMap((r) => (r.operations.list ? [[r.collection, { path: r.operations.list.path, resource: r.kind as Resource }]] : [])),
) as Readonly<Record<Collection, ListSpec>>;

/** The lists a run walks whole: those with no filter they must be given, in the registry's order. */
export const PAGEABLE: readonly Collection[] = pageableCollections();

export interface WalkOptions {
  limit?: number;
  sort?: string;
  order?: 'asc' | 'desc';
  auth?: Auth;
  maxPages?: number;
  query?: Record<string, string>;
  /** A first page refused with 4xx is an empty list (a filter naming another team's record may be refused). */
  refusedIsEmpty?: boolean;
  /** Stop after the page holding an item this accepts (looking for one record costs only the pages up to it). */
  stopAt?: (item: Record<string, unknown>) => boolean;
}

export interface Walk {
  items: Record<string, unknown>[];
  pages: Page[];
  last: ApiResponse;
}

/** A walk cut at a page budget: `complete` says whether it reached the page with hasMore false. */
export interface BoundedWalk extends Walk {
  complete: boolean;
}

/**
 * The largest limit each list path served after refusing a larger one, and the status of the
 * refusal: learned once per worker and owned here (the fault sweep forgets it per fault).
 */
const servedLimit = new Map<string, { limit: number; status: number; }>();

/**
 * Pages of a sample of a list the run does not control: checks that look at records (their ids,
 * their schema) rather than at the walk read this prefix, so they cost the same on any deployment.
 */
export const SAMPLE_PAGES = 2;

/** Forgets the limits learned: the fault sweep runs one process against many targets. */
export function forgetServedLimits(): void {
  servedLimit.clear();
}

/**
 * Whether a status can be a refusal of the limit's value. §7 lists no status for a bad limit, so
 * 400, 422 or any other 4xx may say it; only those that say something else cannot: the key (401,
 * 403), the route (404), the clock (408) or the rate (429).
 */
function mayRefuseLimit(status: number): boolean {
  return status >= 400 && status < 500 && ![401, 403, 404, 408, 429].includes(status);
}

/**
 * GET of a list whose `limit` is only wanted, not the point of the check. §8 does not show the
 * page-size maximum, so a deployment may refuse a limit above it (400, 422, ...) instead of
 * clamping: then the largest served limit is found (binary search on the first page), recorded
 * as the reading list.maximum-limit, and the request is sent again with it. A refusal that
 * smaller limits do not cure is returned unchanged.
 */
export async function sendList(c: CheckContext, path: string, query: Record<string, string | number | undefined>, auth?: Auth): Promise<ApiResponse> {
  const send = (q: Record<string, string | number | undefined>) => c.api.send({ method: 'GET', path, auth, query: q });
  const wanted = query.limit;
  const cap = servedLimit.get(path);
  const capped = typeof wanted === 'number' && cap !== undefined && wanted > cap.limit;
  if (capped) c.reading('list.maximum-limit', `${cap.limit} (a larger limit is refused with ${cap.status})`);
  const res = await send(capped ? { ...query, limit: cap.limit } : query);
  if (!mayRefuseLimit(res.status) || typeof wanted !== 'number' || wanted <= 1 || cap !== undefined) return res;
  const served = async (limit: number) => is2xx(await send({ ...query, cursor: undefined, limit }));
  if (query.cursor && (await served(wanted))) return res; // refused for another reason than the limit
  let lo = 0, hi = wanted;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (await served(mid)) lo = mid;
    else hi = mid;
  }
  if (lo === 0) return res;
  servedLimit.set(path, { limit: lo, status: res.status });
  c.reading('list.maximum-limit', `${lo} (a larger limit is refused with ${res.status})`);
  return send({ ...query, limit: lo });
}

/**
 * One page. Every page of every walk holds at most `limit` items (§4 "limit | page size"): a
 * deployment may serve fewer (a smaller maximum), never more, on the first page or any later one.
 */
export async function fetchPage(c: CheckContext, list: ListSpec, o: WalkOptions, cursor?: string): Promise<{ res: ApiResponse; page: Page; }> {
  const res = await sendList(c, list.path, { ...list.query, ...o.query, limit: o.limit, sort: o.sort, order: o.order, cursor }, o.auth);
  return { res, page: checkPage(list, o, res, cursor !== undefined) };
}

function checkPage(list: ListSpec, o: WalkOptions, res: ApiResponse, later: boolean): Page {
  expectStatus(res, '2xx', `GET ${list.path}`);
  const page = expectPage(res, list.resource);
  if (o.limit !== undefined && page.data.length > o.limit) {
    // concerns LIST-LIMIT in a check that names it beside others; in any other check, all its ids
    fail(`a ${later ? 'later ' : ''}page of ${list.path} holds ${page.data.length} items, limit=${o.limit}`, res, { requirement: 'LIST-LIMIT' });
  }
  return page;
}

export async function walk(c: CheckContext, list: ListSpec, o: WalkOptions = {}): Promise<Walk> {
  const w = await walkWithin(c, list, { ...o, maxPages: o.maxPages ?? 500 });
  if (!w.complete) fail(`walk did not end within ${o.maxPages ?? 500} pages`, w.last);
  return w;
}

/**
 * Follows nextCursor while hasMore, for at most `maxPages` pages (default CONFORMANCE_WALK_PAGES: a
 * deployment may hold any number of records, and a walk of a list the run does not control must not
 * cost more because of that),
 * checking the pagination rules on the way. Running out of pages is not a failure: the result
 * says the walk is incomplete.
 */
export async function walkWithin(c: CheckContext, list: ListSpec, o: WalkOptions = {}): Promise<BoundedWalk> {
  const pages: Page[] = [];
  const items: Record<string, unknown>[] = [];
  // the page (its response) each cursor came from, and each record first came in: a repeat fails with both pages
  const seenCursors = new Map<string, ApiResponse>();
  const seenItems = new Map<string, { item: Record<string, unknown>; res: ApiResponse; }>();
  const budget = o.maxPages ?? c.settings.walkPages;
  let cursor: string | undefined;
  for (let n = 0;; n += 1) {
    const res = await sendList(c, list.path, { ...list.query, ...o.query, limit: o.limit, sort: o.sort, order: o.order, cursor }, o.auth);
    if (n === 0 && o.refusedIsEmpty && res.status >= 400 && res.status < 500) return { items, pages, last: res, complete: true };
    const page = checkPage(list, o, res, cursor !== undefined);
    expectNoRepeat(c, page, res, seenItems);
    pages.push(page);
    items.push(...page.data);
    if (o.stopAt && page.data.some(o.stopAt)) return { items, pages, last: res, complete: !page.page.hasMore };
    if (!page.page.hasMore) {
      // Allowed (§4 rule 3 only says to follow hasMore), but a client pays a request for nothing.
      if (page.data.length === 0 && pages.length > 1) {
        c.warn(`list.empty-last-page${list.path}`, 'hasMore was true on the page before an empty last page: a client pays a request for nothing');
      }
      return { items, pages, last: res, complete: true };
    }
    const next = page.page.nextCursor;
    ensure(typeof next === 'string' && next !== '', 'hasMore is true but nextCursor is missing or empty', res);
    // a walk that makes no progress is caught here, whether its pages hold items or not
    const earlier = seenCursors.get(next);
    if (earlier) {
      fail(`nextCursor repeats the one ${requestOf(earlier)} gave: the walk would never end`, res, { requirement: WALK_ONCE });
    }
    // Allowed (§4 rule 3 only says to follow hasMore: a server that filters a scanned window may
    // find nothing in it), but a client pays a request for nothing.
    if (page.data.length === 0) c.warn(`list.empty-page-has-more${list.path}`, 'a page with hasMore true holds no items: a client pays a request for nothing');
    seenCursors.set(next, res);
    cursor = next;
    if (n + 1 >= budget) return { items, pages, last: res, complete: false };
  }
}

/** Every record once in a walk (§4 rule 3): what a walk that returns a record again fails. */
const WALK_ONCE = 'LIST-WALK-EVERY-RECORD-ONCE';

const requestOf = (res: ApiResponse) => `${res.exchange.request.method} ${res.exchange.request.url}`;

/**
 * A page that returns a record an earlier page of the walk returned fails at once, naming both
 * pages. A record changed between the two pages (another value of the field the list is sorted by,
 * a write stamp) may have moved in the order while the walk went on: that is recorded, not failed.
 */
function expectNoRepeat(c: CheckContext, page: Page, res: ApiResponse, seen: Map<string, { item: Record<string, unknown>; res: ApiResponse; }>): void {
  for (const item of page.data) {
    const id = String(item.id);
    const before = seen.get(id);
    if (!before) {
      seen.set(id, { item, res });
      continue;
    }
    if (JSON.stringify(before.item) !== JSON.stringify(item)) {
      c.reading('list.record-moved-during-walk', `${id} changed between two pages of a walk and showed on both`);
      continue;
    }
    fail(`the walk returns record ${id} again: ${requestOf(before.res)} returned it already, unchanged`, res, { requirement: WALK_ONCE });
  }
}

/** Ids that appear more than once. */
export function duplicates(items: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const it of items) {
    const id = String(it.id);
    if (seen.has(id)) dup.add(id);
    seen.add(id);
  }
  return [...dup];
}
