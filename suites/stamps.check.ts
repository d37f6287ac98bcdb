// The stamps of §2 and §3 on every resource with a PATCH: "created_at, updated_at | string
// (timestamp)" — created_at is when the record was made and a PATCH leaves it; updated_at is when
// it last changed, so a PATCH that changes a field moves it forward; "A stage change is stamped in
// `stage_changed_at`" — and only a stage change: a PATCH of another field leaves every other stamp
// (stage_changed_at, archived_at, closed_at) as it was. The answer and every view must agree.
import type { Rec } from '../contract/json.js';
import { operations } from '../specs/surface.js';
import { expectEveryView } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { expectStatus, fail } from './harness/judge/assert.js';
import { instantOf } from './harness/judge/instants.js';
import { expectResource } from './harness/judge/problems.js';
import { type Operation, recordKind, servedOperations } from './harness/plan/operations.js';
import { markedText } from './harness/records.js';
import { createOf, patchTarget, send, subjectOf, textFieldOf } from './harness/subjects.js';
import { viewsOf } from './harness/views.js';

/** Stamped by the server on any write (§2 lists them): they may move with any change. */
const WRITE_STAMPS = ['updated_at', 'last_activity_at'];
const show = (v: unknown) => JSON.stringify(v) ?? 'undefined';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a timestamp is spelled with a fraction of a second: two writes a few milliseconds apart then differ. */
const subSecond = (v: unknown) => typeof v === 'string' && /[T ]\d\d:\d\d:\d\d[.,]\d/.test(v);

/** The free-text field a PATCH can change without a §3 transition (the run's marked text). */
function changeOf(c: CheckContext, op: Operation): string | undefined {
  const create = createOf(c, op.resource);
  return (create ? textFieldOf(create) : undefined)?.name ?? op.fields.find((f) => ['notes', 'description', 'title'].includes(f.name))?.name;
}

for (const op of operations().filter((o) => o.kind === 'patch' && o.body)) {
  check([
    'RES-UPDATED-AT-MOVES',
    'RES-CREATED-AT-STABLE',
    'STATE-STAGE-CHANGE-STAMPED',
  ], `stamps: ${op.op} of a field moves updated_at forward and leaves created_at and every other stamp, in the answer and every view`, async (c) => {
    const live = servedOperations(c.settings).find((o) => o.op === op.op)!;
    const field = changeOf(c, live);
    if (!field) return c.skip(`${live.op} names no free-text field to change`);
    const before = await patchTarget(c, live);
    // a deployment stamping whole seconds needs a second between two writes for them to differ
    await sleep(subSecond(before.updated_at ?? before.created_at) ? 15 : 1_100);
    const started = Date.now();
    const value = typeof before[field] === 'string' && String(before[field]).startsWith('conformance') ? markedText(c) : `${markedText(c)} stamp`;
    const res = await send(c, live, { id: String(before.id), sent: { body: { [field]: value } } });
    expectStatus(res, '2xx', `${live.op} of ${field}`);
    const after = expectResource(res, recordKind(live)!, `${live.op} answer`);
    const what = `${live.op} of ${field} alone`;
    if ('created_at' in before) {
      if (!('created_at' in after) || instantOf(after.created_at) !== instantOf(before.created_at)) {
        fail(`${what} moved created_at from ${show(before.created_at)} to ${show(after.created_at)}`, res);
      }
    }
    if ('updated_at' in before && 'updated_at' in after) {
      const was = instantOf(before.updated_at)!;
      const now = instantOf(after.updated_at)!;
      if (!(now > was)) fail(`${what} left updated_at at ${show(after.updated_at)} (before: ${show(before.updated_at)}): a change is not stamped`, res);
      const created = instantOf(after.created_at);
      if (created !== undefined && now < created) {
        fail(`${what} answered updated_at ${show(after.updated_at)}, before created_at ${show(after.created_at)}`, res);
      }
      // a stamp written from the server's clock at the request: not older than a few minutes before it
      if (now < started - 5 * 60_000 && subSecond(after.updated_at)) {
        c.warn('stamps.clock', `updated_at ${after.updated_at} is older than the request by minutes`);
      }
    }
    // every other stamp of §2 and §3 (stage_changed_at, archived_at, closed_at…) is left as it was
    const stamps = Object.keys(before).filter((k) => k.endsWith('_at') && !WRITE_STAMPS.includes(k) && k !== 'created_at');
    const moved = stamps.filter((k) => !(k in after) || instantOf(after[k]) !== instantOf(before[k]));
    if (moved.length) fail(`${what} moved ${moved.map((k) => `${k} ${show(before[k])} → ${show(after[k])}`).join(', ')}`, res);
    // the stamps as answered, in every view: not only in the answer
    await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, after)), after as Rec, `after ${what}`);
  }, { mutates: true });
}
