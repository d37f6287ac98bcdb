import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runContext, type RunStop, stopRun, updateRunContext } from '../../contract/run.js';
import type { Settings } from '../../contract/settings.js';
import { validateReport } from '../../reports/schema.js';
import type { Report } from '../../reports/types.js';
import { verdictOf } from '../../reports/verdict.js';
import { REPORT_FILES } from '../../reports/write.js';
import { err, EXIT_FAILED, EXIT_OK, EXIT_USAGE, out, unknownValue, usageError } from '../args.js';
import { planRun, type RunPlan } from './run-options.js';

export const runHelp = `Usage: conformance run [options]

Runs the conformance suites against one target and writes conformance.json, junit.xml
and index.html. The target comes from the environment or a JSON settings file
(CONFORMANCE_BASE_URL, CONFORMANCE_API_KEY, CONFORMANCE_API_KEY_OTHER_TEAM, ...); with
no CONFORMANCE_BASE_URL and no CONFORMANCE_IMAGE the bundled mock is started in-process.

Options:
  --config <file>        JSON settings file (sets CONFORMANCE_CONFIG); the environment overrides it
  --only <ids>           requirement ids or globs, comma-separated or repeated (LIST-*,AUTH-BEARER-REQUIRED)
  --exclude <ids>        leave out checks whose requirements all match these ids or globs (CONFORMANCE_EXCLUDE)
  --seed <n>             fast-check and data seed (default: random, printed; CONFORMANCE_SEED)
  --path <p>             replay one fast-check counterexample: the path a failure reports (e.g. 3:1:0),
                         with the --only and --seed it reports (CONFORMANCE_REPLAY_PATH)
  --verbose              also print stack traces of failures and the checks' console output
  --read-only            skip checks that create, change or delete records (CONFORMANCE_READ_ONLY=1)
  --report-dir <dir>     where the reports go (CONFORMANCE_REPORT_DIR; default: out/ in the working directory)
  --fault <name>         bundled mock only: switch on one fault (list them: conformance mock --list-faults)
  --shape <full|legacy>  bundled mock only: response shape of projects and organizations
  --deprecate <ops>      bundled mock only: operations to mark deprecated, comma-separated or repeated
  --population <n>       bundled mock only: n projects, organizations and assignments per team (CONFORMANCE_MOCK_POPULATION)
  --via-prism            send every request through a Prism validation proxy (CONFORMANCE_VIA_PRISM=1)
  --target <t>           prism-mock: Prism's mock of specs/openapi.json instead of a deployment;
                         bundled-mock: the bundled mock although keys are set (CONFORMANCE_TARGET)
  --image <ref>          run against a container image (CONFORMANCE_IMAGE)
  -h, --help             show this help

Before any check, a preflight (one GET per key, a few seconds at most) makes sure the
target answers and the keys are right; the whole run has a deadline (CONFORMANCE_RUN_TIMEOUT,
default 30m) and stops early when the target stops answering. Ctrl-C (SIGINT) or SIGTERM stops
sending, cleans up what the run created where the API allows, and writes the report.

Exit codes: 0 no must or implied requirement failed; 1 one did, or the run itself broke (the
target did not start, a suite did not load, the run stopped early or reached its deadline);
2 usage or configuration error, or a failed preflight (one line with a stable code);
130 interrupted by SIGINT or SIGTERM (the report says so).
`;

/** After a stop was asked for: how long the cleanup and the report may take before the process quits anyway. */
const STOP_GRACE_MS = 120_000;
const EXIT_INTERRUPTED = 130;
/** A second signal within this time is the same Ctrl-C, forwarded by npm or tsx. */
const REPEAT_SIGNAL_MS = 1_500;

async function checkPlan(plan: RunPlan): Promise<string | undefined> {
  const { unmatchedPatterns } = await import('../../specs/requirements.js');
  const unmatched = unmatchedPatterns(plan.only);
  if (unmatched.length > 0) return `--only ${unmatched.join(', ')} matches no requirement (see 'conformance requirements')`;
  const unmatchedExclude = unmatchedPatterns(plan.exclude);
  if (unmatchedExclude.length > 0) return `--exclude ${unmatchedExclude.join(', ')} matches no requirement (see 'conformance requirements')`;
  const fault = plan.env.CONFORMANCE_MOCK_FAULT;
  if (fault !== undefined) {
    const { faults, isFaultName } = await import('../../mock/index.js');
    if (!isFaultName(fault)) {
      return `${unknownValue('mock fault', fault, faults.map((f) => f.name))}; list them with 'conformance mock --list-faults'`;
    }
  }
  return undefined;
}

