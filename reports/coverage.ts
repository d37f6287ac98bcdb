import { cellId, type CellMeta, type CellPlan, DIMENSIONS, reasonedOutcome } from '../contract/check.js';
import { type Entry, NOT_SELECTED } from './check-entry.js';
import type { CheckMeta, CoverageCell, CoverageCounts, CoverageOutcome, CoverageReasonKind, ReportCoverage } from './types.js';

// The report's coverage table: every cell the global setup planned for the target (the run
// context's `coverage`), each with what this run did with it. A check leaves the outcome of its
// own cells (C5 `cells`); a cell whose check never ran, or never reached it, says why from how the
// check ended (not selected, the run stopped, failed or blocked before it). Every cell but a
// checked one carries a reason.

/** One check of the run as the report sees it: its status line and its parsed meta. */
export interface CoverageCheck {
  entry: Entry;
  meta: CheckMeta;
}

export interface CoverageRun {
  /** Some check was deselected (--only / --exclude): files with none selected were not even loaded. */
  narrowed: boolean;
  /** Why the run stopped early, if it did. */
  stopped?: string;
}

/** `title [ID-1, ID-2]` → `title`: the check's title, as the table names it. */
const titleOf = (name: string) => name.replace(/ \[[^\]]*\]$/, '');

type Why = { kind: CoverageReasonKind; text: string; };

const causeOf = (e: Entry) => (e.check.cause ? ` (root cause ${e.check.cause})` : '');

function blockedText(e: Entry): string {
  const step = e.failure?.setup?.at(-1);
  return `its check was blocked${step ? `: setup step "${step}" failed` : ': a response it needed was wrong'}${causeOf(e)}`;
}

/** A cell of a check that ran (or was skipped as a whole): its outcome from the check's mark and how the check ended. */
function ranCell(mark: CellMeta | undefined, e: Entry, meta: CheckMeta): { outcome: CoverageOutcome; reason?: Why; } {
  const status = e.check.status;
  const stopped = status === 'skipped' && (e.check.notRun !== undefined || /^not run\b/.test(e.check.reason ?? ''));
  // A check the stop cut short passed nothing: what it had run so far is not checked either.
  if (mark?.outcome === 'checked' && !stopped) {
    if (status === 'failed') return { outcome: 'failed', reason: { kind: 'check-failed', text: `run; its check failed${causeOf(e)}` } };
    if (status === 'blocked') return { outcome: 'failed', reason: { kind: 'check-blocked', text: `run; ${blockedText(e)}` } };
    return { outcome: 'checked' };
  }
  if (status === 'skipped') {
    if (e.check.reason === NOT_SELECTED) {
      const how = meta.skipReason && /^(not selected|excluded) by/.test(meta.skipReason) ? meta.skipReason : 'not selected (--only / --exclude)';
      return { outcome: 'not-run', reason: { kind: 'not-selected', text: `its check was ${how}` } };
    }
    if (stopped) {
      return { outcome: 'not-run', reason: { kind: 'stopped', text: e.check.reason ?? `not run: ${e.check.notRun}` } };
    }
    return { outcome: 'skipped', reason: { kind: 'check-skipped', text: mark?.reason ?? e.check.reason ?? 'its check was skipped' } };
  }
  if (mark?.outcome === 'skipped') return { outcome: 'skipped', reason: { kind: 'check-skipped', text: mark.reason ?? 'skipped by its check' } };
  // Not reached (or not marked at all): the check ended before it, or passed without needing it.
  if (status === 'failed') return { outcome: 'not-run', reason: { kind: 'check-failed', text: `its check failed before reaching it${causeOf(e)}` } };
  if (status === 'blocked') return { outcome: 'not-run', reason: { kind: 'check-blocked', text: blockedText(e) } };
  return { outcome: 'skipped', reason: { kind: 'not-reached', text: 'its check passed without reaching it on this target' } };
}

