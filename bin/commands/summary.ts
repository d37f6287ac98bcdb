// The plain-text table of `report diff`. The end-of-run summary itself is printed by the reporter
// (reports/terminal.ts), also when vitest runs the suites directly; what decides the exit code of a
// run is its verdict (reports/verdict.ts).

/** Plain-text table; the first column is left-aligned, the others right-aligned when numeric. */
export function table(rows: readonly (readonly string[])[], numeric = true): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const pad = (cell: string, i: number) => (i > 0 && numeric ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0));
  return rows.map((r) => r.map(pad).join('  ').trimEnd()).join('\n');
}
