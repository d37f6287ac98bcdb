import type { Report, ReportRequirement } from '../../reports/types.js';

// What decides the exit code of a run, and the plain-text table of `report diff`. The end-of-run
// summary itself is printed by the reporter (reports/terminal.ts), also when vitest runs the suites
// directly.

/** Plain-text table; the first column is left-aligned, the others right-aligned when numeric. */
export function table(rows: readonly (readonly string[])[], numeric = true): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const pad = (cell: string, i: number) => (i > 0 && numeric ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0));
  return rows.map((r) => r.map(pad).join('  ').trimEnd()).join('\n');
}

/** A must or implied requirement failed or was blocked (could not be checked): the run does not conform. */
export const blockingFailures = (report: Report): ReportRequirement[] =>
  report.requirements.filter((r) => (r.status === 'failed' || r.status === 'blocked') && (r.level === 'must' || r.level === 'implied'));
