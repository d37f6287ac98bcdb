// What the test workers receive from the global setup (vitest provide/inject). Read once per
// worker and kept here; the fault sweep and the harness's own tests provide it instead.
import { inject } from 'vitest';
import type { TargetKind } from '../../../contract/run.js';
import type { Settings } from '../../../contract/settings.js';

export interface ProvidedTarget {
  settings: Settings & { baseUrl: string; };
  /** Marks every record the run creates (in a name or notes field). */
  runId: string;
  seed: number;
  kind: TargetKind;
  /** File the workers append their account to (contract/journal.ts); unset: none is kept. */
  journal?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceTarget: ProvidedTarget;
  }
}

let cached: ProvidedTarget | undefined;

export function target(): ProvidedTarget {
  if (cached) return cached;
  const provided = inject('conformanceTarget');
  if (!provided) throw new Error('no conformance target: run the suites with --config suites/conformance.config.ts');
  cached = provided;
  return provided;
}

/** For harness unit tests: use these settings instead of the provided ones. */
export function provideTarget(value: ProvidedTarget | undefined): void {
  cached = value;
}
