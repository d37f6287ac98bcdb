import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason } from 'vitest/node';
import { buildReport } from './build-report.js';
import { loadCatalog, type Catalog } from './catalog.js';
import { redactString, secretsFrom, secretsFromConfigFile, type Secret } from './redact.js';
import type { CheckResult, RunContext, RunError } from './types.js';
import { writeReport } from './write.js';

export interface ConformanceReporterOptions {
  /** Directory for conformance.json, junit.xml and index.html. */
  dir: string;
  /** Catalog override (tests); default: specs/requirements.ts. */
  catalog?: Catalog;
  /** Extra values to redact besides the CONFORMANCE_API_KEY* settings. */
  secrets?: readonly string[];
}

function toCheckResult(test: TestCase): CheckResult {
  const result = test.result();
  const errors = (result.errors ?? []).map((e) => e.message);
  return {
    name: test.name,
    moduleId: test.module.relativeModuleId,
    state: result.state,
    ...(result.state === 'skipped' && result.note !== undefined ? { note: result.note } : {}),
    errors,
    durationMs: test.diagnostic()?.duration ?? 0,
    // Read untyped: the shape is checked by meta.ts, whatever the declared TaskMeta says.
    meta: (test.meta() as Record<string, unknown>).conformance,
  };
}

function runErrors(modules: readonly TestModule[], unhandled: readonly SerializedError[], reason: TestRunEndReason): RunError[] {
  const errors: RunError[] = modules.flatMap((m) => m.errors().map((e) => ({ source: m.relativeModuleId, message: e.message })));
  errors.push(...unhandled.map((e) => ({ source: 'unhandled error', message: e.message })));
  if (reason === 'interrupted') errors.push({ source: 'run', message: 'the run was interrupted; unfinished checks are reported as skipped' });
  return errors;
}

/** Vitest reporter writing the conformance report (C6) at the end of a run. */
export class ConformanceReporter implements Reporter {
  private startedAt = new Date();
  private readonly secrets = new Map<string, Secret>();

  constructor(private readonly options: ConformanceReporterOptions) {}

  // The settings (and the bundled mock's generated keys) may appear in the environment
  // only while the run lasts, so they are collected at several points.
  private collectSecrets(): void {
    const context = globalThis.__conformanceRun as Partial<RunContext> | undefined;
    const extra = Object.fromEntries((this.options.secrets ?? []).map((v, i) => [`SECRET_${i}`, v]));
    const found = [...secretsFrom(process.env, context?.settings, extra), ...secretsFromConfigFile(process.env.CONFORMANCE_CONFIG)];
    for (const s of found) if (!this.secrets.has(s.value)) this.secrets.set(s.value, s);
  }

  onTestRunStart(): void {
    this.startedAt = new Date();
    this.collectSecrets();
  }

  onTestModuleStart(): void {
    this.collectSecrets();
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>, reason: TestRunEndReason): Promise<void> {
    this.collectSecrets();
    const secrets = [...this.secrets.values()];
    const checks = modules.flatMap((m) => [...m.children.allTests()].map(toCheckResult));
    const seedText = process.env.CONFORMANCE_SEED;
    const catalog = this.options.catalog ?? (await loadCatalog());
    const only = (process.env.CONFORMANCE_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const selected = new Set(catalog.match(only));
    const context: Partial<RunContext> = { specVersion: catalog.specVersion, ...(globalThis.__conformanceRun as Partial<RunContext> | undefined) };
    const report = buildReport({
      checks,
      catalog: catalog.entries,
      context,
      only,
      isSelected: (id) => only.length === 0 || selected.has(id),
      startedAt: this.startedAt.toISOString(),
      durationMs: Date.now() - this.startedAt.getTime(),
      seed: seedText !== undefined && /^-?\d+$/.test(seedText) ? Number(seedText) : null,
      errors: runErrors(modules, unhandled, reason),
    });
    try {
      const paths = await writeReport(this.options.dir, report, secrets);
      process.stdout.write(`\nconformance report: ${paths.html}\n  ${paths.json}\n  ${paths.junit}\n`);
    } catch (error) {
      // A report that cannot be written must not look like a clean run.
      process.exitCode = 1;
      process.stderr.write(`\nconformance report NOT written: ${redactString(String((error as Error).message), secrets)}\n`);
      throw error;
    }
  }
}