/** All configuration errors at once, one line each, before the suites start (and before any request). */
async function checkConfig(plan: RunPlan): Promise<{ problems: string[]; } | { settings: Settings; }> {
  const { loadConfig, configErrorLine } = await import('../../contract/config.js');
  const result = loadConfig(process.env);
  if (!result.ok) return { problems: result.errors.map(configErrorLine) };
  const s = result.settings;
  if (plan.mockFlags.length > 0 && (s.baseUrl || s.image || s.target === 'prism-mock')) {
    return { problems: [`${plan.mockFlags.join(', ')} apply to the bundled mock only, but the target is ${s.baseUrl ?? s.image ?? s.target}`] };
  }
  const { missingPackage } = await import('../../integrations/optional-packages.js');
  const missing = missingPackage(s);
  if (missing) return { problems: [missing] };
  return { settings: s };
}

/**
 * A deployment's preflight, before vitest even starts: a wrong key or a dead address is one line,
 * fast. Returns the problem, or the base URL that passed (the global setup does not repeat it).
 */
async function preflightDeployment(s: Settings): Promise<{ problem: string; } | { passed?: string; }> {
  if (!s.baseUrl || s.image || s.target === 'prism-mock') return {}; // started targets are checked once they run (global setup)
  const { preflight, preflightLine } = await import('../../suites/harness/preflight.js');
  const r = await preflight({
    baseUrl: s.baseUrl,
    keys: s.keys,
    timeoutMs: s.preflightTimeoutMs,
    checkTeams: true,
    strict: true,
    scratchProjects: s.scratchProjects,
  });
  if (!r.ok) return { problem: preflightLine(r) };
  for (const note of r.notes) out(`[conformance] preflight: ${note}`);
  return { passed: s.baseUrl };
}

const duration = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : ms % 60_000 === 0 ? `${ms / 60_000}m` : `${Math.round(ms / 1000)}s`);

/** What a QA person needs to know about the target after the run, beyond the requirement table. */
function accountLines(report: Report): string[] {
  const lines: string[] = [];
  const left = Object.entries(report.leftovers ?? {}).filter(([, v]) => v.count > 0);
  const total = left.reduce((n, [, v]) => n + v.count, 0);
  if (total > 0) {
    lines.push(
      `Left on the target: ${total} record${total === 1 ? '' : 's'} (${left.map(([k, v]) => `${k} ${v.count}`).join(', ')})${
        report.runId ? `, named with run id ${report.runId}` : ''
      }; ids in conformance.json "leftovers"`,
    );
  }
  const touched = (report.touched ?? []).filter((t) => !t.scratch);
  const notBack = touched.filter((t) => t.restored !== true);
  const differs = (t: (typeof touched)[number]) => `${t.resource}/${t.id} (${t.differences.join(', ') || 'restore did not run'})`;
  if (notBack.length > 0) lines.push(`Pre-existing records NOT back as found: ${notBack.map(differs).join('; ')}`);
  else if (touched.length > 0) lines.push(`Pre-existing records changed: ${touched.length}, all back as found`);
  const scratch = (report.touched ?? []).filter((t) => t.scratch);
  const scratchDiffers = scratch.filter((t) => t.restored !== true);
  if (scratch.length > 0) {
    lines.push(
      `Scratch projects changed: ${scratch.length}${
        scratchDiffers.length ? `; not back as found: ${scratchDiffers.map(differs).join('; ')}` : ', all back as found'
      }`,
    );
  }
  return lines;
}

function readReport(path: string): Report | undefined {
  if (!existsSync(path)) return undefined;
  const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  return validateReport(value).valid ? (value as Report) : undefined;
}

export async function runRun(argv: string[]): Promise<number> {
  const plan = planRun(argv, process.cwd());
  if ('error' in plan) return usageError('run', plan.error);
  const planProblem = await checkPlan(plan);
  if (planProblem) return usageError('run', planProblem);
  Object.assign(process.env, plan.env);
  const config = await checkConfig(plan);
  if ('problems' in config) {
    for (const problem of config.problems) err(`conformance run: ${problem}`);
    return EXIT_USAGE;
  }
  // --report-dir wins, then CONFORMANCE_REPORT_DIR (environment, then settings file), then out/ in the
  // working directory; made absolute once, for the reporter in the run's vitest as for this process.
  const reportDir = resolve(config.settings.reportDir);
  process.env.CONFORMANCE_REPORT_DIR = reportDir;
  const preflighted = await preflightDeployment(config.settings);
  if ('problem' in preflighted) {
    err(`conformance run: ${preflighted.problem}`);
    return EXIT_USAGE;
  }
  const files = {
    html: join(reportDir, REPORT_FILES.html),
    json: join(reportDir, REPORT_FILES.json),
    junit: join(reportDir, REPORT_FILES.junit),
  };
  // A stale report must not pass for this run's.
  for (const f of Object.values(files)) rmSync(f, { force: true });
  const { interrupted, stopped } = await runSuites(config.settings, preflighted.passed);
  if (stopped?.cause === 'preflight') {
    err(`conformance run: ${stopped.message}`);
    return EXIT_USAGE;
  }
  const report = readReport(files.json);
  if (!report) {
    err(`conformance run: no valid report was written to ${files.json} (see the errors above)`);
    return interrupted ? EXIT_INTERRUPTED : EXIT_FAILED;
  }
  // The reporter has printed the summary and the report paths (also when vitest is run directly).
  for (const line of accountLines(report)) out(line);
  if (interrupted) return EXIT_INTERRUPTED;
  return verdictOf(report).kind === 'conforms' ? EXIT_OK : EXIT_FAILED;
}

