// Types of the report pipeline (C6 in ARCHITECTURE.md). The written file's shape is defined by
// specs/report.schema.json; these types mirror it for the code that builds it, and
// reports/schema.test.ts keeps the two in step by validating built reports. What checks hand the
// reporter (C5) and the run context (C4) are declared in contract/ and only re-exported here.

export type Level = 'must' | 'implied' | 'not-testable';
/** blocked: the check could not run its own assertions because a shared setup step (or, for one of
 *  several requirements, an earlier assertion of the same check) failed; it counts as not passed. */
export type CheckStatus = 'passed' | 'failed' | 'blocked' | 'skipped';
export type RequirementStatus = CheckStatus | 'not-testable';

export type {
  CellPlan,
  CheckFailureMeta,
  CheckMeta,
  Difference,
  Finding,
  HttpRequestRecord,
  HttpResponseRecord,
  StateStep,
  Warning as WarningMeta,
} from '../contract/check.js';
export type { ReportedTargetKind as TargetKind, RunContext } from '../contract/run.js';
import type { CellReason, Difference, HttpRequestRecord, HttpResponseRecord, StateStep } from '../contract/check.js';
import type { ReportedTargetKind } from '../contract/run.js';

/** One finished vitest test case, reduced to what the report needs. */
export interface CheckResult {
  name: string;
  moduleId: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** ctx.skip(note) */
  note?: string;
  /** Messages of the errors vitest recorded for the test. */
  errors: string[];
  /** Their stacks, for --verbose (never written to a report file). */
  stacks?: string[];
  durationMs: number;
  /** Raw `meta.conformance`, untrusted until parsed by meta.ts. */
  meta?: unknown;
}

export interface CatalogEntry {
  id: string;
  section: string;
  level: Level;
  quote?: string;
  /** server: checked against a target; spec: by the description diff; client: by the suite's own tolerance. */
  subject?: 'server' | 'client' | 'spec';
}

export interface ReportCheck {
  name: string;
  status: CheckStatus;
  concern: string;
  durationMs: number;
  reason?: string;
  /** Id of the root cause (Report.causes) that failed or blocked the check. */
  cause?: string;
  /** The check could not run because the run stopped (signal, deadline, target not answering): an error, not a failure. */
  notRun?: string;
}

export interface ReportFailure {
  check: string;
  /** Id of the root cause (Report.causes) this failure belongs to. */
  cause?: string;
  /** Shared setup steps the failure happened in, outermost first. */
  setup?: string[];
  /** The command that runs this check again with the same seed (and fast-check path). */
  replay?: string;
  message: string;
  request: HttpRequestRecord | null;
  response: HttpResponseRecord | null;
  curl: string | null;
  seed: number | null;
  path: string | null;
  counterexample?: unknown;
  /** The part of the response body around what is wrong (an audit finding's pointer). */
  excerpt?: string;
  /** The key of the audit's finding this failure is, or was blocked by. */
  finding?: string;
  /** For a comparison: the values that differ, by path; shown before the bodies. */
  differences?: Difference[];
  /** The requests that built the state the failing request read (creates, uploads, changes), in the order sent. */
  state?: StateStep[];
  /** The shell script, in the report's folder, that builds that state again and sends the failing request. */
  reproduce?: string;
}

export interface ReportRequirement {
  id: string;
  section: string;
  level: Level;
  subject?: CatalogEntry['subject'];
  quote?: string;
  status: RequirementStatus;
  reason?: string;
  /** Root causes (Report.causes ids) of its failure or block. */
  causes?: string[];
  checks: ReportCheck[];
  failures: ReportFailure[];
}

/** One root cause: failures with the same message, and everything they blocked. */
export interface RootCause {
  id: string;
  /** The one-line message shared by its failures (indices of repeated problems folded to *). */
  message: string;
  /** Shared setup steps it happened in (innermost step names); empty when it is a check's own failure. */
  setup: string[];
  /** Requirements it failed, and requirements it kept from being checked. */
  failed: string[];
  blocked: string[];
  checks: { failed: string[]; blocked: string[]; };
  /** The evidence of its failure about the earliest requirement in the document. */
  failure: ReportFailure;
  /** For a violation of what every response must be: the operations it was met in, and in how many responses. */
  seenIn?: string[];
  responses?: number;
}

