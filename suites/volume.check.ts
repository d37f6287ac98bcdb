// Lists, filters and searches at volume, built from deletable records the run makes (assignments of
// one fresh employee, sharing a search token) and removed afterwards: a walk of more than 15
// pages and a filter and a search matching more than 50 records each list every record once, hold
// the filter on every page, and combine (q with employee_id, q with project_id, q in both orders);
// a record deleted is gone from the filter and from the search (§2 "Delete result", §4 list rules);
// search text with reserved characters is answered, never with a server error (§4 "q | string |
// search text": any string is search text).
import { randomBytes } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import { BOUNDARIES, type Boundary } from '../specs/boundaries.js';
import { check, type CheckContext } from './harness/check.js';
import { expectStatus, fail } from './harness/judge/assert.js';
import { aProject, createEmployee, marker, postAssignment, workingEmployee } from './harness/records.js';
import { duplicates, lists, walk, type WalkOptions } from './harness/walk.js';

/** How many records the volume is built of: over 50 matches, over 15 pages at LIMIT. */
const VOLUME = 52;
const LIMIT = 3;

const ids = (items: readonly Rec[]) => new Set(items.map((i) => String(i.id)));

async function inBatches<T>(c: CheckContext, n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  const width = Math.max(1, c.settings.concurrency);
  for (let i = 0; i < n; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, k) => make(i + k)))));
  return out;
}

/** The walk of a list holds exactly `expected` (when given), each once, and every item satisfies `holds`. */
async function expectWalk(c: CheckContext, what: string, o: WalkOptions, expected: ReadonlySet<string> | undefined, holds: (i: Rec) => boolean) {
  const w = await walk(c, lists.assignments, { limit: LIMIT, maxPages: 4 * VOLUME, ...o });
  const dup = duplicates(w.items);
  if (dup.length) fail(`${what}: a walk of ${w.pages.length} pages lists ${dup.length} record(s) twice (${dup.slice(0, 3).join(', ')})`, w.last);
  const stray = w.items.filter((i) => !holds(i));
  if (stray.length) fail(`${what}: ${stray.length} record(s) that do not match (${stray.slice(0, 3).map((i) => i.id).join(', ')})`, w.last);
  if (expected) {
    const got = ids(w.items);
    const missing = [...expected].filter((id) => !got.has(id));
    if (missing.length) {
      fail(`${what}: a walk of ${w.pages.length} pages misses ${missing.length} of ${expected.size} records (${missing.slice(0, 3).join(', ')})`, w.last);
    }
  }
  return w;
}

check([
  'LIST-PAGE-WALK',
  'LIST-WALK-EVERY-RECORD-ONCE',
  'LIST-FILTER-EMPLOYEE-ID',
  'LIST-FILTER-PROJECT-ID',
  'LIST-Q',
  'EP-DELETE-GONE',
], `volume: ${VOLUME} assignments of one employee walked ${LIMIT} a page, by filter and by search, alone and combined, each once; deleted ones gone from both`,
  async (c) => {
    const project = await aProject(c);
    const employee = await createEmployee(c);
    const token = `v${randomBytes(4).toString('hex')}`;
    const made = await inBatches(c, VOLUME, async (i) => {
      const res = await postAssignment(c, { employee_id: employee.id, project_id: project.id, role: `${marker(c)} ${token} #${i}` });
      expectStatus(res, '2xx', 'POST /assignments');
      return res.body as Rec;
    });
    c.reading('volume.records', `${VOLUME} assignments, limit ${LIMIT}: at least ${Math.ceil(VOLUME / LIMIT)} pages`);
    const all = ids(made);
    const mine = (i: Rec) => i.employee_id === employee.id;
    const byEmployee = { query: { employee_id: String(employee.id) } };
    await expectWalk(c, `GET /assignments?employee_id (asc)`, { ...byEmployee, order: 'asc' }, all, mine);
    await expectWalk(c, `GET /assignments?employee_id (desc)`, { ...byEmployee, order: 'desc' }, all, mine);
    await expectWalk(c, `GET /assignments?employee_id&project_id`, { query: { employee_id: String(employee.id), project_id: String(project.id) } }, all, mine);

    // search: what q searches is not shown; a search that finds one of the records must find them all
    const probe = await walk(c, lists.assignments, { limit: 100, maxPages: 10, query: { q: token } });
    const found = probe.items.filter((i) => all.has(String(i.id)));
    const searches = found.length > 0;
    if (!searches) c.reading('volume.search', 'q does not search the role of assignments');
    else {
      await expectWalk(c, `GET /assignments?q=<token> (asc)`, { query: { q: token }, order: 'asc' }, all, mine);
      await expectWalk(c, `GET /assignments?q=<token> (desc)`, { query: { q: token }, order: 'desc' }, all, mine);
      await expectWalk(c, `GET /assignments?q=<token>&employee_id`, { query: { q: token, employee_id: String(employee.id) } }, all, mine);
      // another employee's filter with the same search holds none of them
      const other = await workingEmployee(c);
      await expectWalk(c, `GET /assignments?q=<token>&employee_id=<another employee>`, { query: { q: token, employee_id: String(other.id) } }, undefined, (i) =>
        i.employee_id === other.id && !all.has(String(i.id)));
    }

    // deleted records are gone from the filter and from the search; the others stay
    const gone = made.slice(0, 5).map((r) => String(r.id));
    await inBatches(c, gone.length, async (i) => {
      const res = await c.api.send({ method: 'DELETE', path: `/assignments/${gone[i]}` });
      expectStatus(res, '2xx', 'DELETE /assignments/{id}');
      c.ledger.gone(gone[i]!);
    });
    const left = new Set([...all].filter((id) => !gone.includes(id)));
    const kept = (i: Rec) => mine(i) && !gone.includes(String(i.id));
    await expectWalk(c, `GET /assignments?employee_id after 5 DELETEs`, byEmployee, left, kept);
    if (searches) await expectWalk(c, `GET /assignments?q=<token> after 5 DELETEs`, { query: { q: token } }, left, kept);
  }, { mutates: true, timeout: 120_000 });

check([
  'LIST-Q',
], 'search: q with reserved characters, other scripts, padding or another letter case is answered with a page, never a server error, on every list',
  async (c) => {
    const entries = BOUNDARIES.query as readonly Boundary[];
    const token = `k${randomBytes(4).toString('hex')}`;
    for (const list of [lists.projects, lists.assignments, lists.organizations, lists.cvs]) {
      for (const e of entries) {
        const q = (e.value as (t: string) => string)(token);
        const res = await c.api.send({ method: 'GET', path: list.path, query: { q, limit: 5 } });
        if (res.status >= 500) fail(`GET ${list.path}?q=${JSON.stringify(q)} answered ${res.status}: ${e.reveals}`, res);
        // §4 types q as a string and gives it no format: a string is search text
        if (res.status >= 400) fail(`GET ${list.path}?q=${JSON.stringify(q)} answered ${res.status}: q is "search text" of any string (${e.reveals})`, res);
      }
    }
  });
