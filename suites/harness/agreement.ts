// Comparing what the views of a record show: after a change, every view agrees with what the
// change answered; after a refused request, every view shows exactly what it showed before.
import type { Rec } from '../../contract/json.js';
import { resources } from '../../specs/registry.js';
import type { CheckContext } from './check.js';
import { fail, failDiffering } from './judge/assert.js';
import { fieldDifferences } from './judge/differences.js';
import { needs } from './judge/problems.js';
import { activeRequirements, recordFinding } from './run/current.js';
import type { ApiResponse } from './transport/client.js';
import { excerptAt } from './transport/excerpt.js';
import { canonical, disagreements, type Seen, type View } from './views.js';
import { EMBEDDED_RULE, embeddedFindingKey, fieldFindingKey, whereOf, writeConcern } from './wrong-fields.js';

/** A view that cannot be read within the page budget is recorded, not guessed. */
function unread(c: CheckContext, view: View, seen: Seen): boolean {
  if (seen.state !== 'unknown') return false;
  c.reading(`views.unread ${view.name}`, seen.why);
  return true;
}

/**
 * An embedded copy that disagrees: the embedding's finding (one cause however many fields, records
 * and checks show it), failing the embedding's requirement; the check goes on with the other views.
 */
function staleCopy(
  view: View & { embedding: NonNullable<View['embedding']>; },
  seen: Extract<Seen, { state: 'present'; }>,
  expected: Rec,
  diff: readonly string[],
): void {
  const { parent, property } = view.embedding;
  const key = embeddedFindingKey(parent, property);
  const requirements = [EMBEDDED_RULE[`${parent}.${property}`] ?? 'EP-PATCH-PERSISTS'];
  const where = whereOf(seen.res);
  const shown = diff.map((f) => `${f}=${f in seen.record ? JSON.stringify(seen.record[f]) : 'absent'} for ${JSON.stringify(expected[f])}`).join(', ');
  recordFinding(() => ({
    key,
    requirements,
    message: `the ${property} embedded in ${parent} is not the ${property} as it is: ${shown} (${view.name})`,
    pointer: seen.at,
    seenIn: [where],
    count: 1,
    request: seen.res.exchange.request,
    ...(seen.res.exchange.response ? { response: seen.res.exchange.response } : {}),
    curl: seen.res.exchange.curl,
    ...(seen.res.body !== undefined ? { excerpt: excerptAt(seen.res.body, seen.at) } : {}),
  }), key, where, requirements);
}

/** The properties of a resource's records that hold a copy of another record (an assignment's `employee`). */
export const copiesIn = (parent: string): string[] => resources().flatMap((r) => r.embeddedIn.filter((e) => e.parent === parent).map((e) => e.property));

/**
 * Of the fields a record of `resource` shows otherwise than `expected`, the embedded copies are the
 * embedding's finding (recorded here, with `at` the record's pointer in the body); the rest are returned.
 */
export function ownFields(res: ApiResponse, resource: string, fields: readonly string[], expected: Rec, got: Rec, at = ''): string[] {
  const copies = copiesIn(resource);
  for (const property of fields.filter((f) => copies.includes(f))) {
    const [e, g] = [expected[property], got[property]];
    if (!isRec(e) || !isRec(g)) continue;
    const name = `${property} embedded in ${whereOf(res)}`;
    staleCopy({ name, read: async () => ({ state: 'unknown', why: '' }), embedding: { parent: resource, property } }, {
      state: 'present',
      record: g,
      res,
      at: `${at}/${property}`,
    }, e, disagreements(e, g));
  }
  return fields.filter((f) => !copies.includes(f) || !isRec(expected[f]) || !isRec(got[f]));
}

const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Every view shows `expected` (each field it shows equals the expected value, `ignore` aside), or
 * — with 'absent' — none shows the record. Returns the views it judged (not those left unread).
 *
 * One wrong field is one cause wherever it shows: a field every view read shows otherwise is that
 * field's (the finding key of a field not as sent), a field only some views show otherwise is
 * those views' (a stale list, a cache); either fails the persistence rule of the step or check.
 * An embedded copy shown otherwise is the embedding's finding, and the check reads on.
 */
export async function expectEveryView(
  c: CheckContext,
  views: readonly View[],
  expected: Rec | 'absent',
  what: string,
  ignore: readonly string[] = [],
): Promise<View[]> {
  // reads: sent together (the client bounds how many are in flight), judged in order
  const seens = await Promise.all(views.map((v) => v.read()));
  const diffs = views.map((_, i) => {
    const seen = seens[i]!;
    if (expected === 'absent' || seen.state !== 'present') return [];
    // An embedded copy is the record itself (§2 Assignment: `employee` is an "Employee object"): a
    // field the record shows and its copy leaves out is a difference (a relation not loaded), where
    // another view of a list or GET may show fewer fields as a shape question of its own.
    const left = views[i]!.embedding ? Object.keys(expected).filter((k) => !ignore.includes(k) && !(k in seen.record)) : [];
    return [...disagreements(expected, seen.record, ignore), ...left];
  });
  // the fields every directly read view (not a copy) that shows the record shows otherwise
  const direct = views.flatMap((v, i) => {
    const copies = v.resource ? copiesIn(v.resource) : [];
    return !v.embedding && seens[i]!.state === 'present' ? [diffs[i]!.filter((f) => !copies.includes(f))] : [];
  });
  const everywhere = (f: string) => direct.length > 0 && direct.every((d) => d.includes(f));
  const judged: View[] = [];
  for (const [i, view] of views.entries()) {
    const seen = seens[i]!;
    // a search that ran and does not show a record that must be gone shows it gone
    if (expected === 'absent' && seen.state === 'unknown' && seen.missed) {
      judged.push(view);
      continue;
    }
    if (unread(c, view, seen)) continue;
    judged.push(view);
    if (expected === 'absent') {
      if (seen.state === 'present') fail(`${what}: ${view.name} still shows it`, seen.res);
      continue;
    }
    if (seen.state !== 'present') return fail(`${what}: ${view.name} does not show it`, seen.state === 'absent' ? seen.res : undefined);
    // A field the audit found wrong in that response cannot be compared: the check is blocked by it.
    needs(seen.res, diffs[i]!.map((f) => `${seen.at}/${f}`));
    if (view.embedding) {
      if (!diffs[i]!.length) continue;
      // After a create, a copy made since cannot be stale: it shows what was stored (the record's
      // persistence, the field's cause). After a change, it is the embedding's, and the check reads on.
      if (!activeRequirements().includes('EP-CREATE-PERSISTS')) {
        staleCopy({ ...view, embedding: view.embedding }, seen, expected, diffs[i]!);
        continue;
      }
    }
    // a copy the record embeds (an assignment's employee) shown stale is the embedding's finding
    const diff = view.resource && !view.embedding ? ownFields(seen.res, view.resource, diffs[i]!, expected, seen.record, seen.at) : diffs[i]!;
    if (!diff.length) continue;
    const field = diff.find(everywhere);
    const key = field !== undefined && view.resource
      ? fieldFindingKey(view.resource, field)
      : `view ${view.surface ?? view.name} | shows a write otherwise`;
    const concerning = writeConcern(key, field !== undefined && view.resource ? { resource: view.resource, field } : undefined);
    failDiffering(`${what}: ${view.name} shows otherwise`, fieldDifferences(seen.record, expected, diff), seen.res, concerning);
  }
  return judged;
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
