import { mergeReadings, NOT_SELECTED, toEntry, type Entry } from './check-entry.js';
import { checkMeta } from './meta.js';
import type { RunAccounting } from '../suites/harness/journal.js';
import type {
  CatalogEntry, CheckMeta, CheckResult, Report, ReportCheck, ReportRequirement, RequirementStatus, RunContext, RunError,
} from './types.js';

export interface BuildInput {
  checks: readonly CheckResult[];
  catalog: readonly CatalogEntry[];
  /** `globalThis.__conformanceRun`; any part may be missing. */
  context?: Partial<RunContext>;
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
}

export { NOT_SELECTED };
export const NO_CHECK = 'no check selected';

function statusOf(entry: CatalogEntry, checks: readonly ReportCheck[]): RequirementStatus {
  if (entry.level === 'not-testable') return 'not-testable';
  if (checks.some((c) => c.status === 'failed')) return 'failed';
  if (checks.some((c) => c.status === 'passed')) return 'passed';
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

/** Test results + catalog + run context → the conformance.json object (C6). Pure. */
export function buildReport(input: BuildInput): Report {
  const only = input.only ?? [];
  const isSelected = input.isSelected ?? (() => true);
  const known = new Set(input.catalog.map((r) => r.id));
  const errors: RunError[] = [...(input.errors ?? [])];
  const byRequirement = new Map<string, Entry[]>();
  const metas: CheckMeta[] = [];
  const ctx = input.context ?? {};
  const accounting = readAccounting(ctx, errors);
  const stopped: { cause: NonNullable<Report['stopped']>['cause']; message: string; code?: string } | undefined = ctx.stopped ?? accounting?.stopped;
  for (const result of input.checks) {
    const meta = checkMeta(result);
    metas.push(meta);
    const entry = toEntry(result, meta, isSelected);
    const notRun = notRunReason(result, stopped?.message);
    if (notRun && entry.check.status === 'skipped' && entry.check.reason !== NOT_SELECTED) entry.check.notRun = notRun;
    if (meta.requirements.length === 0) errors.push({ source: result.moduleId, message: `check "${result.name}" names no requirement` });
    for (const id of meta.requirements) {
      if (!known.has(id)) errors.push({ source: result.moduleId, message: `check "${result.name}" names unknown requirement ${id}` });
      byRequirement.set(id, [...(byRequirement.get(id) ?? []), entry]);
    }
  }
  const requirements = input.catalog.map((entry): ReportRequirement => {
    const entries = byRequirement.get(entry.id) ?? [];
    const checks = entries.map((e) => e.check);
    const status = statusOf(entry, checks);
    const r: ReportRequirement = {
      id: entry.id, section: entry.section, level: entry.level, status, checks,
      failures: entries.flatMap((e) => (e.failure ? [e.failure] : [])),
    };
    if (entry.quote !== undefined) r.quote = entry.quote;
    if (entry.subject !== undefined) r.subject = entry.subject;
    if (status === 'skipped') r.reason = skipReason(entry, checks, isSelected);
    return r;
  });
  const count = (s: RequirementStatus) => requirements.filter((r) => r.status === s).length;
  if (stopped) errors.push({ source: 'run', message: stopMessage(stopped) });
  const target: Report['target'] = {
    kind: ctx.target?.kind ?? 'unknown',
    baseUrl: ctx.target?.baseUrl ?? null,
    shape: ctx.target?.shape ?? null,
    readings: mergeReadings(metas),
  };
  if (ctx.target?.viaPrism !== undefined) target.viaPrism = ctx.target.viaPrism;
  if (ctx.target?.mockFault !== undefined) target.mockFault = ctx.target.mockFault;
  const report: Report = {
    specVersion: ctx.specVersion ?? 'unknown',
    target,
    seed: ctx.seed ?? input.seed ?? null,
    startedAt: ctx.startedAt ?? input.startedAt,
    durationMs: Math.round(input.durationMs),
    summary: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), notTestable: count('not-testable'), total: requirements.length },
    requirements,
    errors,
  };
  if (only.length > 0) report.only = [...only];
  report.runId = ctx.runId ?? null;
  report.readOnly = ctx.readOnly ?? false;
  if (accounting) Object.assign(report, { requests: accounting.requests, leftovers: accounting.leftovers, touched: accounting.touched });
  if (stopped) report.stopped = { cause: stopped.cause, message: stopped.message, ...(stopped.code ? { code: stopped.code } : {}) };
  return report;
}

/** The workers' account (records left, records touched and restored, requests); its failure is a run error. */
function readAccounting(ctx: Partial<RunContext>, errors: RunError[]): RunAccounting | undefined {
  if (typeof ctx.accounting !== 'function') return undefined;
  try {
    return ctx.accounting();
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

function stopMessage(stop: { cause: string; message: string }): string {
  return `${STOP_LEAD[stop.cause] ?? 'the run stopped'}: ${stop.message}`;
}

/** A check that could not run: it says so itself, or it never ran in a run that stopped early. */
function notRunReason(result: CheckResult, stopMessageText: string | undefined): string | undefined {
  const raw = (result.meta ?? {}) as { notRun?: unknown; skipReason?: unknown };
  if (typeof raw.notRun === 'string') return raw.notRun;
  if (!stopMessageText || (result.state !== 'skipped' && result.state !== 'pending')) return undefined;
  return typeof raw.skipReason === 'string' ? undefined : stopMessageText;
}
