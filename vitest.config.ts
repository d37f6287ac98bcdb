import { defineConfig } from 'vitest/config';

// The project's own tests (`npm test`): every *.test.ts. The conformance checks
// (suites/*.check.ts) run under suites/conformance.config.ts, started by `npm start`
// or by the self-test, never directly by this config.
export default defineConfig({
  test: {
    include: [
      'build/**/*.test.ts',
      'specs/**/*.test.ts',
      'contract/**/*.test.ts',
      'fixtures/**/*.test.ts',
      'mock/**/*.test.ts',
      'reports/**/*.test.ts',
      'bin/**/*.test.ts',
      'integrations/**/*.test.ts',
      'suites/harness/**/*.test.ts',
      'suites/self/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
