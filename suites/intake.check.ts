// §1 capture intake (path configurable): a capture answers a pending review item; deduplication on
// (team, source, external_id); a repeat answers the existing item with 200. The capture's fields
// are not shown (§1: "Their fields and paths: not shown"): a capture sends the triple and a title
// and a subject, so that a repeat changing everything but the triple tells whether anything else
// is compared. "returns a pending review item with a proposed project mapping": a mapping names a
// project of the caller's team or none (§1 "A record that belongs to another team is reported as
// missing").
import { randomUUID } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import type { KeyName } from '../contract/settings.js';
import { operations } from '../specs/surface.js';
import { check, type CheckContext } from './harness/check.js';
import { ensure, expectStatus, fail, is2xx, step } from './harness/judge/assert.js';
import { type Cell, exercised, type Refusal, skippedCell, titles } from './harness/plan/cells.js';
import { cellsOf } from './harness/plan/table.js';
import type { ApiResponse, Auth } from './harness/transport/client.js';
import { lists, SAMPLE_PAGES, walkWithin } from './harness/walk.js';

const opts = { mutates: true, needs: ['captureIntake' as const] };

interface Capture {
  source?: unknown;
  title?: string;
  auth?: Auth;
  idempotencyKey?: string;
}

/** The project ids an item names, at any depth (`proposed_project_id`, `proposed_mapping.project_id`, a nested project's id). */
function projectIdsIn(v: unknown, key = '', into: string[] = []): string[] {
  if (typeof v === 'string' && /(^|_)project_id$/.test(key)) into.push(v);
  else if (Array.isArray(v)) v.forEach((x) => projectIdsIn(x, key, into));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) projectIdsIn(x, k === 'id' && /project$/.test(key) ? 'project_id' : k, into);
  }
  return into;
}

