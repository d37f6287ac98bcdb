// §4 List query parameters and rules, on every list and filter: a walk visits every record exactly
// once, in order; every page (the first and every later one) holds at most `limit` items;
// hasMore/nextCursor agree and the last page says so; filters hold on every page, alone and
// combined. Exhaustive comparisons run where the list is complete within the page budget — the
// lists the run fills itself always are; on a larger deployment the others are checked on a prefix.
import fc from 'fast-check';
import type { Rec } from '../contract/json.js';
import { type ListResource, listResources } from '../contract/settings.js';
import { check, type CheckContext } from './harness/check.js';
import { CheckFailure, expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { expectErrorEnvelope, expectPage } from './harness/judge/problems.js';
import { distinctValues, inferSortField, isOrdered } from './harness/order.js';
import { exercised, skippedCell, titles } from './harness/plan/cells.js';
import { type Operation, operationNamed, recordKind, servedOperations, servedViews, type View } from './harness/plan/operations.js';
import { cellsOf, listViews, orderName, ORDERS, sortName, sortsOf } from './harness/plan/table.js';
import { type Population, population } from './harness/population.js';
import { drawn, property } from './harness/property.js';
import { searchFieldOf, searchProbe } from './harness/views.js';
import { type BoundedWalk, duplicates, fetchPage, lists, type ListSpec, sendList, walkWithin } from './harness/walk.js';

const pageable: readonly ListResource[] = listResources;

/** A list or filtered list, with the sort values a walk of it may use. */
interface Walkable {
  name: string;
  spec: ListSpec;
  sorts: (string | undefined)[];
}

function walkables(c: CheckContext, pop: Population): Walkable[] {
  const sortsOf = (list: ListResource): (string | undefined)[] => [undefined, ...(c.settings.sortFields[list] ?? [])];
  const own = pageable.map((l) => ({ name: l, spec: lists[l] as ListSpec, sorts: sortsOf(l) }));
  if (!pop.employees.length) return own;
  const [e0, e1] = pop.employees.map((e) => String(e.id));
  const assignments = (query: Record<string, string>, name: string) => ({ name, spec: { ...lists.assignments, query }, sorts: sortsOf('assignments') });
  return [
    ...own,
    assignments({ employee_id: e0! }, 'assignments?employee_id'),
    assignments({ project_id: String(pop.project.id) }, 'assignments?project_id'),
    assignments({ project_id: String(pop.project.id), employee_id: e1! }, 'assignments?project_id&employee_id'),
    {
      name: 'attachments?entity',
      spec: { path: '/attachments', resource: 'attachment', query: { entity_type: 'employee', entity_id: e0! } },
      sorts: [undefined],
    },
  ];
}

/** About 12 pages at most per walk, whatever the size of the list. */
const MAX_PAGES = 12;

/**
 * The reference: the list at limit 100, as far as a walk at `limit` over MAX_PAGES pages can reach
 * (on a small list, the whole list; on a large one, a prefix that costs the same at any size).
 */
const reference = (c: CheckContext, w: Walkable, sort?: string, order?: 'asc' | 'desc', limit = 7) =>
  walkWithin(c, w.spec, { limit: 100, sort, order, maxPages: Math.ceil((MAX_PAGES * limit) / 100) + 1 });
const cappedLimit = (limit: number, ref: BoundedWalk) => (ref.complete ? Math.max(limit, Math.ceil(ref.items.length / MAX_PAGES)) : limit);

interface WalkParams {
  list: number;
  limit: number;
  order: 'asc' | 'desc' | undefined;
  sortIndex: number;
}
const walkArb: fc.Arbitrary<WalkParams> = fc.record({
  list: fc.nat(),
  limit: fc.integer({ min: 1, max: 7 }),
  order: fc.constantFrom<'asc' | 'desc' | undefined>(undefined, 'asc', 'desc'),
  sortIndex: fc.nat(),
});

/**
 * The walks every run makes whatever its seed: each list and filter with each of its sorts, the
 * limit and order drawn from the seed (which list a bug is in must not depend on the seed).
 */
function everyWalk(c: CheckContext, pop: Population, fixedSort?: number): WalkParams[] {
  const cases = walkables(c, pop).flatMap((w, list) => w.sorts.map((_, sortIndex) => ({ list, sortIndex: fixedSort ?? sortIndex })));
  const unique = [...new Map(cases.map((x) => [`${x.list}/${x.sortIndex}`, x])).values()];
  const values = drawn(fc.record({ limit: walkArb.map((p) => p.limit), order: walkArb.map((p) => p.order) }), unique.length);
  return unique.map((x, i) => ({ ...x, ...values[i]! }));
}

/** A random walk: the walkable, sort and the limit actually sent (named in every message). */
async function randomWalk(c: CheckContext, pop: Population, p: WalkParams) {
  const all = walkables(c, pop);
  const w = all[p.list % all.length]!;
  const sort = w.sorts[p.sortIndex % w.sorts.length];
  const ref = await reference(c, w, sort, p.order, p.limit);
  const limit = cappedLimit(p.limit, ref);
  const walked = await walkWithin(c, w.spec, { limit, sort, order: p.order, maxPages: MAX_PAGES });
  const describe = `walk of ${w.name} (limit ${limit}, sort ${sort ?? 'default'}, order ${p.order ?? 'default'})`;
  return { w, sort, ref, limit, walked, describe };
}

check([
  'LIST-WALK-EVERY-RECORD-ONCE',
], 'property: walks of every list and filter, with random limit, sort and order, visit every record exactly once', async (c) => {
  const pop = await population(c);
  await property(walkArb, async (p) => {
    const { ref, walked, describe } = await randomWalk(c, pop, p);
    const dup = duplicates(walked.items);
    if (dup.length) fail(`${describe} visits ${dup.join(', ')} twice`, walked.last);
    if (!ref.complete || !walked.complete) return; // a prefix of a large list: no claim about the rest
    const seen = new Set(walked.items.map((i) => i.id));
    const missing = ref.items.filter((i) => !seen.has(i.id)).map((i) => i.id);
    if (missing.length) fail(`${describe} skips ${missing.length} record(s), e.g. ${String(missing[0])}`, walked.last);
  }, { examples: everyWalk(c, pop) });
}, { timeout: 120_000 });

check([
  'LIST-HASMORE-FALSE-LAST',
  'LIST-PAGE-WALK',
], 'property: hasMore and nextCursor agree on every page, and the page with hasMore false is the last', async (c) => {
  const pop = await population(c);
  await property(walkArb, async (p) => {
    // every page before the last said hasMore true with a nextCursor, or walkWithin would have ended or failed there
    const { ref, walked, describe } = await randomWalk(c, pop, { ...p, sortIndex: 0 });
    if (!walked.complete) return;
    const last = walked.pages.at(-1)!;
    c.reading('list.last-page-next-cursor', last.page.nextCursor === undefined ? 'absent' : last.page.nextCursor === '' ? 'empty' : 'non-empty');
    if (!ref.complete) return;
    const seen = new Set(walked.items.map((i) => i.id));
    const unseen = ref.items.filter((i) => !seen.has(i.id));
    if (unseen.length) fail(`${describe} ended (hasMore false) before ${unseen.length} record(s) of the list`, walked.last);
  }, { examples: everyWalk(c, pop, 0) });
}, { timeout: 120_000 });

check([
  'LIST-SORT',
  'LIST-ORDER',
], 'property: walks of every list and filter are ordered by the sort field in the requested order (ties in any order)', async (c) => {
  const pop = await population(c);
  await property(walkArb, async (p) => {
    const { sort, ref, walked, describe } = await randomWalk(c, pop, p);
    const field = sort ?? inferSortField(ref.items);
    if (!field || distinctValues(walked.items, field) < 2) return;
    if (!isOrdered(walked.items, field, p.order ?? 'asc') && (p.order !== undefined || !isOrdered(walked.items, field, 'desc'))) {
      fail(`${describe} is not ordered by ${field}`, walked.last);
    }
  }, { examples: everyWalk(c, pop) });
}, { timeout: 120_000 });

/** Runs `fn` with every failure that names no requirement made to concern `requirement` alone. */
async function concerning<T>(requirement: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CheckFailure && !e.requirements) throw new CheckFailure(e.message, e.exchange, { requirement });
    throw e;
  }
}

