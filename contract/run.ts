// The run contract (C4 in ARCHITECTURE.md): what the conformance run's main process knows about
// the run — its target, seed, run id, why it stopped — and the workers' account of it. The global
// setup (suites/global-setup.ts) and `conformance run` write it; the reporter reads it.

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
  [collection: string]: { count: number; ids: string[]; why: string[]; };
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

/** The workers' account of the run (suites/harness/journal.ts), folded from their journal. */
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
  /** The workers' account of the run, read when the report is built. */
  accounting?: () => RunAccounting;
}

// One value per process: vitest loads the global setup and the reporter as separate module
// instances, so the context lives on globalThis rather than in a module variable.
declare global {
  // eslint-disable-next-line no-var
  var __conformanceRun: Partial<RunContext> | undefined;
}

/** The context so far; parts are missing before the global setup ran, or when it failed. */
export function runContext(): Partial<RunContext> | undefined {
  return globalThis.__conformanceRun;
}

export function setRunContext(context: RunContext): void {
  globalThis.__conformanceRun = context;
}

/** Adds to the context set so far (the target, once it is resolved). */
export function updateRunContext(patch: Partial<RunContext>): void {
  globalThis.__conformanceRun = { ...globalThis.__conformanceRun, ...patch };
}

/** Marks the run as stopped early (the first reason wins), creating the context if the run never got one. */
export function stopRun(stop: RunStop): void {
  const context = (globalThis.__conformanceRun ??= {});
  context.stopped ??= stop;
}
