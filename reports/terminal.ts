import { dirname, join } from 'node:path';
import { headline } from './causes.js';
import type { Paint } from './colour.js';
import { COUNTED_OUTCOMES } from './coverage.js';
import type { Difference, Report, ReportCheck, RootCause } from './types.js';
import { verdictOf } from './verdict.js';

// The end-of-run summary a person reads first: the verdict in words (conforms, does not conform,
// run incomplete and why), the target, one line of counts, then the root causes, each with its
// one-line message, what it failed and blocked, the request, the part of the response around what
// is wrong, the curl and the command that runs it again; then skipped and blocked reasons grouped,
// warnings, run errors, and one block of report paths. A count of zero is never coloured. No stack
// traces unless asked for (--verbose).

export interface TerminalOptions {
  paint: Paint;
  paths?: { html: string; json: string; junit: string; };
  /** Check name → the stacks vitest recorded; printed only when given. */
  stacks?: ReadonlyMap<string, readonly string[]>;
  /** Root causes shown in full; the others are counted. */
  maxCauses?: number;
}

const BODY_BYTES = 160;
const one = (s: string) => s.replace(/\s*\n\s*/g, ' ');
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function idList(ids: readonly string[], max = 6): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} (+${ids.length - max} more)`;
}

/** Every check once (a check covering several requirements is listed under each). */
export function uniqueChecks(report: Report): ReportCheck[] {
  const seen = new Map<string, ReportCheck>();
  for (const r of report.requirements) for (const c of r.checks) seen.set(`${c.concern}\u0000${c.name}`, c);
  return [...seen.values()];
}

/** The verdict, first: a mark, the verdict in capitals, and why. */
function verdictLine(report: Report, p: Paint): string {
  const v = verdictOf(report);
  const [word, ...why] = v.text.split(': ');
  const rest = why.join(': ');
  if (v.kind === 'conforms') return `${p.green('✓')} ${p.bold(p.green(word!.toUpperCase()))}: ${rest}`;
  if (v.kind === 'does-not-conform') return `${p.red('✗')} ${p.bold(p.red(word!.toUpperCase()))}: ${rest}`;
  return `${p.yellow('!')} ${p.bold(p.yellow(word!.toUpperCase()))}: ${rest}`;
}

/** Requirements skipped only because the run stopped before their checks ran. */
export const notRunCount = (report: Report): number =>
  report.requirements.filter((r) =>
    r.status === 'skipped' && r.checks.length > 0 && r.checks.every((c) => c.notRun !== undefined || /^not run/.test(c.reason ?? ''))
  )
    .length;

function countsLine(report: Report, p: Paint): string {
  const s = report.summary;
  const blocked = s.blocked ?? 0;
  // A colour draws the eye: only to a count that is not zero.
  const count = (n: number, word: string, colour: (t: string) => string) => (n ? colour(`${n} ${word}`) : `${n} ${word}`);
  const notRun = notRunCount(report);
  const parts = [
    count(s.failed, 'failed', p.red),
    blocked ? p.yellow(`${blocked} blocked`) : '',
    count(s.passed, 'passed', p.green),
    `${s.skipped} skipped${notRun ? ` (${notRun} not run: the run stopped)` : ''}`,
    `${s.notTestable} not testable`,
  ].filter(Boolean);
  const checks = uniqueChecks(report);
  const by = (st: string) => checks.filter((c) => c.status === st).length;
  const checkParts = (['failed', 'blocked', 'passed', 'skipped'] as const).filter((st) => by(st) > 0).map((st) => `${by(st)} ${st}`);
  const checked = report.requirements.filter((r) => r.checks.some((c) => c.concern !== 'responses')).length;
  return `${parts.join(' · ')} — of ${s.total} requirements, ${checked} with checks against the target (${plural(checks.length, 'check')}${
    checkParts.length ? `: ${checkParts.join(', ')}` : ''
  })`;
}

/** The coverage table's counts in one line; a count of zero is not coloured. */
function coverageLine(report: Report, p: Paint): string | undefined {
  const c = report.coverage?.counts;
  if (!c) return undefined;
  const colour: Record<string, (s: string) => string> = { checked: p.green, failed: p.red, 'not-run': p.yellow };
  const parts = COUNTED_OUTCOMES.map(({ outcome, key, word }, i) => {
    const text = `${c[key].toLocaleString('en-US')} ${i === 0 ? `of ${c.total.toLocaleString('en-US')} cells ` : ''}${word}`;
    return c[key] && colour[outcome] ? colour[outcome](text) : text;
  });
  return `coverage: ${parts.join(' · ')} (why, cell by cell: the report's Coverage)`;
}