export interface ReportWarning {
  name: string;
  message: string;
  checks: string[];
  requirements: string[];
}

export interface RunError {
  source: string;
  message: string;
}

/**
 * What the run did with one cell of the coverage table: checked (run, and its check passed),
 * failed (run by a check that failed or was blocked: by this cell or another of its), skipped (a setting, a
 * key or a record it needed was missing), not applicable (the document does not show it, no client
 * could observe it, or another check runs it in a form of its own), not run (its check was not
 * selected, the run stopped, or its check failed or was blocked before reaching it).
 */
export type CoverageOutcome = 'checked' | 'failed' | 'skipped' | 'not-applicable' | 'not-run';

/**
 * Why a cell was not checked: the table's own reasons (`not-shown`, `unobservable`, `setting`,
 * `elsewhere`), or what became of its check on this run.
 */
export type CoverageReasonKind =
  | CellReason['kind']
  | 'not-selected'
  | 'stopped'
  | 'check-skipped'
  | 'check-failed'
  | 'check-blocked'
  | 'not-reached'
  | 'no-check';

export interface CoverageCell {
  /** The table: fields, refusals, views, retries, walks, cursors. */
  dimension: string;
  /** The row: an operationId, or a list view. */
  subject: string;
  /** The column: a field and the kind of value sent, a refusal, a view, a sort and order, a cursor's use. */
  aspect: string;
  outcome: CoverageOutcome;
  /** On every cell but a checked one. */
  reason?: { kind: CoverageReasonKind; text: string; };
  /** The check that runs it, or would with the setting its reason names (its name as in `requirements[].checks`, or its title when it never registered). */
  check?: string;
}

export interface CoverageCounts {
  checked: number;
  failed: number;
  skipped: number;
  notApplicable: number;
  notRun: number;
  total: number;
}

/** The coverage table of the target: every cell, what the run did with it, and the counts per table. */
export interface ReportCoverage {
  counts: CoverageCounts;
  dimensions: { name: string; counts: CoverageCounts; }[];
  cells: CoverageCell[];
}

export interface Report {
  specVersion: string;
  target: {
    kind: ReportedTargetKind;
    baseUrl: string | null;
    shape: string | null;
    viaPrism?: boolean;
    mockFault?: string;
    readings: Record<string, string>;
    /** Readings flagged as deserving attention; they never fail a run. */
    warnings?: ReportWarning[];
  };
  seed: number | null;
  startedAt: string;
  durationMs: number;
  only?: string[];
  summary: { passed: number; failed: number; blocked?: number; skipped: number; notTestable: number; total: number; };
  /** Root causes, most requirements first: what to fix first. */
  causes?: RootCause[];
  /** Against the bundled mock: the shell lines that start the same mock (seed, port, fixed keys) for the curl commands. */
  reproduce?: { mock: string[]; };
  requirements: ReportRequirement[];
  errors: RunError[];
  /** Marks every record the run created; null when the run never got one (its target did not start). */
  runId?: string | null;
  /** CONFORMANCE_READ_ONLY: no mutating request was sent. */
  readOnly?: boolean;
  /** HTTP requests the checks and their cleanup sent to the target. */
  requests?: number;
  /** Records the run created and leaves behind: the API offers no way to delete them, or deleting failed. */
  leftovers?: Record<string, { count: number; ids: string[]; why: string[]; names?: Record<string, string>; }>;
  /** Pre-existing records the run changed, and whether each is back exactly as found (apart from updated_at). */
  touched?: { resource: string; id: string; auth: string; scratch: boolean; restored: boolean | null; differences: string[]; }[];
  /** The coverage table: absent in reports written before it existed, and when the run never resolved its target. */
  coverage?: ReportCoverage;
  /** Why the run ended before its checks did; absent when it ran to the end. */
  stopped?: { cause: 'interrupted' | 'deadline' | 'target-unresponsive' | 'target-not-started' | 'preflight'; message: string; code?: string; };
}
