// The check contract (C5 in ARCHITECTURE.md): what each conformance check leaves on its vitest
// task as `meta.conformance`. check() (suites/harness/check.ts) writes it — the requirement ids
// and concern when the test is declared, the evidence when it ends — and the reporter reads it
// (reports/meta.ts parses it defensively, since it crosses from a worker).
import { basename } from 'node:path';

export interface HttpRequestRecord {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The file part of a multipart upload: its filename, size and type (the bytes are never kept). */
  file?: { name: string; size: number; contentType: string; };
}

export interface HttpResponseRecord {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/** One request and what came back, as a check's transcript keeps it. */
export interface Exchange {
  request: HttpRequestRecord;
  response?: HttpResponseRecord;
  /** Set when no response arrived (timeout, connection error). */
  error?: string;
  curl: string;
  durationMs: number;
}

/** A reading that deserves attention: allowed by the document, but arguable. Never fails a run. */
export interface Warning {
  name: string;
  message: string;
}

/**
 * A violation of what the API document says of every response (a JSON body, the §7 envelope on
 * errors, the §2 formats, the resource's shape, references that resolve within the caller's team),
 * found in a response a check received, whichever check sent it (suites/harness/judge/audit.ts). It is
 * reported under its own requirements, once per run, not as the failure of that check.
 */
export interface Finding {
  /** What is wrong, the same wherever it is met (the rule and where, e.g. `page /page/nextCursor | type string`): the cause it belongs to. */
  key: string;
  /** The requirements it violates: the rule's own and, inside a record, the resource's shape. */
  requirements: string[];
  /** What is wrong, in plain words. */
  message: string;
  /** JSON Pointer of the offending value in the first response body that showed it. */
  pointer: string;
  /** The operations it was met in (`GET /projects`), in the order met. */
  seenIn: string[];
  /** How many responses showed it. */
  count: number;
  /** The first response that showed it. */
  request: HttpRequestRecord;
  response?: HttpResponseRecord;
  curl: string;
  /** The part of that body around the offending value. */
  excerpt?: string;
}

/**
 * One request that built the state a failing request read: a create, an upload, a change or a
 * deletion the check sent before it, of the records that request names (by id, directly or
 * through the records those name).
 */
export interface StateStep {
  /** What it did in a few words: `POST /attachments: upload "名前.bin" (65 bytes)`. */
  summary: string;
  request: HttpRequestRecord;
  status?: number;
  /** The id of the record it created, when it created one (a reproduction reads the new id there). */
  created?: string;
  curl: string;
}

/** One value a comparison found different: its path in the compared value, what came and what was expected. */
export interface Difference {
  /** Dotted path (`employee.first_name`, `addresses[0].city`); empty for the whole value. */
  path: string;
  /** JSON text of the value seen; absent when the field was missing. */
  got?: string;
  /** JSON text of the value expected; absent when the field was not expected. */
  expected?: string;
}

export interface CheckFailureMeta {
  message: string;
  request?: HttpRequestRecord;
  response?: HttpResponseRecord;
  curl?: string;
  seed?: number;
  path?: string;
  counterexample?: unknown;
  /** The check's requirements this failure concerns; absent: all. The others were not reached (blocked). */
  requirements?: string[];
  /** Requirements the failure named that the check is not tagged with: a defect of the check, reported as a run error. */
  strays?: string[];
  /** The shared setup steps the failure happened in, outermost first; with no `requirements` left, the check was blocked. */
  setup?: string[];
  /** The key of the finding the failure is (a check of that rule), or that kept the check from going on (blocked, with no `requirements`). */
  finding?: string;
  /** The part of the response body around what is wrong. */
  excerpt?: string;
  /** The requests that built the state the failing request read, in the order sent. */
  state?: StateStep[];
  /** For a comparison: the values that differ, by path. */
  differences?: Difference[];
}

/** The tables of the coverage table (suites/harness/plan/table.ts), in the order reports show them. */
export const DIMENSIONS = ['fields', 'refusals', 'views', 'retries', 'walks', 'cursors'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** One cell of the coverage table: a row and a column of one of its tables. */
export interface Cell {
  dimension: Dimension;
  /** The row: an operationId, or a list view (`GET /assignments?employee_id=`). */
  subject: string;
  /** The column: a field and the kind of value sent, a refusal, a view, a sort and order, ... */
  aspect: string;
}

/** A cell's key: what its check's marks and the planned table meet on. */
export const cellId = (c: { dimension: string; subject: string; aspect: string; }) => `${c.dimension} ${c.subject} ${c.aspect}`;

/**
 * Why a cell is not run: the document does not show what it would need, no client could observe
 * the outcome, a setting is missing, or another check runs it under a form of its own.
 */
export interface CellReason {
  kind: 'not-shown' | 'unobservable' | 'setting' | 'elsewhere';
  text: string;
}

/**
 * A cell as planned for a target: `check` is the title of the check that records it (and runs it,
 * unless it has a reason not to). The global setup hands the whole table of the target to the
 * reporter (the run context, contract/run.ts), so the cells of a check that never ran are
 * reported too.
 */
export interface CellPlan extends Cell {
  check?: string;
  reason?: CellReason;
}

/**
 * What this run did with a cell a check runs over: checked, skipped (a setting, a key or a record
 * it needed was missing; the reason says which), not applicable (the document does not show it,
 * or no client could observe it), or not reached (the check ended before it: it failed, or
 * passed without needing it).
 */
export interface CellMeta {
  /** The table: fields, refusals, views, retries, walks, cursors. */
  dimension: string;
  subject: string;
  aspect: string;
  outcome: 'checked' | 'skipped' | 'not-applicable' | 'not-reached';
  reason?: string;
}

export const CELL_OUTCOMES: readonly CellMeta['outcome'][] = ['checked', 'skipped', 'not-applicable', 'not-reached'];

/** A planned cell's outcome by its reason: a missing setting is a skip (the run could do it), the rest is not applicable. */
export const reasonedOutcome = (reason: CellReason): 'skipped' | 'not-applicable' => (reason.kind === 'setting' ? 'skipped' : 'not-applicable');

/** The cells of a check's meta, read defensively (they cross from a worker); malformed entries are left out. */
export function parseCells(value: unknown): CellMeta[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return value.flatMap((v): CellMeta[] => {
    if (v === null || typeof v !== 'object') return [];
    const r = v as Record<string, unknown>;
    const [dimension, subject, aspect, reason] = [text(r.dimension), text(r.subject), text(r.aspect), text(r.reason)];
    const outcome = CELL_OUTCOMES.find((o) => o === r.outcome);
    if (!dimension || !subject || !aspect || !outcome) return [];
    return [{ dimension, subject, aspect, outcome, ...(reason ? { reason } : {}) }];
  });
}

export interface CheckMeta {
  requirements: string[];
  /** The suite file's name without .check.ts. */
  concern: string;
  skipReason?: string;
  failure?: CheckFailureMeta;
  readings?: Record<string, string>;
  warnings?: Warning[];
  requests?: number;
  /** Why the check could not run (the run stopped: signal, deadline, target not answering). */
  notRun?: string;
  /** The coverage cells the check runs over, each with its outcome on this run. */
  cells?: CellMeta[];
  /** What the responses it received violate of what the document says of every response. */
  findings?: Finding[];
  /** Per requirement the audit of every response judges: how many of its responses it judged. */
  judged?: Record<string, number>;
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: CheckMeta;
  }
}

/** `suites/uploads.check.ts` → `uploads`. */
export function concernOf(moduleId: string): string {
  return basename(moduleId).replace(/\.(check|test)\.[cm]?[jt]s$/, '');
}
