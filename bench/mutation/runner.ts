// Stryker's test runner for the mutation benchmark: the "test" that kills a mutant is the
// conformance run itself, `node build/run.mjs cli run` (what `npm start` runs) against the bundled
// mock, in Stryker's sandbox, where mock/reference/ and mock/fast/ hold every mutant behind a switch.
// A mutant of mock/reference/ is tested with the speed layer off (every request through the reference
// pipeline), one of mock/fast/ with it on, as the mock ships: the runner tells them apart by the file
// Stryker names with the active mutant (settings.ts servedByFastLayer). The dry run runs both ways,
// and a mutant is covered when either reached it. The first
// run of a sandbox builds dist/ from those sources (build/run.mjs rebuilds when a source changed),
// and every later run reuses that build: a mutant is chosen per process by __STRYKER_ACTIVE_MUTANT__,
// which the instrumented code reads when it loads.
//
// A mutant run ends one of four ways:
// - the run exits 0: the mutant survived;
// - a must or implied requirement failed (or was blocked): killed by a requirement;
// - the run broke without one (no report, the target did not start, the preflight refused it, the
//   run stopped early, an error of the run itself): killed by a crash;
// - it ran past Stryker's timeout, or reached the hit limit: a timeout.
// A break or a timeout can also come from a loaded machine rather than from the mutant, so it is
// counted only when a second run of the same mutant breaks (or times out) again; otherwise the
// second run's outcome stands. The kind of kill leads the failure message, which Stryker keeps as
// the mutant's statusReason (bench/mutation/figures.ts counts them apart).
import type { Logger } from '@stryker-mutator/api/logging';
import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import {
  type DryRunOptions,
  type DryRunResult,
  DryRunStatus,
  type MutantRunOptions,
  type MutantRunResult,
  MutantRunStatus,
  type TestRunner,
  type TestRunnerCapabilities,
  TestStatus,
} from '@stryker-mutator/api/test-runner';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from '../../suites/self/runner.js';
import { inSample, KILL_REASON, mutationRunSettings, OUTSIDE_SAMPLE, RUN_TEST, sampleOf, servedByFastLayer } from './settings.js';

const PROBE = new URL('./probe.mjs', import.meta.url).href;

/** What one conformance run came to. */
export type RunEnd =
  | { kind: 'passed'; ms: number; }
  | { kind: 'requirement'; ms: number; failed: string[]; }
  | { kind: 'broke'; ms: number; why: string; }
  | { kind: 'timeout'; ms: number; why: string; };

interface Probe {
  covered: Record<string, number>;
  hitLimitReached: boolean;
}

interface ReportSlice {
  requirements?: { id: string; level: string; status: string; }[];
  errors?: { source: string; message: string; }[];
  stopped?: { cause: string; message: string; };
}

const lastLine = (text: string) => text.trim().split('\n').filter((l) => l.trim()).at(-1)?.slice(0, 300) ?? '';

/** How a finished run ended, from its exit code, its report and its probe. */
export function endOf(exitCode: number | null, ms: number, report: ReportSlice | undefined, probe: Probe | undefined, output: string): RunEnd {
  if (probe?.hitLimitReached) return { kind: 'timeout', ms, why: 'the mutant was reached more often than the hit limit allows (an endless loop)' };
  if (exitCode === 0) return { kind: 'passed', ms };
  const failed = (report?.requirements ?? [])
    .filter((r) => (r.status === 'failed' || r.status === 'blocked') && (r.level === 'must' || r.level === 'implied'))
    .map((r) => (r.status === 'blocked' ? `${r.id} (blocked)` : r.id));
  if (failed.length > 0 && !report?.stopped) return { kind: 'requirement', ms, failed };
  const why = report?.stopped
    ? `${report.stopped.cause}: ${report.stopped.message}`
    : report?.errors?.length
    ? `${report.errors[0]!.source}: ${report.errors[0]!.message}`
    : `exit ${exitCode ?? 'by signal'}${report ? '' : ', no report'}: ${lastLine(output)}`;
  return { kind: 'broke', ms, why: why.split('\n')[0]!.slice(0, 400) };
}

