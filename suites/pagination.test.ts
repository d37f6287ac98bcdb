// §4 List query parameters and rules: a walk visits every record exactly once, in order, pages
// never exceed limit, hasMore/nextCursor agree, the last page says so; filters and q.
import fc from 'fast-check';
import { ensure, expectStatus, fail } from './harness/assert.js';
import { check, type CheckContext } from './harness/check.js';
import { isOrdered, distinctValues, inferSortField } from './harness/order.js';
import { population } from './harness/population.js';
import { property } from './harness/property.js';
import type { ListResource } from './harness/settings.js';
import { expectPage } from './harness/validate.js';
import { duplicates, fetchPage, lists, walk, type ListSpec } from './harness/walk.js';

const pageable: ListResource[] = ['projects', 'assignments', 'organizations', 'cvs'];

/** The sort values a walk may use: the default (no sort parameter) and every configured field. */
const sortsOf = (c: CheckContext, list: ListResource): (string | undefined)[] => [undefined, ...(c.settings.sortFields[list] ?? [])];

async function reference(c: CheckContext, list: ListSpec, sort: string | undefined, order: 'asc' | 'desc' | undefined) {
  return walk(c, list, { limit: 100, sort, order });
}

const walkArb = fc.record({
  list: fc.constantFrom(...pageable),
  limit: fc.integer({ min: 1, max: 7 }),
  order: fc.constantFrom<'asc' | 'desc' | undefined>(undefined, 'asc', 'desc'),
  sortIndex: fc.nat(),
});

/** At most about 25 pages per walk, whatever the size of the list (a live deployment may hold thousands). */
const MAX_PAGES = 25;
const cappedLimit = (limit: number, size: number) => Math.max(limit, Math.ceil(size / MAX_PAGES));

const describeWalk = (list: string, limit: number, sort?: string, order?: string) => `walk of ${list} (limit ${limit}, sort ${sort ?? 'default'}, order ${order ?? 'default'})`;

check(['LIST-WALK-EVERY-RECORD-ONCE'], 'property: walks with random limit, sort and order visit every record exactly once', async (c) => {
  await population(c);
  await property(walkArb, async ({ list, limit, order, sortIndex }) => {
    const sorts = sortsOf(c, list);
    const sort = sorts[sortIndex % sorts.length];
    const ref = await reference(c, lists[list], sort, order);
    limit = cappedLimit(limit, ref.items.length);
    const w = await walk(c, lists[list], { limit, sort, order });
    const dup = duplicates(w.items);
    if (dup.length) fail(`${describeWalk(list, limit, sort, order)} visits ${dup.join(', ')} twice`, w.last);
    const seen = new Set(w.items.map((i) => i.id));
    const missing = ref.items.filter((i) => !seen.has(i.id)).map((i) => i.id);
    if (missing.length) fail(`${describeWalk(list, limit, sort, order)} skips ${missing.length} record(s), e.g. ${String(missing[0])}`, w.last);
  });
}, { timeout: 120_000 });

check(['LIST-HASMORE-FALSE-LAST', 'LIST-PAGE-WALK'], 'property: hasMore and nextCursor agree on every page, and the page with hasMore false is the last', async (c) => {
  await population(c);
  await property(walkArb, async ({ list, limit, order }) => {
    const ref = await reference(c, lists[list], undefined, order);
    limit = cappedLimit(limit, ref.items.length);
    const w = await walk(c, lists[list], { limit, order });
    const last = w.pages.at(-1)!;
    ensure(last.page.hasMore === false, 'the walk ended on a page with hasMore true', w.last);
    c.reading('list.last-page-next-cursor', last.page.nextCursor === undefined ? 'absent' : last.page.nextCursor === '' ? 'empty' : 'non-empty');
    for (const page of w.pages.slice(0, -1)) ensure(page.page.hasMore && !!page.page.nextCursor, 'a page before the last says hasMore false or has no nextCursor', w.last);
    const seen = new Set(w.items.map((i) => i.id));
    const unseen = ref.items.filter((i) => !seen.has(i.id));
    if (unseen.length) fail(`${describeWalk(list, limit, undefined, order)} ended (hasMore false) before ${unseen.length} record(s) of the list`, w.last);
  });
}, { timeout: 120_000 });

check(['LIST-SORT', 'LIST-ORDER'], 'property: walks are ordered by the sort field in the requested order (ties in any order)', async (c) => {
  await population(c);
  await property(walkArb, async ({ list, limit, order, sortIndex }) => {
    const sorts = sortsOf(c, list);
    const sort = sorts[sortIndex % sorts.length];
    const ref = await reference(c, lists[list], undefined, 'asc');
    const w = await walk(c, lists[list], { limit: cappedLimit(limit, ref.items.length), sort, order });
    const field = sort ?? inferSortField(ref.items, 'asc');
    if (!field || distinctValues(w.items, field) < 2) return;
    if (!isOrdered(w.items, field, order ?? 'asc') && (order !== undefined || !isOrdered(w.items, field, 'desc'))) {
      fail(`${describeWalk(list, limit, sort, order)} is not ordered by ${field}`, w.last);
    }
  });
}, { timeout: 120_000 });

