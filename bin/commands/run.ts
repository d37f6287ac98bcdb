import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPORT_FILES } from '../../reports/write.js';
import { validateReport } from '../../reports/schema.js';
import type { Report } from '../../reports/types.js';
import { err, EXIT_FAILED, EXIT_OK, EXIT_USAGE, unknownValue, usageError } from '../args.js';
import { planRun, type RunPlan } from './run-options.js';
import { blockingFailures } from './summary.js';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const conformanceConfig = join(projectRoot, 'suites', 'conformance.config.ts');

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
  --report-dir <dir>     where the reports go (default: reports/ of the project)
  --fault <name>         bundled mock only: switch on one fault (list them: conformance mock --list-faults)
  --shape <full|legacy>  bundled mock only: response shape of projects and organizations
  --deprecate <ops>      bundled mock only: operations to mark deprecated, comma-separated or repeated
  --via-prism            send every request through a Prism validation proxy (CONFORMANCE_VIA_PRISM=1)
  --target prism-mock    run against Prism's mock of specs/openapi.json instead of a deployment
  --image <ref>          run against a container image (CONFORMANCE_IMAGE)
  -h, --help             show this help

Exit codes: 0 no must or implied requirement failed; 1 one did (or the run itself failed);
2 usage or configuration error, reported before any request is sent.
`;

async function checkPlan(plan: RunPlan): Promise<string | undefined> {
  const { unmatchedPatterns } = await import('../../specs/requirements.js');
  const unmatched = unmatchedPatterns(plan.only);
  if (unmatched.length > 0) return `--only ${unmatched.join(', ')} matches no requirement (see 'conformance requirements')`;
  const unmatchedExclude = unmatchedPatterns(plan.exclude);
  if (unmatchedExclude.length > 0) return `--exclude ${unmatchedExclude.join(', ')} matches no requirement (see 'conformance requirements')`;
  const fault = plan.env.CONFORMANCE_MOCK_FAULT;
  if (fault !== undefined) {
    const { faults } = await import('../../mock/faults.js');
    if (!faults.some((f) => f.name === fault)) return `${unknownValue('mock fault', fault, faults.map((f) => f.name))}; list them with 'conformance mock --list-faults'`;
  }
  return undefined;
}

/** All configuration errors at once, before the suites start (and before any request). */
async function checkConfig(plan: RunPlan): Promise<string | undefined> {
  const { loadConfig } = await import('../../suites/harness/config.js');
  const result = loadConfig(process.env);
  if (!result.ok) return `configuration is invalid:\n${result.errors.map((e) => `  - [${e.code}] ${e.setting}: ${e.message}`).join('\n')}`;
  const s = result.settings;
  if (plan.mockFlags.length > 0 && (s.baseUrl || s.image || s.target)) {
    return `${plan.mockFlags.join(', ')} apply to the bundled mock only, but the target is ${s.baseUrl ?? s.image ?? s.target}`;
  }
  return undefined;
}

function readReport(path: string): Report | undefined {
  if (!existsSync(path)) return undefined;
  const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  return validateReport(value).valid ? (value as Report) : undefined;
}

export async function runRun(argv: string[]): Promise<number> {
  const plan = planRun(argv, process.cwd(), join(projectRoot, 'reports'));
  if ('error' in plan) return usageError('run', plan.error);
  const planProblem = await checkPlan(plan);
  if (planProblem) return usageError('run', planProblem);
  Object.assign(process.env, plan.env);
  const configProblem = await checkConfig(plan);
  if (configProblem) {
    err(`conformance run: ${configProblem}`);
    return EXIT_USAGE;
  }
  const files = {
    html: join(plan.reportDir, REPORT_FILES.html),
    json: join(plan.reportDir, REPORT_FILES.json),
    junit: join(plan.reportDir, REPORT_FILES.junit),
  };
  // A stale report must not pass for this run's.
  for (const f of Object.values(files)) rmSync(f, { force: true });
  const { startVitest } = await import('vitest/node');
  try {
    const vitest = await startVitest('test', [], { config: conformanceConfig, run: true, watch: false });
    await vitest.close();
  } catch (e) {
    err(`conformance run: the run could not start: ${(e as Error).message}`);
    return EXIT_FAILED;
  }
  const report = readReport(files.json);
  if (!report) {
    err(`conformance run: no valid report was written to ${files.json} (see the errors above)`);
    return EXIT_FAILED;
  }
  // The reporter has printed the summary and the report paths (also when vitest is run directly).
  const blocking = blockingFailures(report);
  if (blocking.length > 0 || report.errors.length > 0) return EXIT_FAILED;
  return EXIT_OK;
}
