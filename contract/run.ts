// The run contract (C4 in ARCHITECTURE.md): what the conformance run's main process knows about
// the run — its target, seed, run id, why it stopped — and where the workers' account of it is.
// It has one holder: the provided context of the run's vitest (its root project), which every
// party of the main process reaches — the global setup (suites/global-setup.ts) writes it,
// `conformance run` adds a stop (a signal, the deadline) and reads it back, the reporter reads it —
// and which vitest hands to the test workers as a copy.
import type { Vitest } from 'vitest/node';
import type { CellPlan } from './check.js';

export type TargetKind = 'bundled-mock' | 'deployment' | 'container' | 'prism-mock';
/** A report of a run that never resolved its target says so. */
export type ReportedTargetKind = TargetKind | 'unknown';

export type StopCause = 'interrupted' | 'deadline' | 'target-unresponsive' | 'target-not-started' | 'preflight';

export interface RunStop {
  cause: StopCause;
  /** One line: what happened and what to do. */
  message: string;
  /** Stable code of a preflight failure (suites/harness/preflight.ts). */
  code?: string;
}

export interface Leftovers {
  /** `names`: the name a person sees each record by (its run id in it), by id, where the run saw it. */
  [collection: string]: { count: number; ids: string[]; why: string[]; names?: Record<string, string>; };
}

export interface TouchedRecord {
  resource: string;
  id: string;
  /** The key the record was read and changed with (team or otherTeam). */
  auth: string;
  /** One of CONFORMANCE_SCRATCH_PROJECTS: set aside for testing. */
  scratch: boolean;
  /** Back exactly as found (apart from updated_at); null when its restore never ran. */
  restored: boolean | null;
  /** Fields that differ from the snapshot after the restore. */
  differences: string[];
}

/** The workers' account of the run, folded from their journal (contract/journal.ts). */
export interface RunAccounting {
  leftovers: Leftovers;
  touched: TouchedRecord[];
  requests: number;
  stopped?: { cause: StopCause; message: string; };
}

export interface RunContext {
  specVersion: string;
  target: { kind: TargetKind; baseUrl: string; shape?: string; viaPrism?: boolean; mockFault?: string; };
  seed: number;
  startedAt: string;
  /** The target's CONFORMANCE_* settings, keys included: read by the reporter only to redact them, never written. */
  settings?: Record<string, string>;
  /** Marks every record the run creates. */
  runId?: string;
  /** CONFORMANCE_READ_ONLY: no mutating request was sent. */
  readOnly?: boolean;
  /** Why the run ended before its checks did (decided in the main process). */
  stopped?: RunStop;
  /** The journal the workers append their account to (contract/journal.ts), read when the report is built. */
  journal?: string;
  /**
   * The coverage table of the target (suites/harness/plan/table.ts), as the global setup planned it
   * from the resolved settings: the reporter reports every cell, those of checks that never ran too.
   */
  coverage?: CellPlan[];
  /** The base URL whose preflight `conformance run` passed before the suites started: not repeated. */
  preflighted?: string;
}

declare module 'vitest' {
  interface ProvidedContext {
    /** The run context so far; parts are missing before the global setup ran, or when it failed. */
    conformanceRun?: Partial<RunContext>;
  }
}

/** Who holds the run context: the run's vitest (its root project's provided context). */
export type RunHolder = Pick<Vitest, 'provide' | 'getProvidedContext'>;

/** The context so far; parts are missing before the global setup ran, or when it failed. */
export function runContext(holder: RunHolder): Partial<RunContext> | undefined {
  return holder.getProvidedContext().conformanceRun;
}

/** Adds to the context so far (the target, once it is resolved). */
export function updateRunContext(holder: RunHolder, patch: Partial<RunContext>): void {
  holder.provide('conformanceRun', { ...runContext(holder), ...patch });
}

/** Marks the run as stopped early (the first reason wins), creating the context if the run never got one. */
export function stopRun(holder: RunHolder, stop: RunStop): void {
  if (runContext(holder)?.stopped) return;
  updateRunContext(holder, { stopped: stop });
}
