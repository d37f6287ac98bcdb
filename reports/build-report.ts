import type { RunAccounting } from '../contract/run.js';
import { type Outcome, rootCauses } from './causes.js';
import { type Entry, mergeReadings, mergeWarnings, NOT_SELECTED, toEntry } from './check-entry.js';
import { buildCoverage, type CoverageCheck } from './coverage.js';
import { AUDIT_CONCERN, auditEntry, findingFailure, foldFindings } from './findings.js';
import { checkMeta } from './meta.js';
import { type MockStart, mockStartLines, replayCommand, type ReplaySettings, type ReplayTarget } from './replay.js';
import type {
  CatalogEntry,
  CheckMeta,
  CheckResult,
  Report,
  ReportCheck,
  ReportFailure,
  ReportRequirement,
  RequirementStatus,
  RunContext,
  RunError,
} from './types.js';

export interface BuildInput {
  checks: readonly CheckResult[];
  catalog: readonly CatalogEntry[];
  /** The run context (contract/run.ts); any part may be missing. */
  context?: Partial<RunContext>;
  /** The workers' account of the run, read when the report is built (the run's journal: contract/journal.ts). */
  accounting?: () => RunAccounting;
  /** CONFORMANCE_ONLY patterns, recorded in the report (empty: everything selected). */
  only?: readonly string[];
  /** Whether a requirement is selected by those patterns; default: all are. */
  isSelected?: (id: string) => boolean;
  /** Used when the context carries no start time. */
  startedAt: string;
  durationMs: number;
  /** Used when the context carries no seed (e.g. CONFORMANCE_SEED). */
  seed?: number | null;
  errors?: readonly RunError[];
  /** How the bundled mock was started (its flags), so the report can say how to start it again. */
  mock?: MockStart;
  /** How the run was pointed at its target (settings file, target settings, report folder): its replays are pointed the same way. */
  replay?: ReplaySettings;
}

export { NOT_SELECTED };
export const NO_CHECK = 'no check selected';

/** One check's part in one requirement: failed, blocked (not reached), passed or skipped. */
interface Part {
  entry: Entry;
  status: ReportCheck['status'];
}

const partOf = (entry: Entry, id: string): Part => ({
  entry,
  status: entry.check.status === 'failed' && !entry.failed.includes(id) ? 'blocked' : entry.check.status,
});

// failed > blocked > passed > skipped: a requirement passes only when nothing kept a check of it from passing.
function statusOf(entry: CatalogEntry, parts: readonly Part[]): RequirementStatus {
  if (entry.level === 'not-testable') return 'not-testable';
  for (const s of ['failed', 'blocked', 'passed'] as const) if (parts.some((p) => p.status === s)) return s;
  return 'skipped';
}

// Requirements on the document or on clients are not exercised against a target.
const NOT_RUN_BY_SUBJECT: Record<string, string> = {
  spec: 'checked on the API description by `conformance diff`, not against a target',
  client: 'a rule for clients, honoured by the suite itself (proven by specs/client-tolerance.test.ts)',
};

function skipReason(entry: CatalogEntry, checks: readonly ReportCheck[], isSelected: (id: string) => boolean): string {
  if (!isSelected(entry.id)) return NOT_SELECTED;
  const reasons = [...new Set(checks.map((c) => c.reason).filter((r): r is string => r !== undefined))];
  if (reasons.length > 0) return reasons.join('; ');
  return (checks.length === 0 && entry.subject ? NOT_RUN_BY_SUBJECT[entry.subject] : undefined) ?? NO_CHECK;
}

function blockReason(parts: readonly Part[]): string {
  const p = parts.find((x) => x.status === 'blocked')!;
  const f = p.entry.failure;
  const step = f?.setup?.at(-1);
  if (step) return `blocked: setup step "${step}" failed (${p.entry.check.cause ?? 'see causes'})`;
  if (f?.finding !== undefined) return `blocked: a response it needed is wrong: ${f.message} (${p.entry.check.cause ?? 'see causes'})`;
  return `not reached: check "${p.entry.check.name}" failed first on ${p.entry.failed.join(', ')} (${p.entry.check.cause ?? 'see causes'})`;
}

function replayTarget(input: BuildInput, seed: number | null): ReplayTarget {
  const t = input.context?.target;
  return {
    kind: t?.kind ?? 'unknown',
    baseUrl: t?.baseUrl ?? null,
    seed,
    viaPrism: t?.viaPrism,
    ...(input.mock ? { mock: input.mock } : {}),
    ...(input.replay ? { settings: input.replay } : {}),
  };
}

