// The run context: set by the conformance global setup in the main process, read by the reporter.

export type TargetKind = 'bundled-mock' | 'deployment' | 'container' | 'prism-mock';

export interface RunContext {
  specVersion: string;
  target: { kind: TargetKind; baseUrl: string; shape?: string; viaPrism?: boolean; mockFault?: string };
  seed: number;
  startedAt: string;
  /** The target's CONFORMANCE_* settings, keys included: read by the reporter only to redact them, never written. */
  settings?: Record<string, string>;
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

/** The version of the API document the suites check (its path version is v1). */
export const SPEC_VERSION = '1.6.0';