/** A cell whose check is not among the run's: its file was not loaded (deselected), or the run stopped first. */
function absentCell(p: CellPlan, run: CoverageRun): { outcome: CoverageOutcome; reason: Why; } {
  if (!p.check) return { outcome: 'not-run', reason: { kind: 'no-check', text: 'no check runs it' } };
  // a file none of whose checks is selected is not loaded; one the run never reached is not either
  if (run.narrowed && run.stopped) {
    return { outcome: 'not-run', reason: { kind: 'stopped', text: `not run: its check was not selected, or the run stopped first: ${run.stopped}` } };
  }
  if (run.narrowed) return { outcome: 'not-run', reason: { kind: 'not-selected', text: 'its check was not selected (--only / --exclude)' } };
  if (run.stopped) return { outcome: 'not-run', reason: { kind: 'stopped', text: `not run: ${run.stopped}` } };
  return { outcome: 'not-run', reason: { kind: 'no-check', text: 'its check did not run (see the run errors)' } };
}

/** The outcomes in the order reports count them, with their count's key and their word. */
export const COUNTED_OUTCOMES: readonly { outcome: CoverageOutcome; key: Exclude<keyof CoverageCounts, 'total'>; word: string; }[] = [
  { outcome: 'checked', key: 'checked', word: 'checked' },
  { outcome: 'failed', key: 'failed', word: 'failed' },
  { outcome: 'skipped', key: 'skipped', word: 'skipped' },
  { outcome: 'not-applicable', key: 'notApplicable', word: 'not applicable' },
  { outcome: 'not-run', key: 'notRun', word: 'not run' },
];

const zero = (): CoverageCounts => ({ checked: 0, failed: 0, skipped: 0, notApplicable: 0, notRun: 0, total: 0 });
const COUNT_KEY = Object.fromEntries(COUNTED_OUTCOMES.map((o) => [o.outcome, o.key])) as Record<CoverageOutcome, Exclude<keyof CoverageCounts, 'total'>>;

export function countCells(cells: readonly CoverageCell[]): CoverageCounts {
  const c = zero();
  for (const cell of cells) {
    c[COUNT_KEY[cell.outcome]] += 1;
    c.total += 1;
  }
  return c;
}

/** Every planned cell with its outcome on this run, and the counts per table. */
export function buildCoverage(planned: readonly CellPlan[], checks: readonly CoverageCheck[], run: CoverageRun): ReportCoverage {
  const marks = new Map<string, { mark: CellMeta; check: CoverageCheck; }>();
  const byTitle = new Map<string, CoverageCheck>();
  for (const check of checks) {
    for (const mark of check.meta.cells ?? []) if (!marks.has(cellId(mark))) marks.set(cellId(mark), { mark, check });
    const title = titleOf(check.entry.check.name);
    if (!byTitle.has(title)) byTitle.set(title, check);
  }
  const cells = planned.map((p): CoverageCell => {
    const head = { dimension: p.dimension, subject: p.subject, aspect: p.aspect };
    if (p.reason) {
      // a setting's cell names the check the setting would let run it; the others name none (no check runs them)
      const would = p.reason.kind === 'setting' && p.check ? { check: byTitle.get(p.check)?.entry.check.name ?? p.check } : {};
      return { ...head, outcome: reasonedOutcome(p.reason), reason: { kind: p.reason.kind, text: p.reason.text }, ...would };
    }
    const marked = marks.get(cellId(p));
    const check = marked?.check ?? (p.check ? byTitle.get(p.check) : undefined);
    if (!check) return { ...head, ...absentCell(p, run), ...(p.check ? { check: p.check } : {}) };
    return { ...head, ...ranCell(marked?.mark, check.entry, check.meta), check: check.entry.check.name };
  });
  const names = [...new Set([...DIMENSIONS.filter((d) => cells.some((c) => c.dimension === d)), ...cells.map((c) => c.dimension)])];
  return {
    counts: countCells(cells),
    dimensions: names.map((name) => ({ name, counts: countCells(cells.filter((c) => c.dimension === name)) })),
    cells,
  };
}
