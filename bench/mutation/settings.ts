// What the mutation benchmark mutates, how each mutant is tested, and where its files go: read by
// the Stryker configuration (stryker.config.ts), the test runner (runner.ts) and the command (run.ts).
import { selfTestSettings } from '../../suites/self/runner.js';

/**
 * The mock's behaviour: mock/reference/ (pipeline, routes and resources, store, rendering, pages and
 * cursors, lists, idempotency, authentication, uploads, lookups), without its tests. Not the seed
 * data (mock/seed/), the faults (mock/faults/), the speed layer (mock/fast/) or test helpers.
 */
export const MUTATE = ['mock/reference/**/*.ts', '!mock/reference/**/*.test.ts'] as const;

/**
 * Checked-in data, in fixtures/ beside the other data the project's tests read: Stryker's record of
 * every mutant and its result (read back by the next run, so that it tests only what changed), the
 * fingerprint of what the kill depends on besides the mutated files, and the classified survivors.
 */
export const DATA_DIR = 'fixtures/mutation';
export const INCREMENTAL_FILE = `${DATA_DIR}/incremental.json`;
export const FINGERPRINT_FILE = `${DATA_DIR}/fingerprint.json`;
export const SURVIVORS_FILE = `${DATA_DIR}/survivors.json`;

/** Stryker's reports and each run's log: git-ignored, like every run's reports. */
export const REPORT_DIR = 'out/mutation';

/** The seed of the checked-in results; another seed (`--seed`) runs apart from them (run.ts). */
export const DEFAULT_SEED = selfTestSettings.CONFORMANCE_SEED;

/**
 * The settings of each conformance run: the self-test's, with MUTATION_SEED (set by run.ts, read by
 * Stryker's runner processes, which inherit its environment) for the seed.
 */
export const mutationRunSettings = (env: NodeJS.ProcessEnv = process.env): Record<string, string> => ({
  ...selfTestSettings,
  CONFORMANCE_SEED: env.MUTATION_SEED || DEFAULT_SEED,
});

/** The one test Stryker knows of: the whole conformance run. */
export const RUN_TEST = { id: 'conformance-run', name: 'npm start against the bundled mock' } as const;

/** How a killed mutant's failure message starts: by a failed requirement, or by the run breaking. */
export const KILL_REASON = {
  requirement: 'requirement failed:',
  crash: 'run broke:',
} as const satisfies Record<string, string>;
