import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { ConformanceReporter } from '../reports/reporter.js';
import { selects } from './harness/only.js';
import { suiteRegistrations } from './harness/registrations.js';

// The conformance run: every suites/<concern>.test.ts against one target (see suites/global-setup.ts).
const suitesDir = fileURLToPath(new URL('.', import.meta.url));
const only = (process.env.CONFORMANCE_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);

// With CONFORMANCE_ONLY, files with no selected check are not even loaded (their checks would all
// be skipped); the reporter lists their requirements as "no check selected".
const files = only.length
  ? [...new Set(suiteRegistrations(suitesDir).filter((r) => selects(only, r.ids)).map((r) => r.file))]
  : ['*.test.ts'];

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: files.length ? files.map((f) => `suites/${f}`) : ['suites/*.test.ts'],
    globalSetup: ['suites/global-setup.ts'],
    // The bundled mock is loaded from dist/ (plain JavaScript, built by build/bundle.mjs) natively,
    // not through the test transform: transforming its 2 MB took longer than the whole run's checks.
    server: { deps: { external: [/\/dist\//] } },
    // Files run one after another: a list walked by one file must not change under it because of another.
    fileParallelism: false,
    pool: 'forks',
    // Transformed suites and harness are kept on disk between runs (keyed by content, config and
    // lockfile; written atomically, so parallel runs share them): transforming the same files
    // again took up to a second of a run's wall time on 2 cores.
    experimental: { fsModuleCache: true },
    // One worker imports the harness once for all files; each file still cleans up after itself.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    reporters: ['default', new ConformanceReporter({ dir: process.env.CONFORMANCE_REPORT_DIR || 'reports' })],
  },
});
