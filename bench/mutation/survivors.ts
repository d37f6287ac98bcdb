// The survivors of a mutation run and its figures, from Stryker's JSON report: every mutant the
// conformance run did not kill (survived, or never reached), listed in fixtures/mutation/survivors.json
// with the classification the list already gives it (by file, mutator, replaced code and
// replacement, so a survivor whose lines moved keeps its reason). New survivors come in unclassified,
// and fixtures/mutation/survivors.test.ts fails until someone says why each survives.
//
//   npx tsx bench/mutation/survivors.ts [report.json]
//
// rewrites the list and its figures from a report: by default the checked-in incremental file, which
// holds every mutant's result as well (after a change of verdicts, it brings the figures up to date).
import type { schema } from '@stryker-mutator/api/core';
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
import { DEFAULT_SEED, INCREMENTAL_FILE, KILL_REASON, SURVIVORS_FILE } from './settings.js';

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

/** The figures of a run, with its survivors as classified. */
export function figuresOf(report: Report, survivors: readonly Survivor[], seed: string): SurvivorFigures {
  const mutants = Object.values(report.files).flatMap((f) => f.mutants);
  const count = (status: string) => mutants.filter((m) => m.status === status).length;
  const killedBy = (prefix: string) => mutants.filter((m) => m.status === 'Killed' && (m.statusReason ?? '').startsWith(prefix)).length;
  const timedOut = count('Timeout');
  const killed = count('Killed') + timedOut;
  const unobservable = survivors.filter((s) => s.verdict === 'unobservable').length;
  return {
    seed,
    mutants: mutants.length,
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
    score: Math.round((killed / (mutants.length - unobservable)) * 10_000) / 100,
  };
}

/** Rewrites the survivors file from a report of a run with the default seed, keeping the classification it already has. */
export function writeSurvivors(report: Report, file = SURVIVORS_FILE): SurvivorsFile {
  const survivors = classify(survivorsOf(report), readSurvivors(file)?.survivors ?? []);
  const written: SurvivorsFile = { figures: figuresOf(report, survivors, DEFAULT_SEED), survivors };
  writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
  return written;
}

/** The figures as lines for the terminal. */
export function figureLines(f: SurvivorFigures): string[] {
  return [
    `mutants ${f.mutants} (seed ${f.seed}): killed ${f.killed} (by a failed requirement ${f.killedByRequirement}, by a crash ${f.killedByCrash}, timed out ${f.timedOut}), survived ${f.survived}, not reached ${f.noCoverage}`,
    `survivors: ${f.unobservable} unobservable, ${f.observable} observable but not yet checked${
      f.unclassified ? `, ${f.unclassified} not classified yet` : ''
    }`,
    `score ${f.score}% = killed / (mutants − unobservable) = ${f.killed} / ${f.mutants - f.unobservable}`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { figures } = writeSurvivors(readReport(process.argv[2]));
  for (const line of figureLines(figures)) console.log(line);
}
