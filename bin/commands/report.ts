import { readFile } from 'node:fs/promises';
import { formatSchemaErrors, validateReport } from '../../reports/schema.js';
import type { Report } from '../../reports/types.js';
import { err, EXIT_FAILED, EXIT_OK, EXIT_USAGE, out, parseFlags, usageError } from '../args.js';
import { compareReports, type Comparison, type StatusChange } from './report-compare.js';
import { table } from './summary.js';

export const reportHelp = `Usage: conformance report diff <before.json> <after.json> [--json] [--strict] [--allow-incomplete]

Compares two conformance.json reports as a gate: the requirements whose status changed,
regressions first, grouped by the root cause the second report gives them.

A regression is a must or implied requirement that passed or was skipped before and is
failed or blocked after, any requirement that passed before and failed after, or one the
first report lists and the second does not. passed → skipped is shown as a change (a
narrower --only or a missing setting skips on purpose); --strict counts it as a regression.
A second report of a run that did not finish (interrupted, stopped early, a suite that did
not load) fails the gate: its statuses are no verdict. --allow-incomplete compares anyway.

Options:
  --json              print { changes: [{ id, level, before, after, kind, cause }], causes,
                      incomplete, summary, fails } as JSON
  --strict            also count passed → skipped as a regression
  --allow-incomplete  an incomplete second run does not fail the gate by itself
  -h, --help          show this help

Exit codes: 0 the gate passes; 1 a regression, or an incomplete second run; 2 usage error
or a file that cannot be read or is not a valid report (specs/report.schema.json).
`;

const flags = {
  json: { type: 'boolean' },
  strict: { type: 'boolean' },
  'allow-incomplete': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function load(path: string): Promise<Report | string> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return `cannot read ${path}: ${code ?? (e as Error).message}`;
  }
  const result = validateReport(value);
  return result.valid ? (value as Report) : `${path} is not a conformance report:\n${formatSchemaErrors(result.errors)}`;
}

async function runReportDiff(argv: string[]): Promise<number> {
  const parsed = parseFlags(argv, flags);
  if (!parsed.ok) return usageError('report diff', parsed.message);
  if (parsed.positionals.length !== 2) return usageError('report diff', `expected two report files, got ${parsed.positionals.length}`);
  const [a, b] = await Promise.all(parsed.positionals.map(load));
  for (const r of [a, b]) {
    if (typeof r === 'string') {
      err(`conformance report diff: ${r}`);
      return EXIT_USAGE;
    }
  }
  const comparison = compareReports(a as Report, b as Report, {
    strict: parsed.values.strict ?? false,
    allowIncomplete: parsed.values['allow-incomplete'] ?? false,
  });
  if (parsed.values.json) out(JSON.stringify(comparison, null, 2));
  else out(renderComparison(comparison, parsed.positionals as [string, string]));
  return comparison.fails ? EXIT_FAILED : EXIT_OK;
}

/** Regressions grouped by their cause in the second report, then the other changes, then the counts. */
function renderComparison(c: Comparison, [first, second]: [string, string]): string {
  const lines: string[] = [];
  if (c.incomplete.after) {
    lines.push(`${second} is of an incomplete run: ${c.incomplete.after}`, c.summary.regressions === 0 && !c.fails
      ? '  (allowed by --allow-incomplete)'
      : '  its statuses are no verdict: the gate fails (--allow-incomplete to compare anyway)');
  }
  if (c.incomplete.before) lines.push(`${first} is of an incomplete run: ${c.incomplete.before}; what it did not check shows as changes`);
  const row = (x: StatusChange) => [`    ${x.id}`, x.level, `${x.before} → ${x.after}`];
  const regressions = c.changes.filter((x) => x.kind === 'regression');
  if (regressions.length > 0) {
    lines.push('', `Regressions (${regressions.length}), by cause in ${second}:`);
    const groups = [...c.causes.map((cause) => ({ title: `  ${cause.id}  ${cause.message}`, id: cause.id as string | undefined })), {
      title: '  no cause recorded (gone from the report, or failed without evidence)',
      id: undefined,
    }];
    for (const g of groups) {
      const members = regressions.filter((x) => x.cause === g.id);
      if (members.length > 0) lines.push(g.title, table(members.map(row), false));
    }
  }
  const others = c.changes.filter((x) => x.kind !== 'regression');
  if (others.length > 0) lines.push('', 'Other changes:', table(others.map((x) => [...row(x), x.kind]), false));
  const s = c.summary;
  lines.push('', `${s.regressions} regression(s), ${s.improvements} improvement(s), ${s.changes} other change(s), ${s.unchanged} unchanged.`);
  return lines.join('\n').replace(/^\n/, '');
}

export async function runReport(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'diff') return runReportDiff(rest);
  if (sub === undefined) return usageError('report', 'missing subcommand (diff)');
  return usageError('report', `unknown subcommand '${sub}' (known: diff)`);
}
