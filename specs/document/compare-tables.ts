// Changes of the known conditions of §7, the limits of §8 and the code-span shapes of §2 (page
// envelope, delete result).
import type { Change } from '../diff/index.js';
import type { ApiDocument, Condition, Limit } from './api-document.js';
import { cellChange } from './compare-prose.js';
import { conditionKinds, documentChange, limitKinds, shapeKinds } from './kinds.js';
import { similarity } from './sentences.js';

/** `bad_request (the code is stated …)` → `bad_request`; `not specified` stays as it is. */
const codeOf = (cell: string): string => (/^not (specified|shown)/i.test(cell) ? 'not specified' : (/^[A-Za-z_.-]+/.exec(cell)?.[0] ?? cell));

export function compareConditions(a: ApiDocument, b: ApiDocument): Change[] {
  const changes: Change[] = [];
  const at = (c: Condition) => `§7 Known conditions/${c.condition}`;
  const added = [...b.conditions.values()].filter((c) => !a.conditions.has(c.condition));
  for (const old of a.conditions.values()) {
    let now = b.conditions.get(old.condition);
    if (!now) {
      // The same status and code under a reworded condition is the same condition.
      const same = added.filter((c) => c.status === old.status && codeOf(c.code) === codeOf(old.code));
      const best = same.sort((x, y) => similarity(old.condition, y.condition) - similarity(old.condition, x.condition))[0];
      if (!best || similarity(old.condition, best.condition) < 0.5) {
        changes.push(documentChange(conditionKinds.removed, at(old), `condition "${old.condition}" (${old.status} ${codeOf(old.code)}) removed`));
        continue;
      }
      added.splice(added.indexOf(best), 1);
      // A condition is a statement of when the error is answered: reworded, it may answer more or fewer requests.
      changes.push(cellChange(old.condition, best.condition, at(best), `condition reworded: "${old.condition}" → "${best.condition}"`, { normative: true }));
      now = best;
    }
    if (old.status !== now.status) {
      changes.push(documentChange(conditionKinds['status-changed'], at(now), `condition "${now.condition}": status ${old.status} → ${now.status}`));
    }
    const [was, is] = [codeOf(old.code), codeOf(now.code)];
    if (was !== is) {
      const kind = was === 'not specified' ? conditionKinds['code-specified'] : conditionKinds['code-changed'];
      changes.push(documentChange(kind, at(now), `condition "${now.condition}": code ${was} → ${is}`));
    }
  }
  for (const c of added) changes.push(documentChange(conditionKinds.added, at(c), `condition "${c.condition}" (${c.status} ${codeOf(c.code)}) added`));
  return changes;
}

const UNITS: Record<string, number> = { b: 1, bytes: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2, gb: 1e9, gib: 1024 ** 3 };

/** `25 MB` → bytes; `100 per minute` → [100, 'per minute']; undefined without a number. */
function amount(value: string): { n: number; unit: string; } | undefined {
  const m = /(\d+(?:\.\d+)?)\s*(.*)$/.exec(value.trim());
  if (!m) return undefined;
  const unit = m[2]!.trim().toLowerCase();
  return unit in UNITS ? { n: Number(m[1]) * UNITS[unit]!, unit: 'bytes' } : { n: Number(m[1]), unit };
}

export function compareLimits(a: ApiDocument, b: ApiDocument): Change[] {
  const changes: Change[] = [];
  const emit = (kind: (typeof limitKinds)[keyof typeof limitKinds], l: Limit, message: string) =>
    changes.push(documentChange(kind, `§8 Limits/${l.name}`, message));
  for (const name of new Set([...a.limits.keys(), ...b.limits.keys()])) {
    const [old, now] = [a.limits.get(name), b.limits.get(name)];
    if (!old) emit(limitKinds.added, now!, `limit "${name}" added: ${now!.value} on ${now!.appliesTo.join(', ')}`);
    else if (!now) emit(limitKinds.removed, old, `limit "${name}" removed (was ${old.value})`);
    else {
      const [x, y] = [amount(old.value), amount(now.value)];
      if (x && y && x.unit === y.unit && x.n !== y.n) {
        emit(y.n < x.n ? limitKinds.lowered : limitKinds.raised, now, `limit "${name}" ${y.n < x.n ? 'lowered' : 'raised'}: ${old.value} → ${now.value}`);
      } else if (old.value !== now.value) {
        changes.push(cellChange(old.value, now.value, `§8 Limits/${name}`, `limit "${name}": "${old.value}" → "${now.value}"`));
      }
      const more = now.appliesTo.filter((t) => !old.appliesTo.includes(t));
      const fewer = old.appliesTo.filter((t) => !now.appliesTo.includes(t));
      if (more.length > 0) emit(limitKinds['applies-to-more'], now, `limit "${name}" now also applies to ${more.join(', ')}`);
      if (fewer.length > 0) emit(limitKinds['applies-to-fewer'], now, `limit "${name}" no longer applies to ${fewer.join(', ')}`);
    }
  }
  return changes;
}

export function compareShapes(a: ApiDocument, b: ApiDocument): Change[] {
  const changes: Change[] = [];
  for (const name of new Set([...a.shapes.keys(), ...b.shapes.keys()])) {
    const [old, now] = [a.shapes.get(name), b.shapes.get(name)];
    const where = `§2 ${name}`;
    if (!old) changes.push(documentChange(shapeKinds.added, where, `${name} added: ${now!.text}`));
    else if (!now) changes.push(documentChange(shapeKinds.removed, where, `${name} removed (was ${old.text})`));
    else if (old.text !== now.text) {
      const kind = /page envelope/i.test(name) ? shapeKinds['page-envelope-changed'] : shapeKinds.changed;
      changes.push(documentChange(kind, where, `${name}: ${old.text} → ${now.text}`));
    }
  }
  return changes;
}
