// §3 States and transitions: archiving records the prior stage and status, closing sets its
// fields, a stage change is stamped.
//
// Safe on a shared deployment: every project is snapshotted before its first change and put back
// exactly as found after the file (suites/harness/ledger.ts). A change that no request can undo
// is made only on a project set aside for testing (CONFORMANCE_SCRATCH_PROJECTS): a stage change
// (the server stamps stage_changed_at), archiving (it stamps archived_from_stage and
// archived_from_status and adds archived_at), closing (it sets closed_at, which the document shows
// no request writing, on an already closed project too, and adds close_reason and
// close_reason_category to an open one). Cost does not grow with the deployment: candidates come
// from the scratch projects and at most CONFORMANCE_WALK_PAGES pages of the project list.
import type { Rec } from '../contract/json.js';
import { expectEveryView } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { ensure, expectStatus, is2xx } from './harness/judge/assert.js';
import { expectResource } from './harness/judge/problems.js';
import { detectedShape } from './harness/judge/shape.js';
import type { ApiResponse } from './harness/transport/client.js';
import { disagreements, viewsOf } from './harness/views.js';
import { fetchPage, lists } from './harness/walk.js';

const CLOSE_FIELDS = ['closed_at', 'close_reason', 'close_reason_category', 'status'];
/** What the checks of §3 read of a project: its state and the stamps of its transitions. */
const STATE_READS = { reads: ['status', 'stage', 'stage_changed_at', 'archived_at', 'archived_from_stage', 'archived_from_status', ...CLOSE_FIELDS] };
const PAGE_SIZE = 100;

const isOpen = (p: Rec) => !p.archived_at && !p.closed_at;

/** The scratch projects of team A, as they are now. */
async function scratchProjects(c: CheckContext): Promise<Rec[]> {
  const out: Rec[] = [];
  for (const id of c.settings.scratchProjects) {
    const res = await c.api.send({ method: 'GET', path: `/projects/${id}` });
    expectStatus(res, '2xx', `GET /projects/{id} of scratch project ${id}`);
    out.push(expectResource(res, 'project', STATE_READS));
  }
  return out;
}

/** The first listed project `pick` accepts, reading at most CONFORMANCE_WALK_PAGES pages. */
async function listedProject(c: CheckContext, pick: (p: Rec) => boolean): Promise<{ project?: Rec; pages: number; }> {
  let cursor: string | undefined;
  for (let pages = 1; pages <= c.settings.walkPages; pages += 1) {
    const { page } = await fetchPage(c, lists.projects, { limit: PAGE_SIZE }, cursor);
    const project = page.data.find(pick);
    if (project) return { project, pages };
    if (!page.page.hasMore || !page.page.nextCursor) return { pages };
    cursor = page.page.nextCursor;
  }
  return { pages: c.settings.walkPages };
}

/** Snapshots the project for its restore, and answers its current state (an earlier check may have changed it). */
async function touch(c: CheckContext, project: Rec): Promise<Rec> {
  await c.ledger.before('projects', project);
  const res = await c.api.send({ method: 'GET', path: `/projects/${project.id}` });
  expectStatus(res, '2xx', 'GET /projects/{id}');
  return expectResource(res, 'project', STATE_READS);
}

/** A scratch project for the check (a different one per check where there are several), preferring one `prefer` accepts. */
function scratchFor(scratch: Rec[], index: number, prefer: (p: Rec) => boolean): Rec | undefined {
  const rotated = [...scratch.slice(index % Math.max(scratch.length, 1)), ...scratch.slice(0, index % Math.max(scratch.length, 1))];
  return rotated.find(prefer) ?? rotated[0];
}

/**
 * Sends each body in turn until one takes effect (`took`): the document shows neither the
 * transitions nor the request fields that make them, so a refusal or a PATCH that changes nothing
 * means this form is not the deployment's, and the check is skipped when none is. Partial effects
 * are for the caller to judge.
 */
async function patchTaking(
  c: CheckContext,
  project: Rec,
  bodies: Rec[],
  took: (after: Rec) => boolean,
  what: string,
): Promise<{ res: ApiResponse; after: Rec; }> {
  const tried: string[] = [];
  for (const body of bodies) {
    const res = await c.api.send({ method: 'PATCH', path: `/projects/${project.id}`, json: body });
    const form = `{ ${Object.keys(body).join(', ')} }`;
    if (!is2xx(res)) {
      tried.push(`${form} answered ${res.status}`);
      continue;
    }
    const after = expectResource(res, 'project', STATE_READS);
    if (took(after)) {
      c.reading(`state.${what.split(' ')[0]}.form`, form);
      return { res, after };
    }
    tried.push(`${form} changed nothing`);
  }
  return c.skip(`no PATCH form ${what} the project (${tried.join('; ')}); the transitions and their request fields are not shown`);
}

