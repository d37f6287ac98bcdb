import type { Report, RequirementStatus } from '../../reports/types.js';
import { incompleteBecause } from '../../reports/verdict.js';

// Two runs compared requirement by requirement, as a gate. A regression is a must or implied
// requirement that passed or was skipped before and fails (or is blocked) now, any requirement
// that passed before and fails now, or one the first report lists and the second does not. A pass
// that became a skip is a change, no regression unless --strict: a narrower --only or a missing
// setting skips checks on purpose. A second run that did not finish (interrupted, stopped early,
// broken) is no verdict at all: it fails the gate unless the caller allows it.

export type Before = RequirementStatus | 'absent';
export type ChangeKind = 'regression' | 'improvement' | 'change';

export interface StatusChange {
  id: string;
  level: string;
  before: Before;
  after: Before;
  kind: ChangeKind;
  /** The second run's root cause of a failure or block (Report.causes id). */
  cause?: string;
}

export interface Comparison {
  changes: StatusChange[];
  /** The second run's causes the changes name, in its order. */
  causes: { id: string; message: string; }[];
  /** Why each run is incomplete, when it is. */
  incomplete: { before?: string; after?: string; };
  summary: { regressions: number; improvements: number; changes: number; unchanged: number; };
  /** Whether the gate fails: a regression, or an incomplete second run not allowed. */
  fails: boolean;
}

export interface CompareOptions {
  /** passed → skipped counts as a regression. */
  strict?: boolean;
  /** An incomplete second run does not fail the gate by itself. */
  allowIncomplete?: boolean;
}

const gating = (level: string) => level === 'must' || level === 'implied';
const bad = (s: Before) => s === 'failed' || s === 'blocked';

function kindOf(level: string, before: Before, after: Before, strict: boolean): ChangeKind {
  if (after === 'absent') return 'regression';
  if (bad(after) && (before === 'passed' || (gating(level) && (before === 'skipped' || before === 'absent')))) return 'regression';
  if (strict && before === 'passed' && after === 'skipped') return 'regression';
  if (after === 'passed') return 'improvement';
  return 'change';
}

export function compareReports(a: Report, b: Report, options: CompareOptions = {}): Comparison {
  const before = new Map(a.requirements.map((r) => [r.id, r]));
  const after = new Map(b.requirements.map((r) => [r.id, r]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const changes: StatusChange[] = [];
  let unchanged = 0;
  for (const id of ids) {
    const x = before.get(id);
    const y = after.get(id);
    const from: Before = x?.status ?? 'absent';
    const to: Before = y?.status ?? 'absent';
    if (from === to) {
      unchanged++;
      continue;
    }
    const level = (y ?? x)?.level ?? '';
    const cause = bad(to) ? y?.causes?.[0] : undefined;
    changes.push({ id, level, before: from, after: to, kind: kindOf(level, from, to, options.strict ?? false), ...(cause ? { cause } : {}) });
  }
  const order: Record<ChangeKind, number> = { regression: 0, improvement: 1, change: 2 };
  changes.sort((p, q) => order[p.kind] - order[q.kind] || p.id.localeCompare(q.id));
  const count = (k: ChangeKind) => changes.filter((c) => c.kind === k).length;
  const named = new Set(changes.flatMap((c) => c.cause ?? []));
  const causes = (b.causes ?? []).filter((c) => named.has(c.id)).map(({ id, message }) => ({ id, message }));
  const incomplete = { ...(incompleteBecause(a) ? { before: incompleteBecause(a) } : {}), ...(incompleteBecause(b) ? { after: incompleteBecause(b) } : {}) };
  const summary = { regressions: count('regression'), improvements: count('improvement'), changes: count('change'), unchanged };
  return { changes, causes, incomplete, summary, fails: summary.regressions > 0 || (incomplete.after !== undefined && !options.allowIncomplete) };
}
