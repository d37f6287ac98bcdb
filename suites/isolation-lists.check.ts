// §1 "Every record belongs to a team", "reported as missing, the same as an id that does not
// exist": no list channel reaches another team's records — the lists, every filter, search q with
// the other team's exact names, cursors handed across teams. Team B's records are created with its
// own key; isolation by id, references and idempotency keys are in isolation.check.ts.
import type { Rec } from '../contract/json.js';
import type { KeyName } from '../contract/settings.js';
import { check, type CheckContext } from './harness/check.js';
import { ensure, expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { expectPage } from './harness/judge/problems.js';
import { expectAnswerLikeMissing } from './harness/missing.js';
import { aProject } from './harness/records.js';
import { type TeamB, teamB } from './harness/team-b.js';
import { type BoundedWalk, fetchPage, lists, type ListSpec, PAGEABLE, SAMPLE_PAGES, sendList, walkWithin } from './harness/walk.js';

const opts = { mutates: true, keys: ['otherTeam' as const] };
const pageable = PAGEABLE;

/**
 * The first pages of a list in each order (§4 order: asc or desc): on a large deployment the
 * records a run just made sort after the first pages of one order, but lead the other. The cost
 * stays SAMPLE_PAGES pages per order, whatever the deployment holds.
 */
async function bothEnds(c: CheckContext, list: ListSpec, auth?: KeyName): Promise<BoundedWalk[]> {
  const walks: BoundedWalk[] = [];
  for (const order of ['asc', 'desc'] as const) walks.push(await walkWithin(c, list, { limit: 100, auth, order, maxPages: SAMPLE_PAGES }));
  return walks;
}

/** Ids a team is seen holding: both ends of every list (a bounded sample on a large deployment). */
async function idsOf(c: CheckContext, auth: KeyName): Promise<Set<unknown>> {
  const ids = new Set<unknown>();
  for (const list of pageable) for (const w of await bothEnds(c, lists[list], auth)) for (const item of w.items) ids.add(item.id);
  return ids;
}

/** A list filter naming records of the other team (`theirs`), alone or beside one of the team's own. */
interface Filter {
  path: string;
  theirs: string[];
  query: (ids: readonly string[]) => Record<string, string>;
}

async function filtersNaming(c: CheckContext, b: TeamB): Promise<Filter[]> {
  const project = String((await aProject(c)).id);
  // an employee of the other team that has a CV (the run's own employees have none)
  const theirCv = (await fetchPage(c, lists.cvs, { limit: 1, auth: 'otherTeam' })).page.data[0];
  const [p, e] = [String(b.project.id), String(b.employee.id)];
  return [
    { path: '/assignments', theirs: [p], query: ([x]) => ({ project_id: x! }) },
    { path: '/assignments', theirs: [e], query: ([x]) => ({ employee_id: x! }) },
    { path: '/assignments', theirs: [e], query: ([x]) => ({ project_id: project, employee_id: x! }) },
    { path: '/assignments', theirs: [p, e], query: ([x, y]) => ({ project_id: x!, employee_id: y! }) },
    { path: '/cvs', theirs: [e], query: ([x]) => ({ employee_id: x! }) },
    ...(theirCv ? [{ path: '/cvs', theirs: [String(theirCv.employee_id)], query: ([x]: readonly string[]) => ({ employee_id: x! }) }] : []),
    { path: '/attachments', theirs: [p], query: ([x]) => ({ entity_type: 'project', entity_id: x! }) },
  ];
}

check([
  'ISO-LIST-OWN-TEAM-ONLY',
], "no list shows another team's record, filtered by its ids or not", async (c) => {
  const b = await teamB(c);
  const theirs = new Set<unknown>([b.project.id, b.assignment.id, b.organization.id, b.attachment.id, ...(await idsOf(c, 'otherTeam'))]);
  for (const list of pageable) {
    for (const w of await bothEnds(c, lists[list])) {
      const leak = w.items.find((i) => theirs.has(i.id));
      if (leak) fail(`GET ${lists[list].path} shows another team's record ${String(leak.id)}`, w.last);
    }
  }
  for (const f of await filtersNaming(c, b)) {
    const query = f.query(f.theirs);
    const res = await c.api.send({ method: 'GET', path: f.path, query });
    if (!is2xx(res)) {
      expectStatus(res, '4xx', `GET ${f.path} filtered by another team's id`);
      continue;
    }
    const data = (res.body as { data?: unknown[]; })?.data ?? [];
    ensure(data.length === 0, `GET ${f.path}?${new URLSearchParams(query)} shows ${data.length} record(s) of another team`, res);
  }
}, opts);

check([
  'ISO-OTHER-TEAM-AS-MISSING',
], "a list filtered by another team's ids answers exactly like the same filter naming missing ids", async (c) => {
  // a 403 or 404 for the other team's id beside an empty page for a random one says the record exists
  const b = await teamB(c);
  for (const f of await filtersNaming(c, b)) {
    await expectAnswerLikeMissing(c, f.theirs, (ids) => c.api.send({ method: 'GET', path: f.path, query: f.query(ids) }),
      `GET ${f.path} filtered by ${Object.keys(f.query(f.theirs)).join(' and ')}`);
  }
}, opts);

check([
  'ISO-LIST-OWN-TEAM-ONLY',
], "search q finds only the team's own records, even with another team's exact names", async (c) => {
  const b = await teamB(c);
  const theirs = new Set<unknown>([b.project.id, b.assignment.id, b.organization.id, ...(await idsOf(c, 'otherTeam'))]);
  const probes: [string, string][] = [['/projects', String(b.project.title)], ['/organizations', String(b.organization.name)], [
    '/assignments',
    String(b.assignment.role),
  ]];
  const cv = (await fetchPage(c, lists.cvs, { limit: 1, auth: 'otherTeam' })).page.data[0];
  if (cv) probes.push(['/cvs', String(cv.name)]);
  for (const [path, q] of probes) {
    const own = await sendList(c, path, { q, limit: 100 }, 'otherTeam');
    if (is2xx(own)) {
      c.reading(`search.q${path}`,
        expectPage(own, lists[path.slice(1) as (typeof pageable)[number]]!.resource).data.length ? 'finds records by name' : 'no hit for an exact name');
    }
    const res = await sendList(c, path, { q, limit: 100 });
    expectStatus(res, '2xx', `GET ${path}?q=`);
    const leak = (res.body as { data?: Rec[]; }).data?.find((i) => theirs.has(i.id));
    if (leak) fail(`GET ${path}?q=<another team's name> shows that team's record ${String(leak.id)}`, res);
  }
}, opts);

check([
  'ISO-LIST-OWN-TEAM-ONLY',
  'LIST-PAGE-WALK',
], "a cursor another team received serves only the caller's own records, or is refused", async (c) => {
  await teamB(c);
  const mine = await idsOf(c, 'team');
  for (const list of pageable) {
    const { page } = await fetchPage(c, lists[list], { limit: 1 });
    if (!page.page.hasMore || !page.page.nextCursor) continue;
    const res = await c.api.send({ method: 'GET', path: lists[list].path, query: { limit: 50, cursor: page.page.nextCursor }, auth: 'otherTeam' });
    // refusing another team's cursor is as good as serving that team its own records (§4 shows no status for it)
    if (res.status >= 400 && res.status < 500) {
      c.reading(`cursor.other-team${lists[list].path}`, `refused with ${res.status}`);
      continue;
    }
    expectStatus(res, '2xx', `GET ${lists[list].path} by the other team with this team's cursor`);
    const leak = expectPage(res, lists[list].resource).data.find((i) => mine.has(i.id));
    if (leak) fail(`another team following this team's cursor on ${lists[list].path} reads this team's record ${String(leak.id)}`, res);
  }
}, opts);