check(['LIST-LIMIT'], 'limit=1 and limit=2 bound every page; a limit above the maximum is clamped or refused', async (c) => {
  await population(c);
  for (const list of pageable) {
    for (const limit of [1, 2]) {
      const { res, page } = await fetchPage(c, lists[list], { limit, enforceLimit: true });
      ensure(page.data.length <= limit, `GET ${lists[list].path}?limit=${limit} answered ${page.data.length} items`, res);
    }
  }
  const { page: first } = await fetchPage(c, lists.projects, {});
  c.reading('list.default-page-size', first.page.hasMore ? String(first.data.length) : `>= ${first.data.length}`);
  const big = await c.api.send({ method: 'GET', path: '/projects', query: { limit: 100000 } });
  if (big.status === 400) c.reading('list.limit-above-maximum', 'refused with 400');
  else {
    expectStatus(big, '2xx', 'GET /projects?limit=100000');
    const page = expectPage(big, 'project');
    c.reading('list.limit-above-maximum', `clamped (page of ${page.data.length})`);
  }
});

check(['LIST-ORDER', 'LIST-SORT'], 'order=desc walks the asc walk in reverse (up to ties), for every sort value', async (c) => {
  await population(c);
  for (const list of pageable) {
    for (const sort of sortsOf(c, list)) {
      const size = (await reference(c, lists[list], sort, 'asc')).items.length;
      const asc = await walk(c, lists[list], { limit: cappedLimit(3, size), sort, order: 'asc' });
      const desc = await walk(c, lists[list], { limit: cappedLimit(3, size), sort, order: 'desc' });
      const ids = (w: typeof asc) => w.items.map((i) => String(i.id)).sort().join();
      ensure(ids(asc) === ids(desc), `${list}: the asc and desc walks hold different records`, desc.last);
      const field = sort ?? inferSortField(asc.items, 'asc');
      if (!sort) c.reading(`list.${list}.default-sort`, field ? `ordered by ${field}` : 'not inferred');
      if (!field || distinctValues(asc.items, field) < 2) continue;
      if (!isOrdered(asc.items, field, 'asc')) fail(`${list}: sort=${sort ?? '(default)'} order=asc is not ascending by ${field}`, asc.last);
      if (!isOrdered(desc.items, field, 'desc')) fail(`${list}: sort=${sort ?? '(default)'} order=desc is not descending by ${field}`, desc.last);
    }
  }
});

check(['LIST-Q', 'LIST-PARAMS-ALL-LISTS'], 'every list accepts limit, cursor (empty), sort, order and q', async (c) => {
  const pop = await population(c);
  const attachments: ListSpec = { path: '/attachments', resource: 'attachment', query: { entity_type: 'project', entity_id: String(pop.project.id ?? (await fetchPage(c, lists.projects, { limit: 1 })).page.data[0]?.id ?? '00000000-0000-0000-0000-000000000000') } };
  const all: [string, ListSpec, string[]][] = [...pageable.map((l) => [l, lists[l], c.settings.sortFields[l] ?? []] as [string, ListSpec, string[]]), ['attachments', attachments, []]];
  for (const [name, spec, sorts] of all) {
    for (const order of ['asc', 'desc'] as const) {
      const res = await c.api.send({ method: 'GET', path: spec.path, query: { ...spec.query, limit: 2, cursor: '', order, q: 'conformance', ...(sorts[0] ? { sort: sorts[0] } : {}) } });
      expectStatus(res, '2xx', `GET ${spec.path} with limit, cursor=, ${sorts[0] ? 'sort, ' : ''}order=${order} and q (${name})`);
      expectPage(res, spec.resource);
    }
  }
});

check(['LIST-FILTER-PROJECT-ID', 'LIST-FILTER-EMPLOYEE-ID'], 'project_id and employee_id filters return exactly the matching records', async (c) => {
  const pop = await population(c);
  const [e0] = pop.employees;
  const byProject = await walk(c, { ...lists.assignments, query: { project_id: String(pop.project.id) } }, { limit: 3 });
  const strangers = byProject.items.filter((a) => a.project_id !== pop.project.id);
  const byProjectId = { requirement: 'LIST-FILTER-PROJECT-ID' };
  if (strangers.length) fail(`GET /assignments?project_id= returned assignments of other projects`, byProject.last, byProjectId);
  const seen = new Set(byProject.items.map((a) => a.id));
  ensure(pop.assignments.every((a) => seen.has(a.id)), 'GET /assignments?project_id= misses assignments created for the project', byProject.last, byProjectId);
  const byEmployee = await walk(c, { ...lists.assignments, query: { employee_id: String(e0!.id) } }, { limit: 3 });
  const byEmployeeId = { requirement: 'LIST-FILTER-EMPLOYEE-ID' };
  ensure(byEmployee.items.every((a) => a.employee_id === e0!.id), 'GET /assignments?employee_id= returned assignments of other employees', byEmployee.last, byEmployeeId);
  const mine = pop.assignments.filter((a) => a.employee_id === e0!.id);
  ensure(mine.every((a) => byEmployee.items.some((b) => b.id === a.id)), 'GET /assignments?employee_id= misses assignments of the employee', byEmployee.last, byEmployeeId);
  const cvs = await walk(c, { ...lists.cvs, query: { employee_id: String(e0!.id) } }, { limit: 3 });
  ensure(cvs.items.every((cv) => cv.employee_id === e0!.id), 'GET /cvs?employee_id= returned CVs of other employees', cvs.last, byEmployeeId);
}, { mutates: true });