/**
 * The change shows in every view of the project (GET by id, the list), not only in the PATCH's
 * answer. Whether the list still shows an archived or closed project is not shown (§3): there,
 * `listMayHide` lets it leave the project out, but what it shows must agree.
 */
async function readBack(c: CheckContext, after: Rec, what: string, recorded: readonly string[], listMayHide = false): Promise<void> {
  const [byId, list] = viewsOf(c, { kind: 'project', id: String(after.id) });
  const got = await byId!.read();
  ensure(got.state === 'present', `after ${what}: ${byId!.name} does not show the project`, got.state === 'absent' ? got.res : undefined);
  const wrong = disagreements(after, got.record);
  ensure(wrong.length === 0, `after ${what}: ${byId!.name} shows ${wrong.map((f) => `${f}=${JSON.stringify(got.record[f])}`).join(', ')}`, got.res);
  // What the transition records must be stored, not only answered: GET by id shows it too.
  const missing = recorded.filter((f) => f in after && !(f in got.record));
  ensure(missing.length === 0, `after ${what}: ${byId!.name} does not show ${missing.join(', ')}, which the PATCH answered`, got.res);
  if (!listMayHide) return void (await expectEveryView(c, [list!], after, `after ${what}`));
  const seen = await list!.read();
  if (seen.state !== 'present') return c.reading(`state.listed-after.${what}`, seen.state === 'absent' ? 'left out' : 'not reached');
  const diff = disagreements(after, seen.record);
  ensure(diff.length === 0, `after ${what}: ${list!.name} shows ${diff.map((f) => `${f}=${JSON.stringify(seen.record[f])}`).join(', ')}`, seen.res);
}

/** A timestamp that names its zone: only such a value can be compared with this machine's clock (formats are not shown, §2). */
const zoned = (v: unknown): number | undefined =>
  typeof v === 'string' && /(Z|[+-]\d{2}:?\d{2})$/i.test(v) && !Number.isNaN(Date.parse(v)) ? Date.parse(v) : undefined;

/**
 * A stamp of a transition is the time it was made: "Closing sets `closed_at`", "Archiving ... sets
 * `archived_at`". Sent with the request's own time (where the form sends it) or set by the server,
 * every reading shows an instant within the request; one without a zone is recorded, not compared.
 */
function expectStampedWithin(c: CheckContext, field: string, v: unknown, from: number, res: ApiResponse): void {
  const at = zoned(v);
  if (at === undefined) return c.reading(`state.${field}`, `${JSON.stringify(v)}: not compared with the clock (no zone)`);
  ensure(at >= from - 5_000 && at <= Date.now() + 5_000,
    `${field} ${String(v)} is not the time of the transition (the request was at ${new Date(from).toISOString()})`, res);
}

const fullShapeOnly = (c: CheckContext) => {
  if (detectedShape('project') === 'legacy') c.skip('the legacy project shape has no such fields');
};

check([
  'STATE-STAGE-CHANGE-STAMPED',
], 'a stage change stamps stage_changed_at', async (c) => {
  await fetchPage(c, lists.projects, { limit: 1 }); // the shape is read from projects first
  fullShapeOnly(c);
  const scratch = scratchFor(await scratchProjects(c), 0, isOpen);
  if (!scratch) {
    const { project } = await listedProject(c, () => true);
    if (!project) return c.skip('the team has no project');
    return c.skip(c.ledger.irreversible(project, [], ['stage_changed_at'])!);
  }
  const project = await touch(c, scratch);
  const current = project.stage as Rec | undefined;
  const { project: elsewhere } = await listedProject(c, (p) => (p.stage as Rec | undefined)?.id !== undefined && (p.stage as Rec).id !== current?.id);
  const other = elsewhere?.stage as Rec | undefined;
  if (!other) return c.skip(`every project within the first ${c.settings.walkPages} pages has the same stage: no other stage to change to`);
  const started = Date.now();
  const { res, after } = await patchTaking(c, project, [{ stage: { id: other.id, key: other.key } }, { stage_id: other.id }, { stage_key: other.key }],
    (a) => (a.stage as Rec | undefined)?.id === other.id, 'changes the stage of');
  ensure(after.stage_changed_at !== undefined && after.stage_changed_at !== null, 'stage_changed_at is not set', res);
  ensure(JSON.stringify(after.stage_changed_at) !== JSON.stringify(project.stage_changed_at),
    `stage_changed_at is still ${JSON.stringify(project.stage_changed_at)}`, res);
  const stamp = zoned(after.stage_changed_at);
  if (stamp === undefined) c.reading('state.stage_changed_at', `${JSON.stringify(after.stage_changed_at)}: not compared with the clock (no zone)`);
  else ensure(stamp >= started - 5_000, `stage_changed_at ${String(after.stage_changed_at)} is earlier than the request`, res);
  const before = zoned(project.stage_changed_at);
  if (stamp !== undefined && before !== undefined) ensure(stamp >= before, 'stage_changed_at went back in time', res);
  await readBack(c, after, 'the stage change', ['stage_changed_at']);
}, { mutates: true });

