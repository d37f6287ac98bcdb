// What the mutation benchmark mutates, how each mutant is tested, and where its files go: read by
// the Stryker configuration (stryker.config.ts), the test runner (runner.ts) and the command (run.ts).
import { createHash } from 'node:crypto';
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
 * Stryker's runner processes, which inherit its environment) for the seed. The mock answers every
 * request through the reference pipeline: with its speed layer on (mock/fast/, pages and plain reads
 * answered before the framework), part of the code mutated would never serve a request.
 */
export const mutationRunSettings = (env: NodeJS.ProcessEnv = process.env): Record<string, string> => ({
  ...selfTestSettings,
  CONFORMANCE_MOCK_DIRECT_READS: 'off',
  CONFORMANCE_SEED: env.MUTATION_SEED || DEFAULT_SEED,
});

/** The one test Stryker knows of: the whole conformance run. */
export const RUN_TEST = { id: 'conformance-run', name: 'npm start against the bundled mock' } as const;

/** How a killed mutant's failure message starts: by a failed requirement, or by the run breaking. */
export const KILL_REASON = {
  requirement: 'requirement failed:',
  crash: 'run broke:',
} as const satisfies Record<string, string>;

/**
 * A run may test a seeded sample of the mutants rather than all of them (a full run takes hours):
 * each mutant is in the sample when the hash of its place (file, start, mutator, replacement) and of
 * the sample's seed falls below the fraction. The same seed with a larger fraction takes a superset,
 * so results accumulate in the incremental file: a later, larger run tests only the mutants it adds.
 * run.ts sets both (MUTATION_SAMPLE, MUTATION_SAMPLE_SEED); the runner reads them in Stryker's
 * worker processes, which inherit its environment.
 */
export const SAMPLE = { fraction: 1, seed: '1' } as const;

/** Why a mutant outside the sample was not tested: the status reason of those marked Ignored. */
export const OUTSIDE_SAMPLE = "outside this run's sample";

/** What places a mutant in the sample or not; its location as the report gives it (lines and columns from 1). */
export interface MutantPlace {
  file: string;
  line: number;
  column: number;
  mutatorName: string;
  replacement: string;
}

/** Whether the mutant is in the sample of this fraction and seed. */
export function inSample(m: MutantPlace, fraction: number, seed: string): boolean {
  if (fraction >= 1) return true;
  const key = [seed, m.file.replaceAll('\\', '/'), m.line, m.column, m.mutatorName, m.replacement].join('\u0000');
  return createHash('sha256').update(key).digest().readUInt32BE(0) / 0x1_0000_0000 < fraction;
}

/** The sample of this run: the one run.ts put in the environment, else every mutant. */
export const sampleOf = (env: NodeJS.ProcessEnv = process.env): { fraction: number; seed: string; } => ({
  fraction: env.MUTATION_SAMPLE ? Number(env.MUTATION_SAMPLE) : SAMPLE.fraction,
  seed: env.MUTATION_SAMPLE_SEED || SAMPLE.seed,
});
