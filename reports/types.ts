// Types of the report pipeline. The written file's shape is defined by
// specs/report.schema.json; these types mirror it for the code that builds it,
// and reports/schema.test.ts keeps the two in step by validating built reports.

export type Level = 'must' | 'implied' | 'not-testable';
export type CheckStatus = 'passed' | 'failed' | 'skipped';
export type RequirementStatus = CheckStatus | 'not-testable';
export type TargetKind = 'bundled-mock' | 'deployment' | 'container' | 'prism-mock' | 'unknown';

export interface HttpRequestRecord {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpResponseRecord {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/** What a check records about its failure (C5 `meta.conformance.failure`). */
export interface CheckFailureMeta {
  message: string;
  request?: HttpRequestRecord;
  response?: HttpResponseRecord;
  curl?: string;
  seed?: number;
  path?: string;
  counterexample?: unknown;
}

/** The metadata a check attaches to its vitest task (C5 `meta.conformance`). */
export interface CheckMeta {
  requirements: string[];
  concern: string;
  skipReason?: string;
  failure?: CheckFailureMeta;
  readings?: Record<string, string>;
  requests?: number;
}

/** One finished vitest test case, reduced to what the report needs. */
export interface CheckResult {
  name: string;
  moduleId: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** ctx.skip(note) */
  note?: string;
  /** Messages of the errors vitest recorded for the test. */
  errors: string[];
  durationMs: number;
  /** Raw `meta.conformance`, untrusted until parsed by meta.ts. */
  meta?: unknown;
}

/** The run context is defined once, by the harness that sets it. */
export type { RunContext } from '../suites/harness/run-context.js';

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
  /** The check could not run because the run stopped (signal, deadline, target not answering): an error, not a failure. */
  notRun?: string;
}

export interface ReportFailure {
  check: string;
  message: string;
  request: HttpRequestRecord | null;
  response: HttpResponseRecord | null;
  curl: string | null;
  seed: number | null;
  path: string | null;
  counterexample?: unknown;
}

export interface ReportRequirement {
  id: string;
  section: string;
  level: Level;
  subject?: CatalogEntry['subject'];
  quote?: string;
  status: RequirementStatus;
  reason?: string;
  checks: ReportCheck[];
  failures: ReportFailure[];
}

export interface RunError {
  source: string;
  message: string;
}

export interface Report {
  specVersion: string;
  target: {
    kind: TargetKind;
    baseUrl: string | null;
    shape: string | null;
    viaPrism?: boolean;
    mockFault?: string;
    readings: Record<string, string>;
  };
  seed: number | null;
  startedAt: string;
  durationMs: number;
  only?: string[];
  summary: { passed: number; failed: number; skipped: number; notTestable: number; total: number };
  requirements: ReportRequirement[];
  errors: RunError[];
  /** Marks every record the run created; null when the run never got one (its target did not start). */
  runId?: string | null;
  /** CONFORMANCE_READ_ONLY: no mutating request was sent. */
  readOnly?: boolean;
  /** HTTP requests the checks and their cleanup sent to the target. */
  requests?: number;
  /** Records the run created and leaves behind: the API offers no way to delete them, or deleting failed. */
  leftovers?: Record<string, { count: number; ids: string[]; why: string[] }>;
  /** Pre-existing records the run changed, and whether each is back exactly as found (apart from updated_at). */
  touched?: { resource: string; id: string; auth: string; scratch: boolean; restored: boolean | null; differences: string[] }[];
  /** Why the run ended before its checks did; absent when it ran to the end. */
  stopped?: { cause: 'interrupted' | 'deadline' | 'target-unresponsive' | 'target-not-started' | 'preflight'; message: string; code?: string };
}
