// What the mutation benchmark mutates, how each mutant is tested, and where its files go: read by
// the Stryker configuration (stryker.config.ts), the test runner (runner.ts) and the command (run.ts).
import { createHash } from 'node:crypto';
import { selfTestSettings } from '../../suites/self/runner.js';

/**
 * The mock's behaviour: mock/reference/ (pipeline, routes and resources, store, rendering, pages and
 * cursors, lists, idempotency, authentication, uploads, lookups) and the speed layer over it,
 * mock/fast/ (list pages kept while current, plain reads answered before the framework), without
 * their tests. Not the seed data (mock/seed/), the faults (mock/faults/) or test helpers.
 */
export const MUTATE = ['mock/reference/**/*.ts', '!mock/reference/**/*.test.ts', 'mock/fast/**/*.ts', '!mock/fast/**/*.test.ts'] as const;

/** The folders mutated, as the figures count them apart (the project's paths, with a trailing slash). */
export const FOLDERS = ['mock/reference/', 'mock/fast/'] as const;
export type Folder = (typeof FOLDERS)[number];

/** The folder of a mutated file (a path relative to the project root), or undefined for another file. */
export const folderOf = (file: string): Folder | undefined => FOLDERS.find((f) => file.replaceAll('\\', '/').startsWith(f));

/**
 * Whether a mutant of this file is tested with the speed layer on: a mutant of mock/fast/ only
 * serves requests when the layer answers them; one of mock/reference/ is tested with the layer off,
 * so that the reference pipeline serves every request (a page or a plain read answered before the
 * framework would never reach the reference's mutated code).
 */
export const servedByFastLayer = (file: string): boolean => folderOf(file) === 'mock/fast/';

/**
 * Checked-in data, in fixtures/ beside the other data the project's tests read: Stryker's record of
 * every mutant and its result (read back by the next run, so that it tests only what changed), the
 * fingerprint of what the kill depends on besides the mutated files, and the classified survivors.
 * Each sample seed has its own: fixtures/mutation/sample-<seed>/. The files directly in
 * fixtures/mutation/ are of sample seed 1, measured at ac637d2 on mock/reference/ alone: history,
 * which a run no longer rewrites (its seed was used while writing checks).
 */
export const DATA_DIR = 'fixtures/mutation';
export const INCREMENTAL_FILE = `${DATA_DIR}/incremental.json`;
export const FINGERPRINT_FILE = `${DATA_DIR}/fingerprint.json`;
export const SURVIVORS_FILE = `${DATA_DIR}/survivors.json`;

/** The sample seed of the history in fixtures/mutation/ itself. */
export const HISTORY_SAMPLE_SEED = '1';

/** Where the checked-in results of a sample seed are (with the default conformance seed). */
export const dataDirOf = (sampleSeed: string): string => (sampleSeed === HISTORY_SAMPLE_SEED ? DATA_DIR : `${DATA_DIR}/sample-${sampleSeed}`);

/** The files of one data folder. */
export const dataFiles = (dir: string) => ({
  incremental: `${dir}/incremental.json`,
  fingerprint: `${dir}/fingerprint.json`,
  survivors: `${dir}/survivors.json`,
});

/** Stryker's reports and each run's log: git-ignored, like every run's reports. */
export const REPORT_DIR = 'out/mutation';

/** The seed of the checked-in results; another seed (`--seed`) runs apart from them (run.ts). */
export const DEFAULT_SEED = selfTestSettings.CONFORMANCE_SEED;

/**
 * The settings of each conformance run: the self-test's, with MUTATION_SEED (set by run.ts, read by
 * Stryker's runner processes, which inherit its environment) for the seed. With `fastLayer` false the
 * mock answers every request through the reference pipeline (CONFORMANCE_MOCK_DIRECT_READS=off): with
 * its speed layer on, part of the reference's code would never serve a request. With it true, the
 * mock runs as it ships, the speed layer answering pages and plain reads (servedByFastLayer).
 */
export const mutationRunSettings = (env: NodeJS.ProcessEnv = process.env, fastLayer = false): Record<string, string> => ({
  ...selfTestSettings,
  ...(fastLayer ? {} : { CONFORMANCE_MOCK_DIRECT_READS: 'off' }),
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
 * worker processes, which inherit its environment. The default seed is the one of the figures
 * reported last, a seed drawn after the checks it measures were written (seed 1 was used while
 * writing them); the default fraction is that of its checked-in results (run.ts), else every mutant.
 */
export const SAMPLE = { fraction: 1, seed: '20261128' } as const;

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
