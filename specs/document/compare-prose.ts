// Changes of the prose: sentences added, removed or reworded, section by section. A sentence that states a
// requirement (its normative form in §1–§9, or a catalog entry quotes it) is behaviour: its edit is judged
// by direction under §9 (./statements.ts), never passed as documentation unless its meaning-bearing tokens
// all stay. Text that states no requirement is wording.
import type { Change } from '../diff/index.js';
import type { ApiDocument } from './api-document.js';
import type { QuoteIndex } from './catalog.js';
import { documentChange } from './kinds.js';
import { isNormative, isNormativeText, placeName, similarity, type Unit } from './sentences.js';
import { judgeStatement } from './statements.js';

const placeOf = (u: Unit): string => (u.section ? `§${placeName(u)}` : placeName(u));
export const quote = (text: string): string => `"${text.length > 160 ? `${text.slice(0, 157)}...` : text}"`;

/** `; requirement X, Y quotes it`: the catalog entries a changed statement touches. */
export const quotedBy = (ids: string[]): string => (ids.length === 0 ? '' : `; quoted by ${ids.join(', ')}`);

export function compareProse(a: ApiDocument, b: ApiDocument, catalog: QuoteIndex): Change[] {
  const changes: Change[] = [];
  const normative = (u: Unit) => isNormative(u) || catalog.idsOf(u.text).length > 0;
  const judge = (old: Unit | undefined, now: Unit | undefined, what: string) => {
    const j = judgeStatement(old?.text, now?.text, [old, now].some((u) => u && normative(u)));
    const ids = [...new Set([old, now].flatMap((u) => (u ? catalog.idsOf(u.text) : [])))];
    changes.push(documentChange(j.kind, placeOf((now ?? old)!), `${what}: ${j.reason}${quotedBy(ids)}`));
  };
  const bySection = (units: Unit[]) => {
    const groups = new Map<string, Unit[]>();
    for (const u of units) {
      const key = `${u.section}\u0000${u.subsection ?? ''}`;
      groups.set(key, [...(groups.get(key) ?? []), u]);
    }
    return groups;
  };
  const [before, after] = [bySection(a.prose), bySection(b.prose)];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const [olds, news] = [before.get(key) ?? [], after.get(key) ?? []];
    const removed = olds.filter((u) => !news.some((n) => n.norm === u.norm));
    const added = news.filter((u) => !olds.some((o) => o.norm === u.norm));
    for (const old of removed) {
      const best = added.map((n) => [n, similarity(old.norm, n.norm)] as const).sort((x, y) => y[1] - x[1])[0];
      if (best && best[1] >= 0.5) {
        added.splice(added.indexOf(best[0]), 1);
        judge(old, best[0], `sentence reworded (line ${best[0].line}): ${quote(old.text)} → ${quote(best[0].text)}`);
      } else judge(old, undefined, `sentence removed (was line ${old.line}): ${quote(old.text)}`);
    }
    for (const now of added) judge(undefined, now, `sentence added (line ${now.line}): ${quote(now.text)}`);
  }
  return changes;
}

/**
 * A table cell that may carry a requirement (a field's or parameter's notes, a payload's remark, a
 * condition, a limit's value) changed: judged like a sentence, normative when either text has the form or
 * the cell is normative by its place (a known condition states when an error is answered).
 */
export function cellChange(
  old: string | undefined,
  now: string | undefined,
  location: string,
  message: string,
  options: { operation?: string; normative?: boolean; } = {},
): Change {
  const normative = options.normative ?? [old, now].some((t) => t !== undefined && isNormativeText(t));
  const j = judgeStatement(old, now, normative);
  return documentChange(j.kind, location, `${message}: ${j.reason}`, options.operation);
}
