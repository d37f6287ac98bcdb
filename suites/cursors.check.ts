// §4 List rules 1–3 and changelog 1.4.0: cursors are opaque, bound to their sort and order;
// an undecodable one is 400 bad_request, an absent or empty one the first page.
import fc from 'fast-check';
import { check, type CheckContext } from './harness/check.js';
import { ensure, expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { errorCode, expectErrorEnvelope, expectPage } from './harness/judge/problems.js';
import { exercised, skippedCell, titles } from './harness/plan/cells.js';
import { recordKind, servedOperations } from './harness/plan/operations.js';
import { cellsOf, cursorAspect, type CursorUse, cursorUses, cursorViews, type Order, orderName, sortName, sortsOf } from './harness/plan/table.js';
import { population } from './harness/population.js';
import { property } from './harness/property.js';
import { fetchPage, lists, type ListSpec, PAGEABLE, SAMPLE_PAGES, walkWithin } from './harness/walk.js';

const listNames = PAGEABLE;

interface CursorList {
  name: string;
  spec: ListSpec;
}

/**
 * Every list endpoint: the four plain lists and the attachments of one entity (§4: entity_type and
 * entity_id are required, and a request without them is refused for that reason, not for its
 * cursor). With `paged`, the entity is the employee the run gave three attachments, so its list
 * has pages (a read-only run takes a project's, which may have a single page); without, any
 * project's, so the check does not wait on the run's records.
 */
async function cursorLists(c: CheckContext, paged: boolean): Promise<CursorList[]> {
  const plain = listNames.map((l) => ({ name: l, spec: lists[l] as ListSpec }));
  const employee = paged ? (await population(c)).employees[0]?.id : undefined;
  const entity = employee ? { entity_type: 'employee', entity_id: String(employee) } : await aProjectEntity(c);
  if (!entity) return plain;
  return [...plain, { name: 'attachments', spec: { path: '/attachments', resource: 'attachment', query: entity } }];
}

async function aProjectEntity(c: CheckContext): Promise<Record<string, string> | undefined> {
  const id = (await fetchPage(c, lists.projects, { limit: 1 })).page.data[0]?.id;
  return id === undefined ? undefined : { entity_type: 'project', entity_id: String(id) };
}

/** A nextCursor of the list for the given sort and order, or undefined when the list has a single page. */
async function aCursor(c: CheckContext, list: ListSpec, sort?: string, order?: 'asc' | 'desc'): Promise<string | undefined> {
  const { page } = await fetchPage(c, list, { limit: 1, sort, order });
  return page.page.hasMore && page.page.nextCursor ? page.page.nextCursor : undefined;
}

check([
  'LIST-CURSOR-UNDECODABLE',
  'ERR-BAD-REQUEST-CURSOR',
  'CHANGELOG-1-4-0-CURSOR-400',
], 'property: an undecodable cursor answers 400 bad_request on every list', async (c) => {
  const all = await cursorLists(c, false);
  const garbage = fc.oneof(
    fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.from(b).toString('base64url')),
    fc.constantFrom('!!!', '%%%', 'not-a-cursor', 'eyJ', '{}', 'null'),
  );
  // each cursor goes to every list: a list that mishandles it is found whichever lists the runs would have drawn
  await property(garbage, async (cursor) => {
    for (const { name, spec } of all) {
      const res = await c.api.send({ method: 'GET', path: spec.path, query: { ...spec.query, cursor } });
      expectStatus(res, 400, `GET ${spec.path} with an undecodable cursor (${name})`);
      expectErrorEnvelope(res, 'the 400 body', true);
      ensure(errorCode(res) === 'bad_request', `error.code is ${errorCode(res)}, not bad_request (${name})`, res);
    }
  });
});

check([
  'LIST-CURSOR-EMPTY-FIRST-PAGE',
  'CHANGELOG-1-4-0-EMPTY-CURSOR-FIRST-PAGE',
], 'cursor= (empty) answers the same first page as no cursor, on every list', async (c) => {
  for (const { name, spec } of await cursorLists(c, false)) {
    const { page: absent } = await fetchPage(c, spec, { limit: 3 });
    const res = await c.api.send({ method: 'GET', path: spec.path, query: { ...spec.query, limit: 3, cursor: '' } });
    expectStatus(res, '2xx', `GET ${spec.path}?cursor= (${name})`);
    const empty = expectPage(res, spec.resource);
    const ids = (p: typeof empty) => p.data.map((i) => i.id).join();
    ensure(ids(absent) === ids(empty), `cursor= answered another page than no cursor (${name})`, res);
  }
});

