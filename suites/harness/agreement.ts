// Comparing what the views of a record show: after a change, every view agrees with what the
// change answered; after a refused request, every view shows exactly what it showed before.
import type { Rec } from '../../contract/json.js';
import type { CheckContext } from './check.js';
import { fail, failDiffering } from './judge/assert.js';
import { fieldDifferences } from './judge/differences.js';
import { needs } from './judge/problems.js';
import { canonical, disagreements, type Seen, type View } from './views.js';

/** A view that cannot be read within the page budget is recorded, not guessed. */
function unread(c: CheckContext, view: View, seen: Seen): boolean {
  if (seen.state !== 'unknown') return false;
  c.reading(`views.unread ${view.name}`, seen.why);
  return true;
}

/**
 * Every view shows `expected` (each field it shows equals the expected value, `ignore` aside), or
 * — with 'absent' — none shows the record.
 */
export async function expectEveryView(
  c: CheckContext,
  views: readonly View[],
  expected: Rec | 'absent',
  what: string,
  ignore: readonly string[] = [],
): Promise<void> {
  // reads: sent together (the client bounds how many are in flight), judged in order
  const seens = await Promise.all(views.map((v) => v.read()));
  for (const [i, view] of views.entries()) {
    const seen = seens[i]!;
    if (unread(c, view, seen)) continue;
    if (expected === 'absent') {
      if (seen.state === 'present') fail(`${what}: ${view.name} still shows it`, seen.res);
      continue;
    }
    if (seen.state !== 'present') return fail(`${what}: ${view.name} does not show it`, seen.state === 'absent' ? seen.res : undefined);
    const diff = disagreements(expected, seen.record, ignore);
    // A field the audit found wrong in that response cannot be compared: the check is blocked by it.
    needs(seen.res, diff.map((f) => `${seen.at}/${f}`));
    if (diff.length) failDiffering(`${what}: ${view.name} shows otherwise`, fieldDifferences(seen.record, expected, diff), seen.res);
  }
}

export interface Observation {
  view: View;
  seen: Seen;
  key: string;
}

/** What each view shows now, as comparable text. */
export async function observe(views: readonly View[]): Promise<Observation[]> {
  const seens = await Promise.all(views.map((v) => v.read()));
  return views.map((view, i) => {
    const seen = seens[i]!;
    return { view, seen, key: seen.state === 'present' ? canonical(seen.record) : seen.state };
  });
}

/** Fails when a view shows anything else than it did `before` (views unread both times aside). */
export async function expectUnchanged(c: CheckContext, before: readonly Observation[], what: string): Promise<void> {
  const after = await observe(before.map((o) => o.view));
  after.forEach((now, i) => {
    const was = before[i]!;
    if (unread(c, now.view, now.seen) || was.seen.state === 'unknown' || now.key === was.key) return;
    const res = now.seen.state === 'unknown' ? undefined : now.seen.res;
    if (was.seen.state !== 'present' || now.seen.state !== 'present') {
      return fail(`${what}, yet ${now.view.name} went from ${was.seen.state} to ${now.seen.state}`, res);
    }
    const [a, b] = [was.seen.record, now.seen.record];
    // A field gone wrong since is a trace of the refused request, not a reason not to compare.
    const changed = Object.keys({ ...a, ...b }).filter((k) => canonical(a[k]) !== canonical(b[k]));
    failDiffering(`${what}, yet ${now.view.name} changed (got: now, expected: as before)`, fieldDifferences(b, a, changed), res);
  });
}
