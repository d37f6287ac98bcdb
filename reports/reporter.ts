import type { UserConsoleLog } from 'vitest';
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { readSources } from '../contract/config-source.js';
import { readAccounting } from '../contract/journal.js';
import { type RunContext, runContext, type RunHolder } from '../contract/run.js';
import { selectionFrom } from '../contract/selection.js';
import { buildReport } from './build-report.js';
import { type Catalog, loadCatalog } from './catalog.js';
import { colourWanted, type Paint, paint } from './colour.js';
import { mockStart } from './mock-start.js';
import { type CheckOutcome, Progress, type ProgressStream } from './progress.js';
import { redactString, type Secret, secretsFrom, secretsFromConfigFile } from './redact.js';
import { replaySettings } from './replay.js';
import { renderTerminalSummary } from './terminal.js';
import type { CheckResult, RunError } from './types.js';
import { verdictOf } from './verdict.js';
import { writeReport } from './write.js';

export interface ConformanceReporterOptions {
  /** Directory for conformance.json, junit.xml and index.html. */
  dir: string;
  /** Catalog override (tests); default: specs/requirements.ts. */
  catalog?: Catalog;
  /** Extra values to redact besides the CONFORMANCE_API_KEY* settings. */
  secrets?: readonly string[];
  /** How many checks name each requirement, for progress; default: learnt as suite files are collected. */
  expected?: ReadonlyMap<string, number>;
  /** Stack traces and the checks' console output; default: CONFORMANCE_VERBOSE=1. */
  verbose?: boolean;
  /** Where progress and the summary go; default: process.stdout. */
  out?: ProgressStream;
}

/** The requirement ids a check declared (task meta, set when the test is declared). */
const idsOf = (test: TestCase): string[] => test.meta().conformance?.requirements ?? [];

function toCheckResult(test: TestCase): CheckResult {
  const result = test.result();
  const errors = result.errors ?? [];
  return {
    name: test.name,
    moduleId: test.module.relativeModuleId,
    state: result.state,
    ...(result.state === 'skipped' && result.note !== undefined ? { note: result.note } : {}),
    errors: errors.map((e) => e.message),
    stacks: errors.map((e) => e.stack ?? e.message),
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

/** What one finished check means for each of its requirements, read as the report reads it (check-entry.ts). */
function outcomeOf(test: TestCase): (id: string) => CheckOutcome {
  const state = test.result().state;
  if (state !== 'failed') return () => (state === 'passed' ? 'passed' : 'skipped');
  const failure =
    ((test.meta() as Record<string, unknown>).conformance as { failure?: { setup?: unknown; finding?: unknown; requirements?: unknown; }; } | undefined)
      ?.failure;
  const concerned = Array.isArray(failure?.requirements) ? (failure.requirements as unknown[]) : undefined;
  if (!concerned || (concerned.length === 0 && !failure?.setup && !failure?.finding)) return () => 'failed';
  return (id) => (concerned.includes(id) ? 'failed' : 'blocked');
}

/** Vitest reporter of a conformance run (C6): progress while it runs, the report files and one summary at the end. */
export class ConformanceReporter implements Reporter {
  private startedAt = new Date();
  private readonly secrets = new Map<string, Secret>();
  private readonly out: ProgressStream;
  private readonly paint: Paint;
  private readonly verbose: boolean;
  private readonly progress: Progress;
  /** The run's vitest, which holds the run context (contract/run.ts). */
  private holder: RunHolder | undefined;

  constructor(private readonly options: ConformanceReporterOptions) {
    this.out = options.out ?? process.stdout;
    this.paint = paint(colourWanted(this.out));
    this.verbose = options.verbose ?? process.env.CONFORMANCE_VERBOSE === '1';
    this.progress = new Progress(this.out, this.paint, options.expected);
  }

  onInit(vitest: Vitest): void {
    this.holder = vitest;
  }

  /** The run context so far (none outside a conformance run, e.g. a reporter under test without one). */
  private context(): Partial<RunContext> | undefined {
    return this.holder ? runContext(this.holder) : undefined;
  }

  // The settings (and the bundled mock's generated keys) may appear in the environment
  // only while the run lasts, so they are collected at several points.
  private collectSecrets(): void {
    const context = this.context();
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

  onTestModuleCollected(module: TestModule): void {
    this.progress.collected([...module.children.allTests()].map(idsOf));
  }

  onTestCaseResult(test: TestCase): void {
    // Once the run stopped, what ends did not run: the progress stops where the run did.
    const stopped = this.context()?.stopped?.message ?? test.meta().conformance?.notRun;
    if (stopped) this.progress.stop(stopped);
    this.progress.checkFinished(idsOf(test), outcomeOf(test));
  }

  onTestModuleEnd(module: TestModule): void {
    this.progress.fileFinished(module.relativeModuleId);
  }

  // Checks' own console output (request counts per file, debugging) only with --verbose.
  onUserConsoleLog(log: UserConsoleLog): void {
    if (this.verbose) this.out.write(log.content);
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>, reason: TestRunEndReason): Promise<void> {
    this.collectSecrets();
    this.progress.clear();
    const secrets = [...this.secrets.values()];
    const checks = modules.flatMap((m) => [...m.children.allTests()].map(toCheckResult));
    const seedText = process.env.CONFORMANCE_SEED;
    const catalog = this.options.catalog ?? (await loadCatalog());
    const { only, exclude } = selectionFrom(readSources(process.env).raw);
    const excluded = new Set(catalog.match(exclude));
    const selected = new Set(catalog.match(only).filter((id) => !excluded.has(id)));
    const context = { specVersion: catalog.specVersion, ...this.context() };
    const mock = context.target?.kind === 'bundled-mock' ? await mockStart(process.env) : undefined;
    const journal = context.journal;
    const report = buildReport({
      checks,
      catalog: catalog.entries,
      context,
      ...(journal ? { accounting: () => readAccounting(journal) } : {}),
      only,
      isSelected: (id) => (only.length === 0 ? !excluded.has(id) : selected.has(id)),
      startedAt: this.startedAt.toISOString(),
      durationMs: Date.now() - this.startedAt.getTime(),
      seed: seedText !== undefined && /^-?\d+$/.test(seedText) ? Number(seedText) : null,
      errors: runErrors(modules, unhandled, reason),
      ...(mock ? { mock } : {}),
      replay: replaySettings(process.env, this.options.dir),
    });
    let paths: Awaited<ReturnType<typeof writeReport>>;
    try {
      paths = await writeReport(this.options.dir, report, secrets);
    } catch (error) {
      // A report that cannot be written must not look like a clean run.
      process.exitCode = 1;
      process.stderr.write(`\nconformance report NOT written: ${redactString(String((error as Error).message), secrets)}\n`);
      throw error;
    }
    // The verdict decides, not the checks alone: what the audit of every response found, or a
    // defect of a check (a run error), fails the run though every check passed.
    if (verdictOf(report).kind !== 'conforms') process.exitCode = 1;
    const stacks = this.verbose ? new Map(checks.filter((c) => c.state === 'failed').map((c) => [c.name, c.stacks ?? c.errors])) : undefined;
    const summary = renderTerminalSummary(report, { paint: this.paint, paths, ...(stacks ? { stacks } : {}) });
    this.out.write(redactString(summary, secrets));
  }
}