/** The default page size, and a limit above any maximum: clamped, or refused. */
async function defaultAndMaximum(c: CheckContext): Promise<void> {
  const { page: first } = await fetchPage(c, lists.projects, {});
  c.reading('list.default-page-size', first.page.hasMore ? String(first.data.length) : `>= ${first.data.length}`);
  const big = await c.api.send({ method: 'GET', path: '/projects', query: { limit: 100000 } });
  // §7 lists no status for a bad limit: any 4xx refuses it, as long as it says so in an error envelope
  if (big.status >= 400 && big.status < 500) {
    expectErrorEnvelope(big, `the ${big.status} body of GET /projects?limit=100000`, true);
    c.reading('list.limit-above-maximum', `refused with ${big.status}`);
  } else {
    expectStatus(big, '2xx', 'GET /projects?limit=100000');
    const page = expectPage(big, 'project');
    c.reading('list.limit-above-maximum', `clamped (page of ${page.data.length})`);
  }
}

check([
  'LIST-LIMIT',
  'LIST-WALK-EVERY-RECORD-ONCE',
],
  'every page of every list and filter, the first and each later one, holds at most limit items, none shown on an earlier page; a limit above the maximum is clamped or refused',
  async (c) => {
    const pop = await population(c);
    for (const w of walkables(c, pop)) {
      for (const limit of [1, 2]) {
        // walkWithin fails on any page over the limit (concerning LIST-LIMIT); five pages show a later page keeps it too.
        // Its other failures (a repeated cursor, a later page refused) are a walk that cannot visit every record.
        // An empty page before the last is allowed (§4 rule 3 only says to follow hasMore): the walk warns.
        const walked = await concerning('LIST-WALK-EVERY-RECORD-ONCE', () => walkWithin(c, w.spec, { limit, maxPages: 5 }));
        // Small pages cross many boundaries: a record shown again on a later page is found on every
        // list and filter here, not only on those the random walks happen to draw.
        const dup = duplicates(walked.items);
        if (dup.length) fail(`${w.name} at limit=${limit} shows ${dup.join(', ')} on two pages`, walked.last, { requirement: 'LIST-WALK-EVERY-RECORD-ONCE' });
      }
    }
    await concerning('LIST-LIMIT', () => defaultAndMaximum(c));
  });