async function capture(c: CheckContext, externalId: string, o: Capture | Auth = {}): Promise<ApiResponse> {
  const { source = 'conformance', title = `conformance ${c.target.runId}`, auth = 'team', idempotencyKey } =
    typeof o === 'string' || 'authorization' in o || 'key' in o
      ? { auth: o }
      : o;
  const e = c.settings.paths.captureIntake!;
  const res = await c.api.send({
    method: e.method,
    path: e.path,
    auth,
    json: {
      source,
      external_id: externalId,
      title,
      subject: title,
      url: `https://example.invalid/${encodeURIComponent(title)}/${externalId}`,
      thread: { messages: [{ subject: title }] },
    },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
  // The document shows no way to delete a capture: each one the run makes is left behind, and counted.
  const id = (res.body as Rec | undefined)?.id;
  // an item a key-less or read-only capture made is kept under the team's key, the one that reads it
  if (res.status >= 200 && res.status < 300 && typeof id === 'string') {
    c.ledger.keep('capture', id, typeof auth === 'string' && auth !== 'none' && auth !== 'readOnly' ? auth : 'team');
  }
  return res;
}

const idOf = (res: ApiResponse) => (res.body as Rec | undefined)?.id;

const externalId = (c: CheckContext) => `${c.target.runId}-${randomUUID()}`;

check([
  'INTAKE-PENDING-REVIEW',
], 'a capture answers 2xx with the item as a JSON object', async (c) => {
  const res = await capture(c, externalId(c));
  expectStatus(res, '2xx', 'capture');
  const item = res.body as Rec;
  ensure(item && typeof item === 'object' && !Array.isArray(item) && typeof item.id === 'string', 'the capture did not answer an item object with an id', res);
  c.reading('intake.first-status', String(res.status));
}, opts);

check([
  'INTAKE-REPEAT-200',
  'INTAKE-DEDUP-TRIPLE',
], titles.intake, async (c) => {
  const id = externalId(c);
  const first = await capture(c, id);
  expectStatus(first, '2xx', 'first capture');
  const again = await capture(c, id);
  expectStatus(again, 200, 'repeat capture');
  ensure((again.body as Rec).id === (first.body as Rec).id, 'the repeat capture answered another item', again);
}, { ...opts, cells: cellsOf(titles.intake) });

check([
  'INTAKE-DEDUP-TRIPLE',
], 'another external_id gives another item; the same pair from another team gives that team its own item', async (c) => {
  const id = externalId(c);
  const first = await capture(c, id);
  expectStatus(first, '2xx', 'first capture');
  const other = await capture(c, externalId(c));
  expectStatus(other, '2xx', 'capture of another thread');
  ensure((other.body as Rec).id !== (first.body as Rec).id, 'another external_id answered the same item', other);
  const teamB = await capture(c, id, 'otherTeam');
  expectStatus(teamB, '2xx', 'the same capture by the other team');
  ensure((teamB.body as Rec).id !== (first.body as Rec).id, "the other team received this team's item", teamB);
  // Each team keeps its own: the other team's capture takes nothing from this team's thread.
  const againA = await capture(c, id);
  expectStatus(againA, 200, "a repeat after the other team's capture");
  ensure(idOf(againA) === idOf(first), "after the other team's capture, a repeat answered another item", againA);
  const againB = await capture(c, id, 'otherTeam');
  expectStatus(againB, 200, "the other team's repeat");
  ensure(idOf(againB) === idOf(teamB), "the other team's repeat answered another item than its first", againB);
}, { ...opts, keys: ['otherTeam'] });

check([
  'INTAKE-DEDUP-TRIPLE',
  'INTAKE-REPEAT-200',
], 'deduplication is on exactly (team, source, external_id): another source is another thread, another title, subject and url the same thread', async (c) => {
  const id = externalId(c);
  const first = await capture(c, id, { source: 'conformance-a' });
  expectStatus(first, '2xx', 'first capture');
  const otherSource = await capture(c, id, { source: 'conformance-b' });
  expectStatus(otherSource, '2xx', 'the same external_id from another source');
  ensure(idOf(otherSource) !== idOf(first), 'the same external_id from another source answered the item of the first source', otherSource);
  const retitled = await capture(c, id, { source: 'conformance-a', title: `Re: conformance ${c.target.runId} (edited)` });
  expectStatus(retitled, 200, 'the same thread captured again with another title, subject and url');
  ensure(idOf(retitled) === idOf(first), 'the same (source, external_id) with another title, subject and url answered another item', retitled);
  // and the other source's thread is its own: a repeat of it answers its item, not the first source's
  const otherAgain = await capture(c, id, { source: 'conformance-b', title: `Re: conformance ${c.target.runId}` });
  expectStatus(otherAgain, 200, "a repeat of the other source's thread");
  ensure(idOf(otherAgain) === idOf(otherSource), "a repeat of the other source's thread answered another item than its first", otherAgain);
}, opts);

check([
  'INTAKE-DEDUP-TRIPLE',
  'INTAKE-REPEAT-200',
], 'concurrent captures of one thread answer one item', async (c) => {
  const id = externalId(c);
  const answers = await Promise.all([0, 1, 2, 3].map(() => capture(c, id)));
  for (const a of answers) expectStatus(a, '2xx', 'a concurrent capture');
  const items = new Set(answers.map(idOf));
  ensure(items.size === 1, `4 concurrent captures of one thread answered ${items.size} items`, answers[0]);
  c.reading('intake.concurrent-statuses', answers.map((a) => a.status).sort().join(','));
}, opts);

/** The intake's refusal cell (the coverage table's `refusals` row of its operation). */
const refusalCell = (r: Refusal): Cell => ({
  dimension: 'refusals',
  subject: operations().find((o) => o.resource === 'intake')?.op ?? 'createCapture',
  aspect: r,
});

/**
 * A refused capture made no item: the same thread captured afterwards answers as a first capture,
 * not 200 ("A repeat capture of the same thread returns the existing item with status 200", §1).
 * Seen only where a first capture answers otherwise than 200 (its status is not shown).
 */
check([
  'AUTH-READ-ONLY-KEY-NO-WRITE',
  'AUTH-BEARER-REQUIRED',
  'EP-INVALID-BODY-NO-EFFECT',
  'IDEM-REPLAY',
], titles.intakeRefused, async (c) => {
  const fresh = await capture(c, externalId(c));
  expectStatus(fresh, '2xx', 'capture');
  if (fresh.status === 200) c.skip('a first capture answers 200, as a repeat does: an item a refused capture made cannot be told from none');
  const noItem = async (id: string, refused: ApiResponse, what: string) => {
    const after = await capture(c, id);
    expectStatus(after, '2xx', `the thread captured after ${what}`);
    if (after.status === 200) fail(`${what} answered ${refused.status}, yet the same thread captured then answers 200, the repeat of an item it made`, after);
  };
  const refused = async (r: Refusal, requirement: string, what: string, send: (id: string) => Promise<ApiResponse>) => {
    await step(requirement, async () => {
      const id = externalId(c);
      const res = await send(id);
      if (is2xx(res)) {
        // a deployment may accept more than a type says (§9: relaxed validation is non-breaking); the intake's body is not shown
        if (r !== 'invalid-body') fail(`a capture ${what} answered ${res.status}`, res);
        c.reading('validation.capture', `a capture ${what} is accepted (${res.status})`);
      } else await noItem(id, res, `a capture ${what}`);
      exercised(refusalCell(r));
    });
  };
  if (c.settings.keys.readOnly) await refused('read-only', 'AUTH-READ-ONLY-KEY-NO-WRITE', 'sent with the read-only key', (id) => capture(c, id, 'readOnly'));
  else skippedCell(refusalCell('read-only'), 'needs the read-only key (set CONFORMANCE_API_KEY_READ_ONLY)');
  await refused('no-key', 'AUTH-BEARER-REQUIRED', 'sent without Authorization', (id) => capture(c, id, 'none'));
  await refused('invalid-body', 'EP-INVALID-BODY-NO-EFFECT', 'with a source that is a number', (id) => capture(c, id, { source: 7 }));
  // the key of one capture reused for another thread: refused or the first answer replayed, the other thread not captured
  await step('IDEM-REPLAY', async () => {
    const key = randomUUID();
    const first = await capture(c, externalId(c), { idempotencyKey: key });
    expectStatus(first, '2xx', 'a capture with a fresh idempotency key');
    const other = externalId(c);
    const second = await capture(c, other, { idempotencyKey: key });
    const replay = second.status === first.status && idOf(second) === idOf(first);
    if (is2xx(second) && !replay) fail(`a capture of another thread with the key of a first capture answered ${second.status} with another item`, second);
    await noItem(other, second, 'a capture of another thread with a reused idempotency key');
    exercised(refusalCell('reused-key'));
  });
}, { ...opts, cells: cellsOf(titles.intakeRefused) });

check([
  'INTAKE-PENDING-REVIEW',
  'ISO-OTHER-TEAM-AS-MISSING',
], "a capture's proposed project is a project of the caller's team, never the other team's project of the same thread", async (c) => {
  // a thread the other team's project came from: the capture names its external id
  const theirs = (await walkWithin(c, lists.projects, { limit: 100, auth: 'otherTeam', maxPages: SAMPLE_PAGES })).items
    .filter((p) => typeof p.source_external_id === 'string' && p.source_external_id !== '');
  if (!theirs.length) return c.skip("the other team's first pages of projects name no source_external_id to capture");
  const ownIds = new Set<string>();
  for (const project of theirs.slice(0, 2)) {
    const res = await capture(c, String(project.source_external_id), {
      source: typeof project.source === 'string' && project.source ? project.source : 'email',
    });
    expectStatus(res, '2xx', "capture of the other team's project's thread");
    for (const pid of projectIdsIn(res.body)) {
      if (pid === project.id) fail(`the capture of thread ${String(project.source_external_id)} proposes the other team's project ${pid}`, res);
      if (ownIds.has(pid)) continue;
      const own = await c.api.send({ method: 'GET', path: `/projects/${encodeURIComponent(pid)}` });
      ensure(is2xx(own), `the capture proposes project ${pid}, which GET /projects/{id} with the caller's key answers ${own.status}: not the caller's`, res);
      ownIds.add(pid);
    }
  }
  c.reading('intake.proposed-for-other-team-thread', ownIds.size ? "a project of the caller's team" : 'none');
}, { ...opts, keys: ['otherTeam'] });
