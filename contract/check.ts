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
  /** The shared setup steps the failure happened in, outermost first; with no `requirements` left, the check was blocked. */
  setup?: string[];
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
