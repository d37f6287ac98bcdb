import type { Report, RequirementStatus } from '../../reports/types.js';

// Two runs compared requirement by requirement. A regression is a requirement that
// passed before and fails (or is blocked) now, or that was reported before and is missing now. A pass
// that became a skip is reported as a change but is no regression unless --strict: a
// narrower --only or a missing setting skips checks on purpose.

export type Before = RequirementStatus | 'absent';
export type ChangeKind = 'regression' | 'improvement' | 'change';

export interface StatusChange {
  id: string;
  level: string;
  before: Before;
  after: Before;
  kind: ChangeKind;
}

export interface Comparison {
  changes: StatusChange[];
  summary: { regressions: number; improvements: number; changes: number; unchanged: number; };
}

function kindOf(before: Before, after: Before, strict: boolean): ChangeKind {
  if (after === 'absent') return 'regression';
  if (before === 'passed' && (after === 'failed' || after === 'blocked')) return 'regression';
  if (strict && before === 'passed' && after === 'skipped') return 'regression';
  if (after === 'passed') return 'improvement';
  return 'change';
}

export function compareReports(a: Report, b: Report, options: { strict?: boolean; } = {}): Comparison {
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
    changes.push({ id, level: (y ?? x)?.level ?? '', before: from, after: to, kind: kindOf(from, to, options.strict ?? false) });
  }
  const order: Record<ChangeKind, number> = { regression: 0, improvement: 1, change: 2 };
  changes.sort((p, q) => order[p.kind] - order[q.kind] || p.id.localeCompare(q.id));
  const count = (k: ChangeKind) => changes.filter((c) => c.kind === k).length;
  return { changes, summary: { regressions: count('regression'), improvements: count('improvement'), changes: count('change'), unchanged } };
}
