// Changes of the prose: sentences added, removed or reworded, section by section. The diff cannot tell
// what a sentence means, so each is a wording change (documentation); the normative ones among them are
// counted so the version report can send the author to `conformance requirements check`.
import type { Change } from '../diff/index.js';
import type { ApiDocument } from './api-document.js';
import { documentChange, proseKinds } from './kinds.js';
import { isNormative, placeName, similarity, type Unit } from './sentences.js';

export interface ProseChanges {
  changes: Change[];
  /** How many of the changes touch a normative sentence (old or new). */
  normative: number;
}

const placeOf = (u: Unit): string => (u.section ? `§${placeName(u)}` : placeName(u));
const quote = (text: string): string => `"${text.length > 160 ? `${text.slice(0, 157)}...` : text}"`;

export function compareProse(a: ApiDocument, b: ApiDocument): ProseChanges {
  const result: ProseChanges = { changes: [], normative: 0 };
  const emit = (kind: (typeof proseKinds)[keyof typeof proseKinds], unit: Unit, message: string, ...touched: Unit[]) => {
    result.changes.push(documentChange(kind, placeOf(unit), message));
    if (touched.some(isNormative)) result.normative += 1;
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
        emit(proseKinds.reworded, best[0], `sentence reworded (line ${best[0].line}): ${quote(old.text)} → ${quote(best[0].text)}`, old, best[0]);
      } else emit(proseKinds.removed, old, `sentence removed (was line ${old.line}): ${quote(old.text)}`, old);
    }
    for (const now of added) emit(proseKinds.added, now, `sentence added (line ${now.line}): ${quote(now.text)}`, now);
  }
  return result;
}