check([
  'LIST-CURSOR-OTHER-ORDER',
  'ERR-BAD-REQUEST-CURSOR',
], 'a cursor issued for order=asc is refused with order=desc, and vice versa, on every list', async (c) => {
  const all = await cursorLists(c, true);
  const single: string[] = [];
  for (const { name, spec } of all) {
    for (const [from, to] of [['asc', 'desc'], ['desc', 'asc']] as const) {
      const cursor = await aCursor(c, spec, undefined, from);
      if (!cursor) {
        single.push(name);
        break;
      }
      const res = await c.api.send({ method: 'GET', path: spec.path, query: { ...spec.query, limit: 1, order: to, cursor } });
      expectStatus(res, 400, `a cursor of order=${from} used with order=${to} (${name})`);
      expectErrorEnvelope(res, 'the 400 body', true);
    }
  }
  if (single.length) c.reading('cursor.other-order.single-page-lists', single.join(', '));
  if (single.length === all.length) c.skip('every list has a single page: no cursor to test with');
});

check([
  'LIST-CURSOR-OTHER-SORT',
  'ERR-BAD-REQUEST-CURSOR',
], 'a cursor issued for one sort field is refused with another', async (c) => {
  await population(c);
  const candidates = listNames.filter((l) => (c.settings.sortFields[l]?.length ?? 0) >= 2);
  if (!candidates.length) c.skip('needs two sort fields of one list in CONFORMANCE_SORT_FIELDS');
  const single: string[] = [];
  for (const list of candidates) {
    const [a, b] = c.settings.sortFields[list]!;
    const cursor = await aCursor(c, lists[list], a, 'asc');
    if (!cursor) {
      single.push(list);
      continue;
    }
    const res = await c.api.send({ method: 'GET', path: lists[list].path, query: { limit: 1, sort: b, order: 'asc', cursor } });
    expectStatus(res, 400, `a cursor of sort=${a} used with sort=${b} on ${list}`);
  }
  if (single.length === candidates.length) c.skip(`${single.join(', ')}: a single page, no cursor to test with`);
});

check([
  'LIST-CURSOR-UNDECODABLE',
  'ISO-LIST-OWN-TEAM-ONLY',
], "property: mutated valid cursors answer 400 or a well-formed, ordered page of the team's own records, never a 5xx", async (c) => {
  const all = await cursorLists(c, true);
  const own = new Map<string, Set<unknown>>();
  const other = new Map<string, Set<unknown>>();
  const ownComplete = new Map<string, boolean>();
  const cursors = new Map<string, string>();
  for (const { name, spec } of all) {
    const mine = await walkWithin(c, spec, { limit: 100, maxPages: SAMPLE_PAGES });
    own.set(name, new Set(mine.items.map((i) => i.id)));
    ownComplete.set(name, mine.complete);
    // the other team may be refused a list narrowed to this team's entity: it then shows nothing
    const theirs = await walkWithin(c, spec, { limit: 100, auth: 'otherTeam', maxPages: SAMPLE_PAGES, refusedIsEmpty: true });
    other.set(name, new Set(theirs.items.map((i) => i.id)));
    const { page } = await fetchPage(c, spec, { limit: 1, order: 'asc' });
    if (page.page.nextCursor) cursors.set(name, page.page.nextCursor);
  }
  if (!cursors.size) c.skip('no list has a second page');
  const usable = all.filter((l) => cursors.has(l.name));
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), ch: fc.constantFrom(...'AZaz09-_+/=.') }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('append' as const), text: fc.string({ minLength: 1, maxLength: 4 }) }),
    fc.record({ kind: fc.constant('reencode' as const), to: fc.constantFrom('base64', 'base64url', 'hex') }),
  );
  // each mutation is applied to every list's own cursor, so no list depends on being drawn
  await property(mutation, async (m) => {
    for (const { name, spec } of usable) {
      const valid = cursors.get(name)!;
      const cursor = mutate(valid, m);
      if (cursor === valid || cursor === '') continue;
      const res = await c.api.send({ method: 'GET', path: spec.path, query: { ...spec.query, limit: 1, order: 'asc', cursor } });
      if (res.status >= 500) fail(`a mutated cursor answered ${res.status} (${name})`, res);
      if (res.status === 400) return;
      c.reading('cursor.mutated', 'some decodable mutations are served (unsigned cursor)');
      ensure(is2xx(res), `a mutated cursor answered ${res.status}, neither 400 nor a page (${name})`, res);
      const page = expectPage(res, spec.resource);
      // on a list longer than the page budget only the other team's known records count as foreign
      const foreign = page.data.find((i) => other.get(name)!.has(i.id) || (ownComplete.get(name) && !own.get(name)!.has(i.id)));
      if (foreign) fail(`a mutated cursor served a record that is not the team's own: ${String(foreign.id)} (${name})`, res);
    }
  });
});

