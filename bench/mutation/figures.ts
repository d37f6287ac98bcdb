// The survivors of a mutation run and its figures, from Stryker's JSON report: every mutant the
// conformance run did not kill (survived, or never reached), listed in fixtures/mutation/survivors.json
// with the classification the list already gives it (by file, mutator, replaced code and
// replacement, so a survivor whose lines moved keeps its reason). New survivors come in unclassified,
// and fixtures/mutation/survivors.test.ts fails until someone says why each survives.
//
//   npx tsx bench/mutation/figures.ts [sample seed]
//
// rewrites a sample seed's list and its figures (default: settings.ts SAMPLE's seed) from its
// checked-in incremental file, which holds every mutant's result as well (after a change of verdicts,
// it brings the figures up to date; the commit the list names stays).
import type { schema } from '@stryker-mutator/api/core';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  firstLineOf,
  type FolderFigures,
  hashOf,
  type Survivor,
  type SurvivorFigures,
  survivorKey,
  type SurvivorsFile,
  textAt,
  UNOBSERVABLE_KINDS,
} from '../../fixtures/mutation/survivors.js';
import { dataDirOf, dataFiles, DEFAULT_SEED, folderOf, FOLDERS, KILL_REASON, OUTSIDE_SAMPLE, SAMPLE } from './settings.js';

type Report = schema.MutationTestResult;

export const readReport = (file: string): Report => JSON.parse(readFileSync(file, 'utf8')) as Report;

export function readSurvivors(file: string): SurvivorsFile | undefined {
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
export function headCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

const percent = (k: number, n: number): number => (n === 0 ? 0 : Math.round((k / n) * 10_000) / 100);

type Mutant = Report['files'][string]['mutants'][number];

/** The counts of some mutants and of their survivors: the project's score and Stryker's. */
function countsOf(all: readonly Mutant[], survivors: readonly Survivor[]): Omit<FolderFigures, 'mutants'> {
  const mutants = all.filter((m) => !outsideSample(m));
  const count = (status: string) => mutants.filter((m) => m.status === status).length;
  const timedOut = count('Timeout');
  const killed = count('Killed') + timedOut;
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const unobservable = survivors.filter((s) => s.verdict === 'unobservable').length;
  const counted = mutants.length - unobservable;
  return {
    sampled: mutants.length,
    killed,
    timedOut,
    survived,
    noCoverage,
    unobservable,
    observable: survivors.filter((s) => s.verdict === 'observable').length,
    unclassified: survivors.filter((s) => s.verdict === '').length,
    // Stryker's: detected / valid, where valid is detected, survived and not reached (what is outside
    // the sample the runner answered with an error, which Stryker does not count as valid).
    strykerScore: percent(killed, killed + survived + noCoverage),
    score: percent(killed, counted),
    interval: wilson95(killed, counted),
  };
}

/** The figures of a run, with its survivors as classified; `commit` is the commit whose code the run mutated. */
export function figuresOf(
  report: Report,
  survivors: readonly Survivor[],
  seed: string,
  sample: SurvivorFigures['sample'] = SAMPLE,
  commit: string | undefined = headCommit(),
): SurvivorFigures {
  const all = Object.values(report.files).flatMap((f) => f.mutants);
  const { sampled, killed, timedOut, survived, noCoverage, unobservable, observable, unclassified, strykerScore, score, interval } = countsOf(all, survivors);
  const killedBy = (prefix: string) => all.filter((m) => m.status === 'Killed' && (m.statusReason ?? '').startsWith(prefix)).length;
  const folders = Object.fromEntries(
    FOLDERS.map((folder) => {
      const inFolder = Object.entries(report.files).filter(([file]) => folderOf(file) === folder).flatMap(([, f]) => f.mutants);
      return [folder, { mutants: inFolder.length, ...countsOf(inFolder, survivors.filter((s) => folderOf(s.file) === folder)) }];
    }),
  );
  return {
    ...(commit ? { commit } : {}),
    seed,
    sample: { fraction: sample.fraction, seed: sample.seed },
    mutants: all.length,
    sampled,
    outsideSample: all.length - sampled,
    killed,
    killedByRequirement: killedBy(KILL_REASON.requirement),
    killedByCrash: killedBy(KILL_REASON.crash),
    timedOut,
    survived,
    noCoverage,
    unobservable,
    unobservableByKind: Object.fromEntries(
      Object.keys(UNOBSERVABLE_KINDS).map((kind) => [kind, survivors.filter((s) => s.verdict === 'unobservable' && s.kind === kind).length]),
    ) as SurvivorFigures['unobservableByKind'],
    observable,
    unclassified,
    score,
    interval,
    strykerScore,
    folders,
  };
}

/**
 * Rewrites a survivors file from a report of a run with the default conformance seed, keeping the
 * classification it already has. `commit` is the commit the run measured: after a run, the one
 * checked out; when only verdicts changed, the one the list already names.
 */
export function writeSurvivors(report: Report, options: { file: string; sample?: SurvivorFigures['sample']; commit?: string | undefined; }): SurvivorsFile {
  const before = readSurvivors(options.file);
  const survivors = classify(survivorsOf(report), before?.survivors ?? []);
  const commit = options.commit ?? before?.figures.commit;
  const written: SurvivorsFile = { figures: figuresOf(report, survivors, DEFAULT_SEED, options.sample ?? before?.figures.sample, commit), survivors };
  writeFileSync(options.file, `${JSON.stringify(written, null, 2)}\n`);
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
    ...(f.strykerScore !== undefined ? [`Stryker's score ${f.strykerScore}% = (killed + timed out) / (killed + timed out + survived + not reached)`] : []),
    ...Object.entries(f.folders ?? {}).map(([folder, g]) =>
      `${folder}: ${g.sampled} tested of ${g.mutants}, killed ${g.killed}, survived ${g.survived}, not reached ${g.noCoverage}, unobservable ${g.unobservable}, observable ${g.observable}${
        g.unclassified ? `, not classified ${g.unclassified}` : ''
      }; score ${g.score}% (${g.interval[0]}–${g.interval[1]}%), Stryker's ${g.strykerScore}%`
    ),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // A sample seed's checked-in results: the list is rewritten from its incremental file, keeping the commit it names.
  const dir = dataDirOf(process.argv[2] ?? SAMPLE.seed);
  const files = dataFiles(dir);
  const { figures } = writeSurvivors(readReport(files.incremental), { file: files.survivors });
  for (const line of figureLines(figures)) console.log(line);
}