check([
  'LIST-LIMIT',
], 'GET /projects?limit=0 is refused, or answers a page (whose envelope the audit holds: hasMore only with a nextCursor)', async (c) => {
  // §4 gives limit as "page size" and no least value: a server may refuse 0 (a reading) or serve a
  // page, but a page saying hasMore must give the cursor rule 3 follows (RES-PAGE-ENVELOPE's audit).
  const res = await c.api.send({ method: 'GET', path: '/projects', query: { limit: 0 } });
  if (res.status >= 400 && res.status < 500) {
    c.reading('limit.zero', `refused with ${res.status}`);
    return;
  }
  expectStatus(res, '2xx', 'GET /projects?limit=0');
  const page = expectPage(res, 'project', 'the page of GET /projects?limit=0');
  c.reading('limit.zero', `served ${page.data.length} records`);
});

// --- search × sort × order -------------------------------------------------------------------

/**
 * Search text that finds several records of a list: the word most of its first records share in
 * the field `q` is probed with (a run's records share its run id; a deployment's CVs a word of their
 * names). Undefined when no word is shared by two records (§4 q is "search text" of unknown reach).
 */
function sharedWord(items: readonly Rec[], field: string | undefined): string | undefined {
  if (!field) return undefined;
  const counts = new Map<string, number>();
  for (const i of items) {
    const words = new Set(String(i[field] ?? '').split(/\s+/).filter((w) => w.length >= 2 && /^[\x21-\x7e]+$/.test(w)));
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  // a word some records hold and others do not first: a search that forgets q on a later page, or
  // ignores it, then shows records the search leaves out
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const best = ranked.find(([, n]) => n < items.length) ?? ranked[0];
  return best && best[1] >= 2 ? best[0] : undefined;
}

check([
  'LIST-SORT',
  'LIST-ORDER',
  'LIST-Q',
  'LIST-WALK-EVERY-RECORD-ONCE',
], 'a search (q) of every list holds across its pages, and is ordered by each sort field in each order, as the list is', async (c) => {
  // §4 "List query parameters (all list endpoints)": sort and order are parameters of every list
  // request, q among them; nothing says a search answers in another order than the one asked for
  await population(c);
  const ops = servedOperations(c.settings);
  for (const op of ops.filter((o) => o.kind === 'list')) {
    const view = servedViews(c.settings, op.resource).find((v) => v.kind === 'q' && v.op === op.op);
    const sorts = sortsOf(c.settings, op).filter((s): s is string => s !== undefined);
    if (!view) continue;
    const spec: ListSpec = { path: op.path, resource: recordKind(op)! };
    const first = await walkWithin(c, spec, { limit: 100, maxPages: 1, refusedIsEmpty: true });
    const q = sharedWord(first.items, searchFieldOf(op.record));
    if (!q) {
      c.reading(`list.${op.resource}.q-sorted`, 'no word shared by two records to search for');
      continue;
    }
    // Whatever q reaches, one search is one list: walked in small pages it holds the records of one
    // large page, in that order (a later page that forgets the search shows others).
    const whole = await walkWithin(c, spec, { limit: 100, query: { q }, maxPages: 3 });
    if (whole.complete && whole.items.length >= 2) {
      const limit = Math.max(1, Math.ceil(whole.items.length / 4));
      const paged = await walkWithin(c, spec, { limit, query: { q }, maxPages: 6 });
      const [a, b] = [whole.items.map((i) => String(i.id)), paged.items.map((i) => String(i.id))];
      const stray = b.find((id) => !a.includes(id));
      if (stray !== undefined) {
        fail(`GET ${op.path}?q=${q} in pages of ${limit} shows ${stray}, which the same search in one page does not`, paged.last, { requirement: 'LIST-Q' });
      }
      // the same records, each once (the order of records tied on the default sort is not shown)
      if (paged.complete && (b.length !== a.length || a.some((id) => !b.includes(id)))) {
        fail(`GET ${op.path}?q=${q} in pages of ${limit} shows ${b.length} records, in one page ${a.length}`, paged.last, {
          requirement: 'LIST-WALK-EVERY-RECORD-ONCE',
        });
      }
    }
    for (const sort of sorts) {
      for (const order of ['asc', 'desc'] as const) {
        const found = await walkWithin(c, spec, { limit: 100, sort, order, query: { q }, maxPages: 2 });
        const describe = `GET ${op.path}?q=${q} (sort ${sort}, order ${order}, ${found.items.length} records)`;
        if (distinctValues(found.items, sort) < 2) continue;
        if (isOrdered(found.items, sort, order)) continue;
        // ordered by the field the other way: the order was not followed; else the sort field was not
        const other = isOrdered(found.items, sort, order === 'asc' ? 'desc' : 'asc');
        fail(`${describe} is not ordered by ${sort} ${order}`, found.last, { requirement: other ? 'LIST-ORDER' : 'LIST-SORT' });
      }
    }
  }
}, { timeout: 120_000 });

/** Whether some string the record shows (its nested ones too) holds `text`, in any letter case. */
const holds = (v: unknown, text: string): boolean =>
  typeof v === 'string'
    ? v.toLowerCase().includes(text.toLowerCase())
    : Array.isArray(v)
    ? v.some((x) => holds(x, text))
    : v !== null && typeof v === 'object'
    ? Object.values(v).some((x) => holds(x, text))
    : false;

check([
  'LIST-Q',
], 'a search (q) of every list for text no record holds (a random word, a lone % or _) does not answer the list as unsearched', async (c) => {
  // What q reaches is not shown (§4 "q | string | search text"), and a ranking search may answer
  // near matches: only the very page the list answers without q, in its order, with records that
  // hold the text nowhere, is a search not made (q ignored, or read as a LIKE pattern)
  const pop = await population(c);
  const ops = servedOperations(c.settings);
  // q is a parameter of every list (§4 "List query parameters (all list endpoints)")
  for (const op of ops.filter((o) => o.kind === 'list')) {
    const required = op.filters.filter((f) => f.required);
    const holder = required.length ? listViews(ops).find((v) => v.op === op.op && v.filters?.length === required.length) : undefined;
    const query = required.length ? holder && (await filterValues(c, pop, holder)) : {};
    if (!query) continue;
    const spec: ListSpec = { path: op.path, resource: recordKind(op)!, query };
    const plain = await walkWithin(c, spec, { limit: 10, maxPages: 1 });
    const ids = plain.items.map((i) => String(i.id)).join();
    const word = `zq${Math.random().toString(36).slice(2, 10)}x`;
    for (const text of [word, '%', '_']) {
      const res = await sendList(c, op.path, { ...query, limit: 10, q: text });
      // a word of letters is search text of any reading; a lone wildcard may be refused
      if (text === word ? !is2xx(res) : res.status >= 500) fail(`GET ${op.path}?q=${text} answered ${res.status}`, res, { requirement: 'LIST-Q' });
      const data = ((res.body as { data?: Rec[]; })?.data ?? []) as Rec[];
      if (!data.length || data.map((i) => String(i.id)).join() !== ids) continue;
      const stranger = data.find((i) => !holds(i, text));
      if (stranger) {
        fail(
          `GET ${op.path}?q=${text} answers the very page the list answers without q, ${String(stranger.id)} among them, which holds ${
            JSON.stringify(text)
          } nowhere: `
            + 'the search is not made (q ignored, or read as a pattern)',
          res,
          { requirement: 'LIST-Q' },
        );
      }
    }
    // a search beside a filter (§4 lists q and the filters as parameters of one request): every
    // record found is one the filter names, searched with a word of a record the filter leaves out
    const field = searchFieldOf(op.record);
    if (!field) continue;
    for (const view of listViews(ops).filter((v) => v.op === op.op && v.kind === 'filter' && (v.filters?.length ?? 0) > required.length)) {
      const values = await filterValues(c, pop, view);
      if (!values) continue;
      const outside = plain.items.find((i) => Object.entries(values).some(([k, v]) => String(i[k]) !== v));
      const word = String(outside?.[field] ?? '').split(/\s+/).find((w) => w.length >= 2 && /^[\x21-\x7e]+$/.test(w));
      if (!word) continue;
      const found = await walkWithin(c, { ...spec, query: { ...values, q: word } }, { limit: 100, maxPages: 2 });
      const stray = found.items.find((i) => Object.entries(values).some(([k, v]) => k in i && String(i[k]).toLowerCase() !== v.toLowerCase()));
      if (stray) {
        fail(`GET ${op.path}?q=${word} with ${JSON.stringify(values)} shows ${String(stray.id)}, which the filter leaves out: the search drops the filter`,
          found.last, {
          requirement: 'LIST-Q',
        });
      }
    }
  }
}, { mutates: true });

// --- the table: every list and filter × sort × order (harness/table.ts walks) ---------------------

/**
 * The filter values a list view is walked with: those of a record the run made (an assignment of
 * the population; one of its attachments), or of the first record the unfiltered list shows (a CV).
 */
async function filterValues(c: CheckContext, pop: Population, view: View): Promise<Record<string, string> | undefined> {
  const names = view.filters ?? [];
  if (!names.length) return {};
  const made: Record<string, Rec[]> = { assignments: [...pop.assignments, ...pop.elsewhere], attachments: pop.attachments };
  const op = operationNamed(c.settings, view.op)!;
  const own = made[op.resource]?.length
    ? undefined
    : (await fetchPage(c, { path: op.path, resource: recordKind(op)! }, { limit: 50 }).catch(() => undefined))?.page.data ?? [];
  const from = own ?? made[op.resource]!;
  // of the deployment's own records, the values most of a page share: a walk of more than one page
  const key = (r: Rec) => names.map((f) => String(r[f])).join();
  const shared = own && [...own].sort((a, b) => own.filter((r) => key(r) === key(b)).length - own.filter((r) => key(r) === key(a)).length)[0];
  // the combined filter by the second employee: the first project holds both employees' records, the second too
  const record = shared ?? (names.length > 1 ? from.find((r) => r.employee_id === pop.employees[1]?.id) ?? from[0] : from[0]);
  if (!record || names.some((f) => typeof record[f] !== 'string')) return undefined;
  return Object.fromEntries(names.map((f) => [f, String(record[f])]));
}

/** About this many pages per walk of the table, whatever the size of the list. */
const TABLE_PAGES = 4;

/** The requirement a filter that does not hold breaks: the filter's own, where the catalog has one. */
const filterRequirement = (names: readonly string[]) =>
  names.length === 1 && ['project_id', 'employee_id'].includes(names[0]!)
    ? `LIST-FILTER-${names[0]!.replace(/_id$/, '').toUpperCase()}-ID`
    : 'LIST-WALK-EVERY-RECORD-ONCE';

check([
  'LIST-SORT',
  'LIST-ORDER',
  'LIST-WALK-EVERY-RECORD-ONCE',
  'LIST-FILTER-PROJECT-ID',
  'LIST-FILTER-EMPLOYEE-ID',
], titles.walks, async (c) => {
  const pop = await population(c);
  const ops = servedOperations(c.settings);
  for (const view of listViews(ops)) {
    const op = ops.find((o) => o.op === view.op)!;
    const query = await filterValues(c, pop, view);
    const cellsOfView = sortsOf(c.settings, op).flatMap((sort) =>
      ORDERS.map((order) => ({ dimension: 'walks' as const, subject: view.name, aspect: `sort=${sortName(sort)} order=${orderName(order)}` }))
    );
    if (!query) {
      for (const cell of cellsOfView) skippedCell(cell, `no record to filter ${view.name} by`);
      continue;
    }
    const spec: ListSpec = { path: op.path, resource: recordKind(op)!, query };
    // each sort's walks are independent: sent together (the client bounds how many are in flight)
    await Promise.all(sortsOf(c.settings, op).map(async (sort) => {
      // the records of the list: as far as a walk at 100 reaches within the budget (the whole of a list the run made)
      const ref = await walkWithin(c, spec, { limit: 100, sort, maxPages: 3 });
      const limit = ref.complete ? Math.max(2, Math.ceil(ref.items.length / TABLE_PAGES)) : 10;
      const field = sort ?? inferSortField(ref.items);
      const walks = await Promise.all(ORDERS.map((order) => walkWithin(c, spec, { limit, sort, order, maxPages: TABLE_PAGES + 1 })));
      ORDERS.forEach((order, i) => {
        const walked = walks[i]!;
        const describe = `${view.name} (filter ${JSON.stringify(query)}, sort ${sortName(sort)}, order ${orderName(order)}, limit ${limit})`;
        exercised({ dimension: 'walks', subject: view.name, aspect: `sort=${sortName(sort)} order=${orderName(order)}` });
        const dup = duplicates(walked.items);
        if (dup.length) fail(`${describe} shows ${dup.join(', ')} twice`, walked.last, { requirement: 'LIST-WALK-EVERY-RECORD-ONCE' });
        const stranger = walked.items.find((i) => Object.entries(query).some(([k, v]) => k in i && String(i[k]).toLowerCase() !== v.toLowerCase()));
        if (stranger) {
          fail(`${describe} shows ${String(stranger.id)}, which the filter leaves out`, walked.last, { requirement: filterRequirement(Object.keys(query)) });
        }
        if (field && distinctValues(walked.items, field) >= 2) {
          const ordered = order ? isOrdered(walked.items, field, order) : isOrdered(walked.items, field, 'asc') || isOrdered(walked.items, field, 'desc');
          if (!ordered) fail(`${describe} is not ordered by ${field}`, walked.last, { requirement: order ? 'LIST-ORDER' : 'LIST-SORT' });
        }
        if (!ref.complete || !walked.complete) return; // prefixes of a large list hold different records
        const seen = new Set(walked.items.map((i) => i.id));
        const missing = ref.items.filter((i) => !seen.has(i.id));
        if (missing.length) {
          fail(`${describe} skips ${missing.length} record(s), e.g. ${String(missing[0]!.id)}`, walked.last, { requirement: 'LIST-WALK-EVERY-RECORD-ONCE' });
        }
      });
      if (!sort && !view.filters?.length) c.reading(`list.${op.resource}.default-sort`, field ? `ordered by ${field}` : 'not inferred');
    }));
  }
}, { timeout: 120_000, cells: cellsOf(titles.walks) });

/** The largest group of the first page's records sharing a value of `sort` and the values of a filter of the list (two or more), if any. */
async function ownTie(c: CheckContext, op: Operation, sort: string): Promise<Rec[] | undefined> {
  const filter = servedViews(c.settings, op.resource).find((v) => v.kind === 'filter' && v.op === op.op && (v.filters?.length ?? 0) > 0);
  if (!filter) return undefined;
  const { page } = await fetchPage(c, { path: op.path, resource: recordKind(op)! }, { limit: 50 }).catch(() => ({ page: { data: [] as Rec[] } }));
  const groups = new Map<string, Rec[]>();
  for (const r of page.data) {
    if (filter.filters!.some((f) => typeof r[f] !== 'string') || r[sort] === undefined) continue;
    const key = JSON.stringify([...filter.filters!.map((f) => r[f]), r[sort]]);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].filter((g) => g.length >= 2).sort((a, b) => b.length - a.length)[0];
}

check([
  'LIST-WALK-EVERY-RECORD-ONCE',
  'LIST-ORDER',
], titles.ties, async (c) => {
  const pop = await population(c);
  const ops = servedOperations(c.settings);
  for (const view of listViews(ops).filter((v) => v.kind === 'list')) {
    const op = ops.find((o) => o.op === view.op)!;
    for (const sort of sortsOf(c.settings, op)) {
      const made = pop.ties[`${op.resource} ${sort}`];
      // where the run cannot give records one value (a server stamp, a list of the deployment's
      // own records), records the deployment already holds that share it and a filter value
      const tied = made?.length ? made : sort ? await ownTie(c, op, sort) : undefined;
      const cell = { dimension: 'walks' as const, subject: view.name, aspect: `ties on ${sortName(sort)}` };
      const count = (what: () => void) => {
        if (made?.length) what();
      };
      if (!tied?.length || !sort) continue;
      // narrowed to the tied records: by a filter they share (their references), else by q when the deployment's search finds them
      const filter = servedViews(c.settings, op.resource).find((v) => v.kind === 'filter' && (v.filters ?? []).every((f) => typeof tied[0]![f] === 'string'));
      const probe = filter ? undefined : searchProbe(tied[0]![sort]);
      const ids = new Set(tied.map((r) => r.id));
      const query = filter ? Object.fromEntries(filter.filters!.map((f) => [f, String(tied[0]![f])])) : probe ? { q: probe } : {};
      const narrowed: ListSpec = { path: op.path, resource: recordKind(op)!, query };
      const found = await walkWithin(c, narrowed, { limit: 100, sort, maxPages: 2 });
      if (![...ids].every((id) => found.items.some((i) => i.id === id))) {
        count(() => skippedCell(cell, `${JSON.stringify(query)} does not find the ${tied.length} records sharing ${sort} (what q searches is not shown)`));
        continue;
      }
      // the cell is the run's own tie (harness/plan/table.ts tieReason); one the deployment holds is checked beside it
      count(() => exercised(cell));
      for (const order of ORDERS) {
        // limit 1: every page boundary falls inside the tie
        const walked = await walkWithin(c, narrowed, { limit: 1, sort, order, maxPages: found.items.length + 2 });
        const describe = `${view.name} ${JSON.stringify(query)} (${tied.length} records sharing ${sort}, order ${orderName(order)}, limit 1)`;
        const dup = duplicates(walked.items);
        if (dup.length) fail(`${describe} shows ${dup.join(', ')} twice`, walked.last);
        // a deployment whose pages scan a window of its list (empty pages with hasMore) needs more pages than a
        // walk of a few records may cost: a walk that did not end proves no record skipped
        if (!walked.complete) {
          count(() => skippedCell(cell, `${describe} did not end within ${found.items.length + 2} pages (pages of a scanned window)`));
          continue;
        }
        const missing = [...ids].filter((id) => !walked.items.some((i) => i.id === id));
        if (missing.length) fail(`${describe} skips ${missing.length} of them, e.g. ${String(missing[0])}`, walked.last);
      }
    }
  }
}, { mutates: true, cells: cellsOf(titles.ties) });

check([
  'LIST-Q',
  'LIST-PARAMS-ALL-LISTS',
], 'every list accepts limit, cursor (empty), sort, order and q', async (c) => {
  const pop = await population(c);
  const entity = String(pop.employees[0]?.id ?? (await fetchPage(c, lists.projects, { limit: 1 })).page.data[0]?.id ?? '00000000-0000-0000-0000-000000000000');
  const attachments: ListSpec = {
    path: '/attachments',
    resource: 'attachment',
    query: { entity_type: pop.employees[0] ? 'employee' : 'project', entity_id: entity },
  };
  const all: [string, ListSpec, string[]][] = [...pageable.map((l) => [l, lists[l], c.settings.sortFields[l] ?? []] as [string, ListSpec, string[]]), [
    'attachments',
    attachments,
    [],
  ]];
  for (const [name, spec, sorts] of all) {
    for (const order of ['asc', 'desc'] as const) {
      const res = await c.api.send({
        method: 'GET',
        path: spec.path,
        query: { ...spec.query, limit: 2, cursor: '', order, q: 'conformance', ...(sorts[0] ? { sort: sorts[0] } : {}) },
      });
      expectStatus(res, '2xx', `GET ${spec.path} with limit, cursor=, ${sorts[0] ? 'sort, ' : ''}order=${order} and q (${name})`);
      expectPage(res, spec.resource);
    }
  }
});

/** Every item of every page matches the filter, and the records the run made for it are all there. */
async function expectFiltered(c: CheckContext, spec: ListSpec, matches: (a: Rec) => boolean, expected: readonly Rec[], what: string): Promise<void> {
  const walked = await walkWithin(c, spec, { limit: 1, maxPages: 50 });
  const stranger = walked.items.find((a) => !matches(a));
  if (stranger) fail(`${what} returned ${String(stranger.id)}, which does not match`, walked.last);
  if (!walked.complete) return;
  const seen = new Set(walked.items.map((a) => a.id));
  const missing = expected.filter((a) => !seen.has(a.id));
  if (missing.length) fail(`${what} misses ${missing.length} matching record(s), e.g. ${String(missing[0]!.id)}`, walked.last);
}

check([
  'LIST-FILTER-PROJECT-ID',
], 'project_id filters, alone and combined with employee_id, return exactly the matching assignments on every page', async (c) => {
  const pop = await population(c);
  const [, e1] = pop.employees;
  const project = pop.project.id;
  // the run's employees are also on a second project (pop.elsewhere): both filters must leave those out
  if (!pop.elsewhere.length) c.reading('list.filter-project-id.second-project', 'none: a filter that drops project_id beside employee_id goes unseen');
  await expectFiltered(c, { ...lists.assignments, query: { project_id: String(project) } }, (a) => a.project_id === project, pop.assignments,
    'GET /assignments?project_id=');
  const both = { project_id: String(project), employee_id: String(e1!.id) };
  await expectFiltered(c, { ...lists.assignments, query: both }, (a) => a.project_id === project && a.employee_id === e1!.id,
    pop.assignments.filter((a) => a.employee_id === e1!.id), 'GET /assignments?project_id=&employee_id=');
}, { mutates: true });

check([
  'LIST-FILTER-EMPLOYEE-ID',
], 'employee_id filters of assignments and CVs return exactly the matching records on every page', async (c) => {
  const pop = await population(c);
  const [e0] = pop.employees;
  await expectFiltered(c, { ...lists.assignments, query: { employee_id: String(e0!.id) } }, (a) => a.employee_id === e0!.id,
    [...pop.assignments, ...pop.elsewhere].filter((a) => a.employee_id === e0!.id), 'GET /assignments?employee_id=');
  const withCv = (await fetchPage(c, lists.cvs, { limit: 1 })).page.data[0];
  const employee = withCv?.employee_id ?? e0!.id;
  await expectFiltered(c, { ...lists.cvs, query: { employee_id: String(employee) } }, (cv) => cv.employee_id === employee, withCv ? [withCv] : [],
    'GET /cvs?employee_id=');
}, { mutates: true });