check([
  'STATE-CLOSE-SETS-FIELDS',
], 'closing a project with close_reason and close_reason_category sets closed_at and both values', async (c) => {
  await fetchPage(c, lists.projects, { limit: 1 });
  fullShapeOnly(c);
  const candidate = scratchFor(await scratchProjects(c), 1, isOpen);
  if (!candidate) {
    const { project } = await listedProject(c, () => true);
    if (!project) return c.skip('the team has no project');
    // Even an already closed project would keep a new closed_at: the server stamps it on closing.
    return c.skip(c.ledger.irreversible(project, CLOSE_FIELDS, ['closed_at'])!);
  }
  const project = await touch(c, candidate);
  // A category value the deployment already holds, where one shows: the set of values is not shown (§2).
  const { project: categorized } = await listedProject(c, (p) => typeof p.close_reason_category === 'string' && p.close_reason_category !== '');
  // close_reason is free text (§2 string): text outside ASCII too, so that a view answering it in another charset shows
  const body = { close_reason: `conformance ${c.target.runId} Müller 東京`, close_reason_category: String(categorized?.close_reason_category ?? 'other') };
  const started = Date.now();
  // closed_at sent with the time of the request first, for a deployment that takes the stamp from the body
  const { res, after } = await patchTaking(c, project, [{ ...body, closed_at: new Date(started).toISOString() }, body, { ...body, status: 'closed' }],
    (a) => a.close_reason === body.close_reason || (typeof a.closed_at === 'string' && a.closed_at !== ''), 'closes');
  ensure(after.close_reason === body.close_reason && after.close_reason_category === body.close_reason_category,
    'close_reason or close_reason_category not stored', res);
  ensure(typeof after.closed_at === 'string' && after.closed_at !== '', 'closed_at is not set', res);
  expectStampedWithin(c, 'closed_at', after.closed_at, started, res);
  await readBack(c, after, 'closing', ['closed_at', 'close_reason', 'close_reason_category'], true);
}, { mutates: true });

check([
  'STATE-ARCHIVE-RECORDS-PRIOR',
], 'archiving a project records the prior stage and status', async (c) => {
  const scratch = scratchFor(await scratchProjects(c), 2, (p) => !p.archived_at);
  if (!scratch) {
    const { project } = await listedProject(c, () => true);
    if (!project) return c.skip('the team has no project');
    return c.skip(c.ledger.irreversible(project, ['archived_at'], ['archived_from_stage', 'archived_from_status']) ?? 'no project to archive');
  }
  const project = await touch(c, scratch);
  if (project.archived_at) return c.skip('every scratch project is archived already');
  const started = Date.now();
  const { res, after } = await patchTaking(c, project, [{ archived_at: new Date(started).toISOString() }, { status: 'archived' }],
    (a) => (typeof a.archived_at === 'string' && a.archived_at !== '') || a.status !== project.status, 'archives');
  ensure(typeof after.archived_at === 'string' && after.archived_at !== '', 'archived_at is not set', res);
  expectStampedWithin(c, 'archived_at', after.archived_at, started, res);
  ensure((after.archived_from_stage as Rec | undefined)?.id === (project.stage as Rec | undefined)?.id, 'archived_from_stage is not the stage held before',
    res);
  ensure(after.archived_from_status === project.status,
    `archived_from_status ${JSON.stringify(after.archived_from_status)} is not the prior status ${JSON.stringify(project.status)}`, res);
  await readBack(c, after, 'archiving', ['archived_at', 'archived_from_stage', 'archived_from_status'], true);
}, { mutates: true });