function causeLines(c: RootCause, n: number, p: Paint, dir?: string): string[] {
  const f = c.failure;
  const label = (s: string) => p.dim(s.padEnd(9));
  const lines = [`${p.bold(`${n}.`)} ${p.bold(cut(headline(c.message), 240))}`];
  if (c.failed.length) lines.push(`   ${label('failed')}${p.red(idList(c.failed))}`);
  if (c.blocked.length) {
    const via = c.setup.length ? ` — setup step ${c.setup.map((s) => `"${s}"`).join(', ')} failed` : '';
    const checks = c.checks.blocked.length ? ` (${plural(c.checks.blocked.length, 'check')})` : '';
    lines.push(`   ${label('blocked')}${p.yellow(`${plural(c.blocked.length, 'requirement')}${checks}`)}${via}`);
  } else if (c.setup.length) lines.push(`   ${label('in setup')}${c.setup.join(', ')}`);
  if (c.seenIn?.length) lines.push(`   ${label('seen in')}${c.responses ?? 1} response${c.responses === 1 ? '' : 's'} of ${idList(c.seenIn, 4)}`);
  for (const d of (f.differences ?? []).slice(0, DIFFERENCES_SHOWN)) lines.push(`   ${label('differs')}${cut(differenceText(d), 240)}`);
  if ((f.differences?.length ?? 0) > DIFFERENCES_SHOWN) lines.push(`   ${label('')}… ${f.differences!.length - DIFFERENCES_SHOWN} more in the report`);
  // The requests that made what the failing request read: an upload's filename may be the trigger.
  for (const s of f.state ?? []) lines.push(`   ${label('after')}${cut(s.summary, 240)}`);
  if (f.request) lines.push(`   ${label('request')}${f.request.method} ${f.request.url}`);
  if (f.response) lines.push(`   ${label('response')}${f.response.status} ${f.excerpt ?? cut(one(f.response.body ?? ''), BODY_BYTES)}`);
  if (f.curl) lines.push(`   ${label('curl')}${f.curl}`);
  if (f.counterexample !== undefined) lines.push(`   ${label('input')}${cut(JSON.stringify(f.counterexample), 200)}`);
  if (f.reproduce) {
    lines.push(`   ${label('script')}sh ${dir ? join(dir, f.reproduce) : f.reproduce}  (builds the state again, sends the failing request, cleans up)`);
  }
  if (f.replay) lines.push(`   ${label('again')}${f.replay}`);
  return lines;
}

/** Reasons with how many requirements each covers, most first. */
export function groupedReasons(report: Report, status: 'skipped' | 'blocked'): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of report.requirements) {
    if (r.status !== status) continue;
    const reason = status === 'blocked' ? (r.reason ?? 'blocked').replace(/^blocked: /, '') : (r.reason ?? 'skipped');
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function reasonBlock(title: string, reasons: [string, number][], p: Paint): string[] {
  if (reasons.length === 0) return [];
  const total = reasons.reduce((n, [, k]) => n + k, 0);
  const width = String(Math.max(...reasons.map(([, k]) => k))).length;
  return ['', p.bold(`${title} (${plural(total, 'requirement')}):`), ...reasons.map(([reason, k]) => `  ${String(k).padStart(width)}  ${cut(reason, 200)}`)];
}

function targetLine(report: Report): string {
  const t = report.target;
  const bits = [
    `${t.kind}${t.baseUrl ? ` ${t.baseUrl}` : ''}`,
    t.mockFault ? `mock fault ${t.mockFault}` : '',
    t.shape ? `shape ${t.shape}` : '',
    t.viaPrism ? 'via Prism' : '',
  ].filter(Boolean);
  return `  ${bits.join(', ')} · API document ${report.specVersion} · seed ${report.seed ?? 'n/a'} · ${(report.durationMs / 1000).toFixed(1)} s`;
}

export function renderTerminalSummary(report: Report, o: TerminalOptions): string {
  const p = o.paint;
  const coverage = coverageLine(report, p);
  const lines = ['', verdictLine(report, p), targetLine(report), `  ${countsLine(report, p)}`, ...(coverage ? [`  ${coverage}`] : [])];
  const causes = report.causes ?? [];
  const shown = causes.slice(0, o.maxCauses ?? 8);
  if (shown.length) {
    lines.push('', p.bold(`${plural(causes.length, 'root cause')}, most requirements first:`));
    shown.forEach((c, i) => lines.push('', ...causeLines(c, i + 1, p, o.paths ? dirname(o.paths.json) : undefined)));
    if (causes.length > shown.length) lines.push('', `… ${plural(causes.length - shown.length, 'more root cause')} in the report.`);
    if (report.reproduce) {
      lines.push('', p.bold('The mock of this run is gone; start the same one (seed, port, options) to use the curl lines:'),
        ...report.reproduce.mock.map((l) => `  ${l}`));
    }
  }
  const warnings = report.target.warnings ?? [];
  if (warnings.length) {
    lines.push('', p.bold(`${plural(warnings.length, 'warning')} (allowed by the document, worth a look):`), ...warnings.map((w) =>
      `  ${p.yellow(w.name)}: ${w.message}  (${idList(w.requirements, 3)})`
    ));
  }
  lines.push(...reasonBlock('Blocked', groupedReasons(report, 'blocked'), p), ...reasonBlock('Skipped', groupedReasons(report, 'skipped'), p));
  if (report.errors.length) lines.push('', p.red(p.bold('Run errors:')), ...report.errors.map((e) => `  ${e.source}: ${cut(one(e.message), 240)}`));
  if (o.stacks?.size) { for (const [check, stacks] of o.stacks) lines.push('', p.dim(`── ${check}`), ...stacks); }
  if (o.paths) lines.push('', `Reports: ${o.paths.html}`, `         ${o.paths.json}`, `         ${o.paths.junit}`);
  lines.push('');
  return lines.join('\n');
}

/** How many differences a cause shows in the terminal; the report has them all. */
const DIFFERENCES_SHOWN = 5;

/** `employee.first_name: got "A" expected "B"`. */
export function differenceText(d: Difference): string {
  return `${d.path || '(the value)'}: ${d.got === undefined ? 'missing' : `got ${d.got}`}, ${
    d.expected === undefined ? 'not expected' : `expected ${d.expected}`
  }`;
}
