// The survivors of a mutation run and its figures, from Stryker's JSON report: every mutant the
// conformance run did not kill (survived, or never reached), listed in fixtures/mutation/survivors.json
// with the classification the list already gives it (by file, mutator, replaced code and
// replacement, so a survivor whose lines moved keeps its reason). New survivors come in unclassified,
// and fixtures/mutation/survivors.test.ts fails until someone says why each survives.
//
//   npx tsx bench/mutation/figures.ts [report.json]
//
// rewrites the list and its figures from a report: by default the checked-in incremental file, which
// holds every mutant's result as well (after a change of verdicts, it brings the figures up to date).
import type { schema } from '@stryker-mutator/api/core';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  firstLineOf,
  hashOf,
  type Survivor,
  type SurvivorFigures,
  survivorKey,
  type SurvivorsFile,
  textAt,
  UNOBSERVABLE_KINDS,
} from '../../fixtures/mutation/survivors.js';
import { DEFAULT_SEED, INCREMENTAL_FILE, KILL_REASON, OUTSIDE_SAMPLE, SAMPLE, SURVIVORS_FILE } from './settings.js';

type Report = schema.MutationTestResult;

export const readReport = (file = INCREMENTAL_FILE): Report => JSON.parse(readFileSync(file, 'utf8')) as Report;

export function readSurvivors(file = SURVIVORS_FILE): SurvivorsFile | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SurvivorsFile) : undefined;
}

const notKilled = new Set(['Survived', 'NoCoverage']);

/** Every mutant of the report that was not killed, unclassified, in file and position order. */
export function survivorsOf(report: Report): Survivor[] {
  const found: Survivor[] = [];
  for (const [file, result] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const mutants = result.mutants
      .filter((m) => notKilled.has(m.status))
      .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column || a.id.localeCompare(b.id));
    for (const m of mutants) {
      const span = { line: m.location.start.line, column: m.location.start.column, endLine: m.location.end.line, endColumn: m.location.end.column };
      const code = textAt(result.source, span) ?? '';
      found.push({
        file,
        ...span,
        mutator: m.mutatorName,
        original: firstLineOf(code),
        originalHash: hashOf(code),
        replacement: m.replacement ?? m.mutatorName,
        status: m.status as Survivor['status'],
        verdict: '',
        why: '',
      });
    }
  }
  return found;
}

/** Keys that tell apart identical survivors of one file: the key, then its rank among its equals. */
function rankedKeys(list: readonly Survivor[]): string[] {
  const seen = new Map<string, number>();
  return list.map((s) => {
    const key = survivorKey(s);
    const rank = seen.get(key) ?? 0;
    seen.set(key, rank + 1);
    return `${key}\u0000${rank}`;
  });
}

/** The current survivors, each with the classification `previous` gives it. */
export function classify(current: readonly Survivor[], previous: readonly Survivor[]): Survivor[] {
  const byKey = new Map(rankedKeys(previous).map((k, i) => [k, previous[i]!]));
  return rankedKeys(current).map((k, i) => {
    const now = current[i]!;
    const before = byKey.get(k);
    if (!before) return now;
    const { verdict, kind, why, request, conforming, mutant } = before;
    return { ...now, verdict, ...(kind !== undefined ? { kind } : {}), why, ...(request !== undefined ? { request, conforming, mutant } : {}) };
  });
}

/** Whether a mutant of the report was left out of the sample (run.ts marks them). */
export const outsideSample = (m: { status: string; statusReason?: string; }): boolean => m.status === 'Ignored' && m.statusReason === OUTSIDE_SAMPLE;

/** Wilson's 95% interval of a proportion of `k` in `n`, in percent. */
export function wilson95(k: number, n: number): [number, number] {
  if (n === 0) return [0, 100];
  const z = 1.959_964;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  const pct = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 10_000) / 100;
  return [pct(centre - half), pct(centre + half)];
}

/** The commit checked out, whose mock the run mutated; undefined outside a git checkout. */
function headCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The figures of a run, with its survivors as classified. */
export function figuresOf(report: Report, survivors: readonly Survivor[], seed: string, sample: SurvivorFigures['sample'] = SAMPLE): SurvivorFigures {
  const all = Object.values(report.files).flatMap((f) => f.mutants);
  const mutants = all.filter((m) => !outsideSample(m));
  const count = (status: string) => mutants.filter((m) => m.status === status).length;
  const killedBy = (prefix: string) => mutants.filter((m) => m.status === 'Killed' && (m.statusReason ?? '').startsWith(prefix)).length;
  const timedOut = count('Timeout');
  const killed = count('Killed') + timedOut;
  const unobservable = survivors.filter((s) => s.verdict === 'unobservable').length;
  const counted = mutants.length - unobservable;
  return {
    ...(headCommit() ? { commit: headCommit() } : {}),
    seed,
    sample: { fraction: sample.fraction, seed: sample.seed },
    mutants: all.length,
    sampled: mutants.length,
    outsideSample: all.length - mutants.length,
    killed,
    killedByRequirement: killedBy(KILL_REASON.requirement),
    killedByCrash: killedBy(KILL_REASON.crash),
    timedOut,
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    unobservable,
    unobservableByKind: Object.fromEntries(
      Object.keys(UNOBSERVABLE_KINDS).map((kind) => [kind, survivors.filter((s) => s.verdict === 'unobservable' && s.kind === kind).length]),
    ) as SurvivorFigures['unobservableByKind'],
    observable: survivors.filter((s) => s.verdict === 'observable').length,
    unclassified: survivors.filter((s) => s.verdict === '').length,
    score: Math.round((killed / counted) * 10_000) / 100,
    interval: wilson95(killed, counted),
  };
}

/** Rewrites the survivors file from a report of a run with the default seed, keeping the classification it already has. */
export function writeSurvivors(report: Report, sample?: SurvivorFigures['sample'], file = SURVIVORS_FILE): SurvivorsFile {
  const before = readSurvivors(file);
  const survivors = classify(survivorsOf(report), before?.survivors ?? []);
  const written: SurvivorsFile = { figures: figuresOf(report, survivors, DEFAULT_SEED, sample ?? before?.figures.sample), survivors };
  writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
  return written;
}

/** The figures as lines for the terminal. */
export function figureLines(f: SurvivorFigures): string[] {
  const sampled = f.outsideSample ? `${f.sampled} tested (sample ${f.sample.fraction}, seed ${f.sample.seed}; ${f.outsideSample} outside it)` : `all tested`;
  return [
    `mutants ${f.mutants} (run seed ${f.seed}), ${sampled}`,
    `killed ${f.killed} (by a failed requirement ${f.killedByRequirement}, by a crash ${f.killedByCrash}, timed out ${f.timedOut}), survived ${f.survived}, not reached ${f.noCoverage}`,
    `survivors: ${f.unobservable} unobservable, ${f.observable} observable but not yet checked${
      f.unclassified ? `, ${f.unclassified} not classified yet` : ''
    }`,
    `score ${f.score}% = killed / (tested − unobservable) = ${f.killed} / ${f.sampled - f.unobservable}; 95% interval (Wilson) ${f.interval[0]}–${
      f.interval[1]
    }%`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { figures } = writeSurvivors(readReport(process.argv[2]));
  for (const line of figureLines(figures)) console.log(line);
}
