// §4 List rules 1–3 and changelog 1.4.0: cursors are opaque, bound to their sort and order;
// an undecodable one is 400 bad_request, an absent or empty one the first page.
import fc from 'fast-check';
import { ensure, errorCode, expectStatus, fail, is2xx } from './harness/assert.js';
import { check, type CheckContext } from './harness/check.js';
import { population } from './harness/population.js';
import { expectErrorEnvelope, expectPage } from './harness/problems.js';
import { property } from './harness/property.js';
import { fetchPage, lists, type ListSpec, SAMPLE_PAGES, walkWithin } from './harness/walk.js';

const listNames = ['projects', 'assignments', 'organizations', 'cvs'] as const;

/** A nextCursor of the list for the given sort and order; skips when the list has a single page. */
async function aCursor(c: CheckContext, list: ListSpec, sort?: string, order?: 'asc' | 'desc'): Promise<string> {
  const { page } = await fetchPage(c, list, { limit: 1, sort, order });
  if (!page.page.hasMore || !page.page.nextCursor) c.skip(`GET ${list.path} has a single page: no cursor to test with`);
  return page.page.nextCursor;
}

check([
  'LIST-CURSOR-UNDECODABLE',
  'ERR-BAD-REQUEST-CURSOR',
  'CHANGELOG-1-4-0-CURSOR-400',
], 'property: an undecodable cursor answers 400 bad_request on every list', async (c) => {
  const garbage = fc.oneof(
    fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.from(b).toString('base64url')),
    fc.constantFrom('!!!', '%%%', 'not-a-cursor', 'eyJ', '{}', 'null'),
  );
  await property(fc.record({ list: fc.constantFrom(...listNames), cursor: garbage }), async ({ list, cursor }) => {
    const res = await c.api.send({ method: 'GET', path: lists[list].path, query: { cursor } });
    expectStatus(res, 400, `GET ${lists[list].path} with an undecodable cursor`);
    expectErrorEnvelope(res, 'the 400 body', true);
    ensure(errorCode(res) === 'bad_request', `error.code is ${errorCode(res)}, not bad_request`, res);
  });
});

check([
  'LIST-CURSOR-EMPTY-FIRST-PAGE',
  'CHANGELOG-1-4-0-EMPTY-CURSOR-FIRST-PAGE',
], 'cursor= (empty) answers the same first page as no cursor', async (c) => {
  for (const list of listNames) {
    const { page: absent } = await fetchPage(c, lists[list], { limit: 3 });
    const res = await c.api.send({ method: 'GET', path: lists[list].path, query: { limit: 3, cursor: '' } });
    expectStatus(res, '2xx', `GET ${lists[list].path}?cursor=`);
    const empty = expectPage(res, lists[list].resource);
    const ids = (p: typeof empty) => p.data.map((i) => i.id).join();
    ensure(ids(absent) === ids(empty), `cursor= answered another page than no cursor`, res);
  }
});

check([
  'LIST-CURSOR-OTHER-ORDER',
  'ERR-BAD-REQUEST-CURSOR',
], 'a cursor issued for order=asc is refused with order=desc, and vice versa', async (c) => {
  await population(c);
  for (const [from, to] of [['asc', 'desc'], ['desc', 'asc']] as const) {
    const cursor = await aCursor(c, lists.projects, undefined, from);
    const res = await c.api.send({ method: 'GET', path: '/projects', query: { limit: 1, order: to, cursor } });
    expectStatus(res, 400, `a cursor of order=${from} used with order=${to}`);
    expectErrorEnvelope(res, 'the 400 body', true);
  }
});

check([
  'LIST-CURSOR-OTHER-SORT',
  'ERR-BAD-REQUEST-CURSOR',
], 'a cursor issued for one sort field is refused with another', async (c) => {
  await population(c);
  const candidates = listNames.filter((l) => (c.settings.sortFields[l]?.length ?? 0) >= 2);
  if (!candidates.length) c.skip('needs two sort fields of one list in CONFORMANCE_SORT_FIELDS');
  for (const list of candidates) {
    const [a, b] = c.settings.sortFields[list]!;
    const cursor = await aCursor(c, lists[list], a, 'asc');
    const res = await c.api.send({ method: 'GET', path: lists[list].path, query: { limit: 1, sort: b, order: 'asc', cursor } });
    expectStatus(res, 400, `a cursor of sort=${a} used with sort=${b} on ${list}`);
  }
});

check([
  'LIST-CURSOR-UNDECODABLE',
  'ISO-LIST-OWN-TEAM-ONLY',
], "property: mutated valid cursors answer 400 or a well-formed, ordered page of the team's own records, never a 5xx", async (c) => {
  await population(c);
  const own = new Map<string, Set<unknown>>();
  const other = new Map<string, Set<unknown>>();
  const ownComplete = new Map<string, boolean>();
  const cursors = new Map<string, string>();
  for (const list of listNames) {
    const mine = await walkWithin(c, lists[list], { limit: 100, maxPages: SAMPLE_PAGES });
    own.set(list, new Set(mine.items.map((i) => i.id)));
    ownComplete.set(list, mine.complete);
    other.set(list, new Set((await walkWithin(c, lists[list], { limit: 100, auth: 'otherTeam', maxPages: SAMPLE_PAGES })).items.map((i) => i.id)));
    const { page } = await fetchPage(c, lists[list], { limit: 1, order: 'asc' });
    if (page.page.nextCursor) cursors.set(list, page.page.nextCursor);
  }
  if (!cursors.size) c.skip('no list has a second page');
  const usable = [...cursors.keys()] as (typeof listNames)[number][];
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), ch: fc.constantFrom(...'AZaz09-_+/=.') }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('append' as const), text: fc.string({ minLength: 1, maxLength: 4 }) }),
    fc.record({ kind: fc.constant('reencode' as const), to: fc.constantFrom('base64', 'base64url', 'hex') }),
  );
  await property(fc.record({ list: fc.constantFrom(...usable), m: mutation }), async ({ list, m }) => {
    const valid = cursors.get(list)!;
    const cursor = mutate(valid, m);
    if (cursor === valid || cursor === '') return;
    const res = await c.api.send({ method: 'GET', path: lists[list].path, query: { limit: 1, order: 'asc', cursor } });
    if (res.status >= 500) fail(`a mutated cursor answered ${res.status}`, res);
    if (res.status === 400) return;
    c.reading('cursor.mutated', 'some decodable mutations are served (unsigned cursor)');
    ensure(is2xx(res), `a mutated cursor answered ${res.status}, neither 400 nor a page`, res);
    const page = expectPage(res, lists[list].resource);
    // on a list longer than the page budget only the other team's known records count as foreign
    const foreign = page.data.find((i) => other.get(list)!.has(i.id) || (ownComplete.get(list) && !own.get(list)!.has(i.id)));
    if (foreign) fail(`a mutated cursor served a record that is not the team's own: ${String(foreign.id)}`, res);
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