/**
 * The process groups of the runs under way: when Stryker ends this worker (its own timeout, the
 * end of the run), they end with it rather than run on unseen.
 */
const running = new Set<number>();
const endRunning = () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
};
process.on('exit', endRunning);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    endRunning();
    process.exit(128 + (signal === 'SIGTERM' ? 15 : 2));
  });
}

/** One conformance run in `cwd` (the sandbox), with `mutant` active when given. */
export async function conformanceRun(
  cwd: string,
  options: { mutant?: string; hitLimit?: number; timeoutMs: number; fastLayer: boolean; },
): Promise<{ end: RunEnd; probe?: Probe; }> {
  const dir = mkdtempSync(join(tmpdir(), 'mutation-run-'));
  const probeFile = join(dir, 'probe.json');
  // Everything the run puts in the temporary directory (the mock's stored uploads, the journal) is
  // removed with it, also after a timeout killed the run before its own cleanup.
  const ownTmp = join(dir, 'tmp');
  mkdirSync(ownTmp);
  const started = Date.now();
  try {
    const env = cleanEnv({
      ...mutationRunSettings(process.env, options.fastLayer),
      TMPDIR: ownTmp,
      CONFORMANCE_REPORT_DIR: join(dir, 'report'),
      MUTATION_PROBE_FILE: probeFile,
      ...(options.hitLimit ? { MUTATION_HIT_LIMIT: String(options.hitLimit) } : {}),
    });
    delete env.__STRYKER_ACTIVE_MUTANT__;
    if (options.mutant !== undefined) env.__STRYKER_ACTIVE_MUTANT__ = options.mutant;
    // Its own process group, so that a timeout ends the run's test worker with it.
    const child = spawn(process.execPath, ['--import', PROBE, 'build/run.mjs', 'cli', 'run'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child.pid!);
    let output = '';
    const keep = (d: Buffer) => {
      output = (output + d.toString()).slice(-8_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(timer);
    // nothing the run started outlives it
    killGroup();
    running.delete(child.pid!);
    const ms = Date.now() - started;
    if (timedOut) return { end: { kind: 'timeout', ms, why: `no end within ${options.timeoutMs} ms` } };
    const probe = readJson<Probe>(probeFile);
    return { end: endOf(exitCode, ms, readJson<ReportSlice>(join(dir, 'report', 'conformance.json')), probe, output), ...(probe ? { probe } : {}) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** The shares of Stryker's timeout given to a mutant's first run and to the second, when the first broke or timed out. */
const FIRST_RUN_SHARE = 0.6;
const SECOND_RUN_SHARE = 0.35;

/** A mutated file's path in the project, as the report names it (Stryker names the project's file, not the sandbox's). */
function projectPath(fileName: string): string {
  const root = process.env.MUTATION_PROJECT_ROOT;
  const fromRoot = root ? relative(root, fileName) : '..';
  return fromRoot.startsWith('..') ? relative(process.cwd(), fileName) : fromRoot;
}

const breaks = (end: RunEnd) => end.kind === 'broke' || end.kind === 'timeout';

export class ConformanceRunner implements TestRunner {
  static readonly inject = tokens(commonTokens.logger);

  constructor(private readonly log: Logger) {}

  capabilities(): TestRunnerCapabilities {
    // every run is a new process: a mutant in code that runs while modules load is tested as well
    return { reloadEnvironment: true };
  }

  async dryRun(options: DryRunOptions): Promise<DryRunResult> {
    // Both ways a mutant is tested: with the speed layer off (mock/reference/) and on (mock/fast/).
    const covered: Record<string, number> = {};
    let slowest = 0;
    for (const fastLayer of [false, true]) {
      const way = fastLayer ? 'with the speed layer on' : 'with the speed layer off';
      const { end, probe } = await conformanceRun(process.cwd(), { timeoutMs: options.timeout, fastLayer });
      if (end.kind !== 'passed') {
        const why = end.kind === 'requirement' ? `${KILL_REASON.requirement} ${end.failed.join(', ')}` : end.why;
        return { status: DryRunStatus.Error, errorMessage: `the conformance run ${way} does not pass against the unmutated mock: ${why}` };
      }
      if (!probe || Object.keys(probe.covered).length === 0) {
        return { status: DryRunStatus.Error, errorMessage: `the conformance run ${way} reached no instrumented code: it did not run the sandbox's mock` };
      }
      this.log.info(`conformance run against the instrumented mock ${way}: ${end.ms} ms, ${Object.keys(probe.covered).length} mutants reached`);
      for (const [id, hits] of Object.entries(probe.covered)) covered[id] = (covered[id] ?? 0) + hits;
      slowest = Math.max(slowest, end.ms);
    }
    return {
      status: DryRunStatus.Complete,
      // The slower of the two runs: Stryker's timeout of a mutant run is reckoned from it.
      tests: [{ ...RUN_TEST, status: TestStatus.Success, timeSpentMs: slowest }],
      // Which check reached a mutant is not known (the mock serves them all from one process): the
      // whole run is the one test, and it covers every mutant either run reached.
      mutantCoverage: { static: {}, perTest: { [RUN_TEST.id]: covered } },
    };
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    // A mutant outside the sample is not run; run.ts marks it Ignored in the results, so that a later
    // run with a larger sample tests it. (A test runner cannot answer "ignored" itself.)
    const { activeMutant: m } = options;
    const sample = sampleOf();
    // Stryker's locations count from 0; the report's (and so the sample's) from 1.
    const place = {
      file: projectPath(m.fileName),
      line: m.location.start.line + 1,
      column: m.location.start.column + 1,
      mutatorName: m.mutatorName,
      replacement: m.replacement,
    };
    if (!inSample(place, sample.fraction, sample.seed)) return { status: MutantRunStatus.Error, errorMessage: OUTSIDE_SAMPLE };
    // Both runs end within Stryker's own timeout, which would end this worker and leave a run behind.
    const fastLayer = servedByFastLayer(place.file);
    const run = (share: number) =>
      conformanceRun(process.cwd(), {
        mutant: options.activeMutant.id,
        fastLayer,
        timeoutMs: Math.round(options.timeout * share),
        ...(options.hitLimit !== undefined ? { hitLimit: options.hitLimit } : {}),
      });
    let { end } = await run(FIRST_RUN_SHARE);
    let note = '';
    if (breaks(end)) {
      const again = (await run(SECOND_RUN_SHARE)).end;
      if (!breaks(again)) note = ` (a first run ${end.kind === 'timeout' ? 'timed out' : 'broke'}, and did not again: ${end.why})`;
      end = again.kind === end.kind || !breaks(again) ? again : end;
    }
    switch (end.kind) {
      case 'passed':
        return { status: MutantRunStatus.Survived, nrOfTests: 1 };
      case 'requirement':
        return {
          status: MutantRunStatus.Killed,
          killedBy: [RUN_TEST.id],
          nrOfTests: 1,
          failureMessage: `${KILL_REASON.requirement} ${end.failed.join(', ')}${note}`,
        };
      case 'broke':
        return { status: MutantRunStatus.Killed, killedBy: [RUN_TEST.id], nrOfTests: 1, failureMessage: `${KILL_REASON.crash} ${end.why}` };
      case 'timeout':
        return { status: MutantRunStatus.Timeout, reason: end.why };
    }
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'conformance', ConformanceRunner)];

/** The runner's module path, as Stryker's `plugins` option names it. */
export const RUNNER_MODULE = fileURLToPath(import.meta.url);
