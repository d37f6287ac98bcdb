// The fault sweep: one process runs the checks selected for each mock fault against a mock with
// that fault on, one fault after another, and writes what a conformance run would have reported.
// A run per fault through vitest costs about 3 s of start-up each; here the suites are loaded once
// and every fault costs what its checks cost. The checks are the very ones of suites/*.check.ts
// (check() records them instead of registering vitest tests, and runCheck is the body vitest
// runs); the report is built by reports/build-report.ts, as the reporter builds it.
//
//   node --import tsx suites/self/sweep.ts <out.json> <fault>[@legacy] ...
// Environment: CONFORMANCE_SEED, CONFORMANCE_MOCK_DEPRECATE (comma-separated).
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckMeta } from '../../contract/check.js';
import { requireConfig } from '../../contract/config.js';
import { selects } from '../../contract/selection.js';
import { failureModes, faults as allFaults, start } from '../../mock/index.js';
import { buildReport } from '../../reports/build-report.js';
import { loadCatalog } from '../../reports/catalog.js';
import { AUDIT_CONCERN } from '../../reports/findings.js';
import type { CheckResult } from '../../reports/types.js';
import { type CheckDefinition, collectChecks, runCheck } from '../harness/check.js';
import { forgetReferences } from '../harness/judge/references.js';
import { forgetDetectedShape } from '../harness/judge/shape.js';
import { bundledScratchProjects } from '../harness/preflight.js';
import { resetTrafficForTests } from '../harness/run/context.js';
import { provideTarget } from '../harness/run/target.js';
import { closeSession } from '../harness/session.js';
import { forgetServedLimits } from '../harness/walk.js';
import { selfTestSettings } from './runner.js';

/** What one fault's run reported: the report's requirements (id, status) and every check's status. */
export interface SweepOutcome {
  fault: string;
  requirements: { id: string; status: string; }[];
  checks: [string, string][];
  error?: string;
}

const suitesDir = fileURLToPath(new URL('..', import.meta.url));

/** Thrown by a check's skip: the code vitest's skip uses, so setup steps let it through. */
class Skipped extends Error {
  readonly code = 'VITEST_PENDING';
}

/** Every suite file, in name order (as the run's registrations list them). */
const suiteFiles = (): string[] => readdirSync(suitesDir).filter((f) => f.endsWith('.check.ts')).sort().map((f) => join(suitesDir, f));

const timeout = (ms: number, what: string) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms).unref());

async function runOne(def: CheckDefinition): Promise<CheckResult> {
  const meta: CheckMeta = { requirements: def.requirements, concern: def.concern };
  const started = Date.now();
  let state: CheckResult['state'] = 'passed';
  const errors: string[] = [];
  try {
    await Promise.race([
      runCheck(def, meta, (reason) => {
        throw new Skipped(reason);
      }),
      timeout(def.options.timeout ?? 60_000, def.name),
    ]);
  } catch (e) {
    if (e instanceof Skipped) state = 'skipped';
    else {
      state = 'failed';
      errors.push(String((e as Error)?.message ?? e));
    }
  }
  return {
    name: def.name,
    moduleId: `suites/${def.concern}.check.ts`,
    state,
    ...(state === 'skipped' ? { note: meta.skipReason } : {}),
    errors,
    durationMs: Date.now() - started,
    meta,
  };
}

async function sweepOne(checks: readonly CheckDefinition[], spec: string, seed: number, deprecate: string[]): Promise<SweepOutcome> {
  const [fault, shape] = spec.split('@') as [string, string | undefined];
  const info = allFaults.find((f) => f.name === fault) ?? (fault.startsWith('mode:') ? failureModes().find((f) => f.name === fault) : undefined);
  if (!info) return { fault, requirements: [], checks: [], error: `unknown fault ${fault}` };
  const mock = await start({ fault, seed, deprecate, ...(shape === 'legacy' ? { shape: 'legacy' as const } : {}) });
  try {
    const settings = requireConfig({ ...mock.settings, CONFORMANCE_ONLY: info.requirements.join(',') }) as ReturnType<typeof requireConfig> & {
      baseUrl: string;
    };
    settings.seed = seed;
    // as the global setup does for the bundled mock: projects set aside for changes no request undoes
    const first = await fetch(`${mock.url}/api/public/v1/projects`, { headers: { authorization: `Bearer ${mock.settings.CONFORMANCE_API_KEY}` } });
    const page = (await first.json().catch(() => ({}))) as { data?: Record<string, unknown>[]; };
    settings.scratchProjects = bundledScratchProjects(Array.isArray(page.data) ? page.data : []);
    provideTarget({ settings, runId: `cfm-sweep-${seed.toString(36)}`, seed, kind: 'bundled-mock' });
    resetTrafficForTests();
    forgetDetectedShape();
    forgetServedLimits();
    forgetReferences();
    const results: CheckResult[] = [];
    const selected = checks.filter((d) => selects(info.requirements, d.requirements));
    for (const concern of [...new Set(selected.map((d) => d.concern))]) {
      for (const def of selected.filter((d) => d.concern === concern)) results.push(await runOne(def));
      await closeSession(concern);
    }
    const catalog = await loadCatalog();
    const chosen = new Set(catalog.match(info.requirements));
    const report = buildReport({
      checks: results,
      catalog: catalog.entries,
      only: info.requirements,
      isSelected: (id) => chosen.has(id),
      context: { specVersion: catalog.specVersion, seed },
      startedAt: new Date().toISOString(),
      durationMs: 0,
      seed,
    });
    // The suites' checks, and the audit's of every response as the report has them.
    const audit = new Map(report.requirements.flatMap((r) => r.checks).filter((c) => c.concern === AUDIT_CONCERN).map((c) => [c.name, c.status]));
    return {
      fault: spec,
      requirements: report.requirements.map((r) => ({ id: r.id, status: r.status })),
      checks: [...results.map((r): [string, string] => [r.name, r.state === 'failed' ? 'failed' : r.state]), ...audit],
    };
  } finally {
    await mock.close();
  }
}

async function main(): Promise<void> {
  const [out, ...specs] = process.argv.slice(2);
  if (!out) throw new Error('usage: sweep.ts <out.json> <fault>[@legacy] ...');
  const seed = Number(process.env.CONFORMANCE_SEED ?? selfTestSettings.CONFORMANCE_SEED);
  const deprecate = (process.env.CONFORMANCE_MOCK_DEPRECATE ?? selfTestSettings.CONFORMANCE_MOCK_DEPRECATE).split(',').map((s) => s.trim()).filter(Boolean);
  // the checks' console lines (request counts per file) would only be noise here
  console.log = () => undefined;
  const checks = await collectChecks(suiteFiles());
  const outcomes: SweepOutcome[] = [];
  for (const spec of specs) {
    outcomes.push(
      await sweepOne(checks, spec, seed, deprecate).catch((e: unknown) => ({
        fault: spec,
        requirements: [],
        checks: [],
        error: String((e as Error)?.stack ?? e),
      })),
    );
  }
  writeFileSync(out, JSON.stringify(outcomes));
}

await main();
process.exit(0);
