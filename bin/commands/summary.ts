import type { Report, ReportRequirement } from '../../reports/types.js';

// The end-of-run summary: counts by level and status, each failed requirement with its
// first failure message, and where the reports are.

const STATUSES = ['passed', 'failed', 'skipped', 'not-testable'] as const;
const LEVELS = ['must', 'implied', 'not-testable'] as const;

/** Plain-text table; the first column is left-aligned, the others right-aligned when numeric. */
export function table(rows: readonly (readonly string[])[], numeric = true): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const pad = (cell: string, i: number) => (i > 0 && numeric ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0));
  return rows.map((r) => r.map(pad).join('  ').trimEnd()).join('\n');
}

const firstLine = (text: string, max = 110) => {
  const line = text.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** A must or implied requirement failed or was blocked (could not be checked): the run does not conform. */
export const blockingFailures = (report: Report): ReportRequirement[] =>
  report.requirements.filter((r) => (r.status === 'failed' || r.status === 'blocked') && (r.level === 'must' || r.level === 'implied'));

export function formatSummary(report: Report, files: { html: string; json: string; junit: string }): string {
  const t = report.target;
  const rows = [['requirements', ...STATUSES, 'total']];
  for (const level of LEVELS) {
    const reqs = report.requirements.filter((r) => r.level === level);
    rows.push([level, ...STATUSES.map((s) => String(reqs.filter((r) => r.status === s).length)), String(reqs.length)]);
  }
  const s = report.summary;
  rows.push(['all', String(s.passed), String(s.failed), String(s.skipped), String(s.notTestable), String(s.total)]);
  const lines = [
    '',
    `Conformance of ${t.kind}${t.baseUrl ? ` ${t.baseUrl}` : ''}${t.shape ? ` (shape ${t.shape})` : ''} to API document ${report.specVersion}; seed ${report.seed ?? 'n/a'}; ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    table(rows),
  ];
  const failed = report.requirements.filter((r) => r.status === 'failed');
  if (failed.length > 0) {
    lines.push('', 'Failed requirements:');
    const width = Math.max(...failed.map((r) => r.id.length + r.level.length + 3));
    for (const r of failed) lines.push(`  ${`${r.id} (${r.level})`.padEnd(width)}  ${firstLine(r.failures[0]?.message ?? 'failed')}`);
  }
  if (report.errors.length > 0) {
    lines.push('', 'Run errors:');
    for (const e of report.errors) lines.push(`  ${e.source}: ${firstLine(e.message)}`);
  }
  lines.push('', `Reports: ${files.html}`, `         ${files.json}`, `         ${files.junit}`, '');
  return lines.join('\n');
}
