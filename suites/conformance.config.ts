import { fileURLToPath } from 'node:url';
import type { Plugin, ViteUserConfig } from 'vitest/config';
import { builtHarness } from '../build/run.mjs';
import { readSources } from '../contract/config-source.js';
import { narrows, runsUnder, selectionFrom } from '../contract/selection.js';
import { defaults } from '../contract/settings.js';
import { ConformanceReporter } from '../reports/reporter.js';
import { suiteRegistrations } from './harness/registration/registrations.js';

// The conformance run: every suites/<concern>.check.ts against one target (see suites/global-setup.ts).
// `vitest --config suites/conformance.config.ts` reads this file; `conformance run` passes the same
// options to vitest itself (bin/commands/run.ts), so that vitest does not bundle and load the file
// and the reporter again beside the command line's own build of them.

type ConformanceConfig = ViteUserConfig & { test: NonNullable<ViteUserConfig['test']>; };

export async function conformanceConfig(env: NodeJS.ProcessEnv = process.env): Promise<ConformanceConfig> {
  const suitesDir = fileURLToPath(new URL('.', import.meta.url));
  const { raw } = readSources(env);
  const selection = selectionFrom(raw);

  // dist/ first (built or rebuilt when stale): its registrations manifest spares the run the compiler.
  const harness = await builtHarness();
  // With CONFORMANCE_ONLY or CONFORMANCE_EXCLUDE, files with no selected check are not even loaded
  // (their checks would all be skipped); the reporter lists their requirements as "not selected".
  const registrations = await suiteRegistrations(suitesDir);
  const files = narrows(selection)
    ? [...new Set(registrations.filter((r) => runsUnder(selection, r.requirements)).map((r) => r.file))]
    : ['suites/*.check.ts'];

  // How many checks of the loaded files name each requirement: the progress counts requirements checked.
  const expected = new Map<string, number>();
  for (const r of registrations) {
    if (narrows(selection) && !files.includes(r.file)) continue;
    for (const id of new Set(r.requirements)) expected.set(id, (expected.get(id) ?? 0) + 1);
  }

  return {
    plugins: [prebuiltHarness(harness)],
    test: {
      root: fileURLToPath(new URL('..', import.meta.url)),
      include: files.length ? files : ['suites/*.check.ts'],
      globalSetup: ['suites/global-setup.ts'],
      // The bundled mock and the harness are loaded from dist/ (plain JavaScript, built by build/bundle.mjs)
      // natively, not through the test transform: transforming the mock's 2 MB took longer than the
      // whole run's checks.
      server: { deps: { external: [/\/dist\//] } },
      // Files run one after another: a list walked by one file must not change under it because of another.
      fileParallelism: false,
      pool: 'forks',
      // vitest's experimental on-disk module cache (experimental.fsModuleCache) is left off: with it,
      // preparing the stack of an error raised in the main process (a socket closed mid-request)
      // throws inside vite's source-map support, and the run dies with an unhandled rejection.
      // One worker imports the harness once for all files; each file still cleans up after itself.
      isolate: false,
      testTimeout: 60_000,
      hookTimeout: 120_000,
      teardownTimeout: 30_000,
      // One reporter: progress while the run lasts, then the report files and one summary (no vitest summary besides).
      reporters: [new ConformanceReporter({ dir: raw.CONFORMANCE_REPORT_DIR ?? defaults.reportDir, expected })],
    },
  };
}

/**
 * The suites' imports of the harness resolve to its build in dist/harness/ (build/bundle.mjs), which
 * the test worker imports natively: through the test transform, each of its forty-odd modules was a
 * round trip between the worker and the main process before the first check could run. Every
 * module of the harness, whoever imports it, resolves to its one built module, so there is one
 * instance of each; a module added since the build runs through the transform and imports the built ones.
 */
export function prebuiltHarness(built: ReadonlyMap<string, string>): Plugin {
  return {
    name: 'conformance:prebuilt-harness',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !source.startsWith('.')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return (resolved && built.get(resolved.id)) ?? null;
    },
  };
}

export default () => conformanceConfig();
