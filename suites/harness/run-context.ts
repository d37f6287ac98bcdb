// The run context: set by the conformance global setup in the main process, read by the reporter.
// `conformance run` (same process) marks a run stopped by a signal or by its deadline here too.
import type { RunAccounting, StopCause } from './journal.js';

export type TargetKind = 'bundled-mock' | 'deployment' | 'container' | 'prism-mock';
export type { StopCause } from './journal.js';

export interface RunStop {
  cause: StopCause;
  /** One line: what happened and what to do. */
  message: string;
  /** Stable code of a preflight failure (suites/harness/preflight.ts). */
  code?: string;
}

export interface RunContext {
  specVersion: string;
  target: { kind: TargetKind; baseUrl: string; shape?: string; viaPrism?: boolean; mockFault?: string };
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
  /** The workers' account of the run (journal.ts), read when the report is built. */
  accounting?: () => RunAccounting;
}

declare global {
  // eslint-disable-next-line no-var
  var __conformanceRun: RunContext | undefined;
}

export function setRunContext(context: RunContext): void {
  globalThis.__conformanceRun = context;
}

export function getRunContext(): RunContext | undefined {
  return globalThis.__conformanceRun;
}

/** Marks the run as stopped early (the first reason wins), creating the context if the run never got one. */
export function stopRun(stop: RunStop): void {
  const context = (globalThis.__conformanceRun ??= {} as RunContext);
  context.stopped ??= stop;
}

/** The version of the API document the suites check (its path version is v1). */
export const SPEC_VERSION = '1.6.0';
