// Stryker's configuration of the mutation benchmark (`npm run mutation`, bench/mutation/run.ts).
// Every mutant is tested by the conformance run against the bundled mock (runner.ts).
import type { PartialStrykerOptions } from '@stryker-mutator/api/core';
import { INCREMENTAL_FILE, MUTATE, REPORT_DIR } from './settings.js';

export default {
  mutate: [...MUTATE],
  testRunner: 'conformance',
  plugins: [new URL('./runner.ts', import.meta.url).pathname],
  // The runner is TypeScript, and Stryker loads it in its own worker processes.
  testRunnerNodeArgs: ['--import', 'tsx'],
  checkerNodeArgs: ['--import', 'tsx'],
  // The whole run is the one test: a mutant it never reaches is reported as not covered, not run.
  coverageAnalysis: 'all',
  // Two runs at a time: each is a mock and a test worker, about one core between them.
  concurrency: 2,
  incremental: true,
  incrementalFile: INCREMENTAL_FILE,
  // A run takes about ten seconds; on a shared machine one can take twice as long without looping.
  // A break or a timeout is run a second time before it counts (runner.ts).
  // The runner gives a mutant's first run 60% of that, and a second run 35% (runner.ts).
  timeoutFactor: 2,
  timeoutMS: 60_000,
  dryRunTimeoutMinutes: 10,
  // What a run builds or writes is made again in the sandbox; the project's copies are not needed.
  ignorePatterns: ['dist', 'out', '.data', 'fixtures/mutation'],
  // The sandbox is bundled by esbuild, which does not type-check: no `// @ts-nocheck` is needed.
  disableTypeChecks: false,
  reporters: ['json', 'html', 'clear-text', 'progress'],
  jsonReporter: { fileName: `${REPORT_DIR}/mutation.json` },
  htmlReporter: { fileName: `${REPORT_DIR}/mutation.html` },
  clearTextReporter: { allowColor: false, logTests: false, reportTests: false, reportMutants: false },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
} satisfies PartialStrykerOptions;