type Mutation = { kind: 'flip'; at: number; ch: string; } | { kind: 'truncate'; at: number; } | { kind: 'append'; text: string; } | {
  kind: 'reencode';
  to: string;
};

function mutate(cursor: string, m: Mutation): string {
  if (m.kind === 'flip') {
    const i = m.at % cursor.length;
    return cursor.slice(0, i) + m.ch + cursor.slice(i + 1);
  }
  if (m.kind === 'truncate') return cursor.slice(0, m.at % cursor.length);
  if (m.kind === 'append') return cursor + m.text;
  const bytes = Buffer.from(cursor, /^[A-Za-z0-9_-]*$/.test(cursor) ? 'base64url' : 'base64');
  return bytes.toString(m.to as BufferEncoding);
}

// --- where a cursor came from × what it is used with (harness/plan/table.ts cursors) --------------------

/** A list request's sort and order: a default is the parameter left out. */
const params = (p: { sort: string | undefined; order: Order; }) => ({ ...(p.sort ? { sort: p.sort } : {}), ...(p.order ? { order: p.order } : {}) });

check([
  'LIST-CURSOR-OTHER-SORT',
  'LIST-CURSOR-OTHER-ORDER',
  'ERR-BAD-REQUEST-CURSOR',
], titles.cursors, async (c) => {
  const pop = await population(c);
  const ops = servedOperations(c.settings);
  const entity = pop.attachments[0] ? { entity_type: String(pop.attachments[0].entity_type), entity_id: String(pop.attachments[0].entity_id) } : undefined;
  await Promise.all(cursorViews(ops).map(async (view) => {
    const op = ops.find((o) => o.op === view.op)!;
    const query = view.kind === 'entity' ? entity : {};
    const spec: ListSpec = { path: op.path, resource: recordKind(op)!, query: query ?? {} };
    const uses = cursorUses(sortsOf(c.settings, op));
    const cellOf = (u: CursorUse) => ({ dimension: 'cursors' as const, subject: view.name, aspect: cursorAspect(u) });
    if (!query) {
      for (const u of uses) skippedCell(cellOf(u), 'no entity with attachments to list');
      return;
    }
    // each source: a cursor after the first record, and the page it leads to
    const sources = new Map<string, { cursor?: string; next?: unknown[]; }>();
    await Promise.all([...new Map(uses.map((u) => [JSON.stringify(u.from), u.from])).entries()].map(async ([key, from]) => {
      const { page } = await fetchPage(c, spec, { limit: 1, ...params(from) });
      const cursor = page.page.hasMore && page.page.nextCursor ? page.page.nextCursor : undefined;
      const next = cursor ? (await fetchPage(c, spec, { limit: 1, ...params(from) }, cursor)).page.data.map((i) => i.id) : undefined;
      sources.set(key, { cursor, next });
    }));
    await Promise.all(uses.map(async (u) => {
      const { cursor, next } = sources.get(JSON.stringify(u.from))!;
      if (!cursor) return skippedCell(cellOf(u), `${view.name} has a single page`);
      exercised(cellOf(u));
      const res = await c.api.send({ method: 'GET', path: spec.path, query: { ...spec.query, limit: 1, cursor, ...params(u.to) } });
      const what = `a cursor of ${view.name} issued for sort=${sortName(u.from.sort)} order=${orderName(u.from.order)}, used with sort=${
        sortName(u.to.sort)
      } order=${orderName(u.to.order)}`;
      // both given and different: issued for another sort or order (§4 rule 2); a default on either side may be the same one
      const explicitlyOther = (u.from.sort !== undefined && u.to.sort !== undefined && u.from.sort !== u.to.sort)
        || (u.from.order !== undefined && u.to.order !== undefined && u.from.order !== u.to.order);
      if (res.status === 400) return;
      if (explicitlyOther) {
        fail(`${what} answered ${res.status}, not 400`, res, { requirement: u.from.sort !== u.to.sort ? 'LIST-CURSOR-OTHER-SORT' : 'LIST-CURSOR-OTHER-ORDER' });
      }
      expectStatus(res, '2xx', what);
      // served: only as the same sort and order, so the page is the one the cursor leads to
      const ids = expectPage(res, spec.resource).data.map((i) => i.id);
      if (JSON.stringify(ids) !== JSON.stringify(next)) {
        fail(
          `${what} answered a page (${ids.join(', ')}) other than the one the cursor leads to (${
            (next ?? []).join(', ')
          }): issued for another sort or order, it must be refused`,
          res,
          {
            requirement: u.from.sort !== u.to.sort ? 'LIST-CURSOR-OTHER-SORT' : 'LIST-CURSOR-OTHER-ORDER',
          },
        );
      }
    }));
  }));
}, { cells: cellsOf(titles.cursors) });