/** Test results + catalog + run context → the conformance.json object (C6). Pure. */
export function buildReport(input: BuildInput): Report {
  const only = input.only ?? [];
  const isSelected = input.isSelected ?? (() => true);
  const ctx = input.context ?? {};
  const seed = ctx.seed ?? input.seed ?? null;
  const replay = replayTarget(input, seed);
  const known = new Set(input.catalog.map((r) => r.id));
  const errors: RunError[] = [...(input.errors ?? [])];
  const byRequirement = new Map<string, Part[]>();
  const metas: { name: string; meta: CheckMeta; }[] = [];
  const ran: CoverageCheck[] = [];
  const outcomes: Outcome[] = [];
  const accounting = readAccounting(input.accounting, errors);
  const stopped: { cause: NonNullable<Report['stopped']>['cause']; message: string; code?: string; } | undefined = ctx.stopped ?? accounting?.stopped;
  for (const result of input.checks) {
    const meta = checkMeta(result);
    metas.push({ name: result.name, meta });
    const entry = toEntry(result, meta, isSelected);
    ran.push({ entry, meta });
    const notRun = notRunReason(result, stopped?.message);
    if (notRun && entry.check.status === 'skipped' && entry.check.reason !== NOT_SELECTED) {
      entry.check.notRun = notRun;
      // One reason for every check the stop kept from running, in the run's words, not the runner's.
      entry.check.reason = `not run: ${notRun}`;
    }
    if (meta.requirements.length === 0) errors.push({ source: result.moduleId, message: `check "${result.name}" names no requirement` });
    for (const id of meta.requirements) {
      if (!known.has(id)) errors.push({ source: result.moduleId, message: `check "${result.name}" names unknown requirement ${id}` });
      byRequirement.set(id, [...(byRequirement.get(id) ?? []), partOf(entry, id)]);
    }
    for (const id of meta.failure?.strays ?? []) {
      errors.push({ source: result.moduleId, message: `check "${result.name}" failed on requirement ${id}, which it is not tagged with` });
    }
    if (entry.failure) {
      const command = replayCommand(replay, entry.failed.length > 0 ? entry.failed : meta.requirements, entry.failure.path);
      if (command) entry.failure.replay = command;
      outcomes.push({
        check: entry.check,
        failure: entry.failure,
        failed: entry.failed,
        blocked: meta.requirements.filter((id) => !entry.failed.includes(id)),
      });
    }
  }
  // What every response must be, judged on every response: its findings under their own requirements.
  const audit = foldFindings(metas.map((m) => m.meta), isSelected);
  const auditFailures = new Map<string, ReportFailure[]>();
  for (const id of audit.judged.keys()) {
    if (!known.has(id)) continue;
    const entry = auditEntry(id, audit.findings);
    byRequirement.set(id, [...(byRequirement.get(id) ?? []), { entry, status: entry.check.status }]);
  }
  for (const f of audit.findings) {
    const failures = f.requirements.map((id) => findingFailure(f, id));
    const command = replayCommand(replay, f.requirements, null);
    failures.forEach((failure, i) => {
      if (command) failure.replay = command;
      auditFailures.set(f.requirements[i]!, [...(auditFailures.get(f.requirements[i]!) ?? []), failure]);
    });
    const check = byRequirement.get(f.requirements[0]!)?.find((p) => p.entry.check.concern === AUDIT_CONCERN)?.entry.check;
    if (check) {
      outcomes.push({
        check,
        failure: failures[0]!,
        failed: f.requirements,
        blocked: [],
        finding: { message: f.message, seenIn: f.seenIn, responses: f.count },
      });
    }
  }
  const statusById = new Map(input.catalog.map((entry) => [entry.id, statusOf(entry, byRequirement.get(entry.id) ?? [])]));
  const rankOf = new Map(input.catalog.map((entry, i) => [entry.id, i]));
  const causes = rootCauses(outcomes, { endedBlocked: (id) => statusById.get(id) === 'blocked', rank: (id) => rankOf.get(id) ?? rankOf.size });
  // A finding under several requirements is one cause: each of its failures, and the audit's entry of each requirement, name it.
  const causeOfFinding = new Map(
    outcomes.flatMap((o) => (o.failure.finding !== undefined && o.failure.cause ? [[o.failure.finding, o.failure.cause] as const] : [])),
  );
  for (const failures of auditFailures.values()) for (const f of failures) f.cause ??= causeOfFinding.get(f.finding!);
  for (const parts of byRequirement.values()) {
    for (const { entry } of parts) {
      if (entry.check.concern === AUDIT_CONCERN && entry.failure?.finding) entry.check.cause ??= causeOfFinding.get(entry.failure.finding);
    }
  }
  const requirements = input.catalog.map((entry): ReportRequirement => {
    const parts = byRequirement.get(entry.id) ?? [];
    const checks = parts.map((p) => p.entry.check);
    const status = statusById.get(entry.id)!;
    const r: ReportRequirement = {
      id: entry.id,
      section: entry.section,
      level: entry.level,
      status,
      checks,
      failures: [
        ...parts.flatMap((p) => (p.status === 'failed' && p.entry.failure && p.entry.check.concern !== AUDIT_CONCERN ? [p.entry.failure] : [])),
        ...(auditFailures.get(entry.id) ?? []),
      ],
    };
    if (entry.quote !== undefined) r.quote = entry.quote;
    if (entry.subject !== undefined) r.subject = entry.subject;
    if (status === 'skipped') r.reason = skipReason(entry, checks, isSelected);
    if (status === 'blocked') r.reason = blockReason(parts);
    const ids = [
      ...new Set(parts.filter((p) => p.status === status && (status === 'failed' || status === 'blocked')).flatMap((p) => p.entry.check.cause ?? [])),
    ];
    if (ids.length > 0) r.causes = ids;
    return r;
  });
  const count = (s: RequirementStatus) => requirements.filter((r) => r.status === s).length;
  const warnings = mergeWarnings(metas);
  if (stopped) errors.push({ source: 'run', message: stopMessage(stopped) });
  const target: Report['target'] = {
    kind: ctx.target?.kind ?? 'unknown',
    baseUrl: ctx.target?.baseUrl ?? null,
    shape: ctx.target?.shape ?? null,
    readings: mergeReadings(metas.map((m) => m.meta)),
  };
  if (warnings.length > 0) target.warnings = warnings;
  if (ctx.target?.viaPrism !== undefined) target.viaPrism = ctx.target.viaPrism;
  if (ctx.target?.mockFault !== undefined) target.mockFault = ctx.target.mockFault;
  const report: Report = {
    specVersion: ctx.specVersion ?? 'unknown',
    target,
    seed,
    startedAt: ctx.startedAt ?? input.startedAt,
    durationMs: Math.round(input.durationMs),
    summary: {
      passed: count('passed'),
      failed: count('failed'),
      blocked: count('blocked'),
      skipped: count('skipped'),
      notTestable: count('not-testable'),
      total: requirements.length,
    },
    causes,
    requirements,
    errors,
  };
  const mock = mockStartLines(replay);
  if (mock) report.reproduce = { mock };
  if (only.length > 0) report.only = [...only];
  report.runId = ctx.runId ?? null;
  report.readOnly = ctx.readOnly ?? false;
  if (accounting) Object.assign(report, { requests: accounting.requests, leftovers: accounting.leftovers, touched: accounting.touched });
  if (stopped) report.stopped = { cause: stopped.cause, message: stopped.message, ...(stopped.code ? { code: stopped.code } : {}) };
  // After the root causes: a cell its check failed or was blocked before names the cause.
  if (ctx.coverage) {
    const narrowed = only.length > 0 || input.catalog.some((e) => !isSelected(e.id));
    report.coverage = buildCoverage(ctx.coverage, ran, { narrowed, ...(stopped ? { stopped: stopped.message } : {}) });
  }
  return report;
}

