import { readFile } from 'node:fs/promises';
import { formatSchemaErrors, validateReport } from '../../reports/schema.js';
import type { Report } from '../../reports/types.js';
import { err, EXIT_FAILED, EXIT_OK, EXIT_USAGE, out, parseFlags, usageError } from '../args.js';
import { compareReports } from './report-compare.js';
import { table } from './summary.js';

export const reportHelp = `Usage: conformance report diff <before.json> <after.json> [--json] [--strict]

Compares two conformance.json reports and lists the requirements whose status changed.

A regression is a requirement that passed before and failed after, or one that the
first report lists and the second does not. passed → skipped is shown as a change
(a narrower --only or a missing setting skips on purpose); --strict counts it as a
regression.

Options:
  --json        print { changes: [{ id, level, before, after, kind }], summary } as JSON
  --strict      also count passed → skipped as a regression
  -h, --help    show this help

Exit codes: 0 no regression; 1 at least one regression; 2 usage error or a file that
cannot be read or is not a valid report (specs/report.schema.json).
`;

const flags = { json: { type: 'boolean' }, strict: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

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
  const comparison = compareReports(a as Report, b as Report, { strict: parsed.values.strict ?? false });
  if (parsed.values.json) {
    out(JSON.stringify(comparison, null, 2));
  } else {
    const rows = [['requirement', 'level', 'before', 'after', 'kind'], ...comparison.changes.map((c) => [c.id, c.level, c.before, c.after, c.kind])];
    if (comparison.changes.length > 0) out(table(rows, false));
    const s = comparison.summary;
    out(`${s.regressions} regression(s), ${s.improvements} improvement(s), ${s.changes} other change(s), ${s.unchanged} unchanged.`);
  }
  return comparison.summary.regressions > 0 ? EXIT_FAILED : EXIT_OK;
}

export async function runReport(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'diff') return runReportDiff(rest);
  if (sub === undefined) return usageError('report', 'missing subcommand (diff)');
  return usageError('report', `unknown subcommand '${sub}' (known: diff)`);
}
