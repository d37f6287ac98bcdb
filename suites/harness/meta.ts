// The metadata each check leaves on its vitest task (C5), read by the reporter.

export interface CheckMeta {
  requirements: string[];
  concern: string;
  skipReason?: string;
  failure?: {
    message: string;
    request?: { method: string; url: string; headers: Record<string, string>; body?: string };
    response?: { status: number; headers: Record<string, string>; body?: string };
    curl?: string;
    seed?: number;
    path?: string;
    counterexample?: unknown;
    /** The check's requirements this failure concerns; absent: all. The others were not reached (blocked). */
    requirements?: string[];
    /** The shared setup steps the failure happened in, outermost first; with no `requirements` left, the check was blocked. */
    setup?: string[];
  };
  readings?: Record<string, string>;
  warnings?: { name: string; message: string }[];
  requests?: number;
  /** Why the check could not run (the run stopped: signal, deadline, target not answering). */
  notRun?: string;
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: CheckMeta;
  }
}