/** The workers' account (records left, records touched and restored, requests); its failure is a run error. */
function readAccounting(read: BuildInput['accounting'], errors: RunError[]): RunAccounting | undefined {
  if (read === undefined) return undefined;
  try {
    return read();
  } catch (e) {
    errors.push({ source: 'run', message: `the run's account could not be read: ${(e as Error).message}` });
    return undefined;
  }
}

const STOP_LEAD: Record<string, string> = {
  interrupted: 'the run was interrupted',
  deadline: 'the run reached its deadline',
  'target-unresponsive': 'the run stopped early',
  'target-not-started': 'the run did not start',
  preflight: 'the run did not start',
};

function stopMessage(stop: { cause: string; message: string; }): string {
  return `${STOP_LEAD[stop.cause] ?? 'the run stopped'}: ${stop.message}`;
}

/** A check that could not run: it says so itself, or it never ran in a run that stopped early. */
function notRunReason(result: CheckResult, stopMessageText: string | undefined): string | undefined {
  const raw = (result.meta ?? {}) as { notRun?: unknown; skipReason?: unknown; };
  if (typeof raw.notRun === 'string') return raw.notRun;
  if (!stopMessageText || (result.state !== 'skipped' && result.state !== 'pending')) return undefined;
  return typeof raw.skipReason === 'string' ? undefined : stopMessageText;
}