/**
 * The suites under vitest, bounded: SIGINT/SIGTERM and the run deadline cancel the run (checks
 * stop sending, each suite file's cleanup still runs, the reporter writes the report marked as
 * stopped); a second signal, or a cleanup outliving STOP_GRACE_MS, quits at once. Returns the
 * signal that interrupted the run, if one did, and why the run stopped early, if it did (from the
 * run context, which the run's vitest holds: contract/run.ts).
 */
async function runSuites(s: Settings, preflighted: string | undefined): Promise<{ interrupted?: NodeJS.Signals; stopped?: RunStop; }> {
  const { createVitest } = await import('vitest/node');
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  const before = new Map(signals.map((sig) => [sig, process.listeners(sig)]));
  let vitest: Awaited<ReturnType<typeof createVitest>>;
  try {
    // The options of suites/conformance.config.ts, given inline: vitest would otherwise bundle that
    // file and load a second copy of the reporter (and compile its schemas again) beside this build's.
    const { conformanceConfig } = await import('../../suites/conformance.config.js');
    const { test, ...vite } = await conformanceConfig(process.env);
    vitest = await createVitest('test', { ...test, config: false, run: true, watch: false }, vite);
  } catch (e) {
    err(`conformance run: the run could not start: ${(e as Error).message}`);
    return {};
  }
  if (preflighted) updateRunContext(vitest, { preflighted });
  // vitest exits the process on a signal; here a signal stops the run and lets it clean up instead.
  for (const sig of signals) for (const l of process.listeners(sig)) if (!before.get(sig)!.includes(l)) process.off(sig, l as () => void);
  let interrupted: NodeJS.Signals | undefined;
  let grace: NodeJS.Timeout | undefined;
  const stop = (cause: 'interrupted' | 'deadline', message: string) => {
    stopRun(vitest, { cause, message });
    err(`conformance run: ${message}: no new requests; cleaning up and writing the report${cause === 'interrupted' ? ' (again to quit at once)' : ''}`);
    grace ??= setTimeout(() => {
      err(`conformance run: the cleanup did not end within ${STOP_GRACE_MS / 1000} s; quitting (records may be left: see the run id above)`);
      process.exit(interrupted ? EXIT_INTERRUPTED : EXIT_FAILED);
    }, STOP_GRACE_MS);
    // the workers see the reason on the running check's abort signal (suites/harness/session.ts)
    void vitest.cancelCurrentRun(cause as Parameters<typeof vitest.cancelCurrentRun>[0]);
  };
  let interruptedAt = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    // One Ctrl-C reaches this process more than once (npm and tsx forward it too): a repeat counts after a moment.
    if (interrupted && Date.now() - interruptedAt < REPEAT_SIGNAL_MS) return;
    if (interrupted) {
      err(`conformance run: ${sig} again: quitting at once, without cleanup`);
      process.exit(EXIT_INTERRUPTED);
    }
    interrupted = sig;
    interruptedAt = Date.now();
    stop('interrupted', `interrupted by ${sig}`);
  };
  for (const sig of signals) process.on(sig, onSignal);
  const deadline = setTimeout(() => stop('deadline', `the run took longer than CONFORMANCE_RUN_TIMEOUT (${duration(s.runTimeoutMs)})`), s.runTimeoutMs);
  let stopped: RunStop | undefined;
  try {
    await vitest.start([]);
  } catch (e) {
    // A target that did not start or failed its preflight is in the run context (and the report);
    // anything else is printed here.
    if (!runContext(vitest)?.stopped) err(`conformance run: the run could not start: ${(e as Error).message}`);
  } finally {
    // Read before vitest closes: closing clears what it holds.
    stopped = runContext(vitest)?.stopped;
    clearTimeout(deadline);
    await vitest.close().catch(() => undefined);
    clearTimeout(grace);
    for (const sig of signals) process.off(sig, onSignal);
  }
  return { ...(interrupted ? { interrupted } : {}), ...(stopped ? { stopped } : {}) };
}
