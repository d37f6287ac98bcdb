// Shared setup: the steps checks take before they check anything (finding a project, creating
// the records a pagination or isolation check works on, sweeping every endpoint). When a step
// fails, the checks that needed it could not run: they are reported `blocked`, pointing at the
// step's failure, which is recorded once as its own root cause — unless the step exercises what
// the check itself is about (its `subject`), in which case the check fails as before.
import { currentCheck, type Exchange } from './run/current.js';
import { onSessionEnd } from './session.js';
import { onOwnSeeds } from './value-seeds.js';

export interface SetupOptions {
  /** Requirement ids the step itself exercises: a check naming one of them fails instead of being blocked. */
  subject?: readonly string[];
}

/** A setup step failed; `origin` is the error of the innermost step. */
export class SetupFailure extends Error {
  constructor(
    /** Outermost step first, e.g. ['population', 'a project of team A']. */
    readonly steps: readonly string[],
    readonly subject: readonly string[],
    readonly origin: unknown,
    readonly exchange?: Exchange,
  ) {
    super(String((origin as { message?: unknown; })?.message ?? origin));
    this.name = 'SetupFailure';
    // --verbose prints stacks: the one worth reading is where the step itself failed.
    const inner = (origin as { stack?: unknown; } | null)?.stack;
    if (typeof inner === 'string') this.stack = `${this.stack ?? this.message}\nin setup step "${steps.at(-1)}", failed at:\n${inner}`;
  }

  /** The innermost step: where the failure happened. */
  get step(): string {
    return this.steps.at(-1) ?? 'setup';
  }
}

/** vitest's ctx.skip() throws this; a skip inside a step is the check's skip, not a failure. */
const isSkip = (e: unknown) => (e as { code?: unknown; } | null)?.code === 'VITEST_PENDING';

function wrap(name: string, e: unknown, options: SetupOptions): unknown {
  if (isSkip(e)) return e;
  if (e instanceof SetupFailure) return new SetupFailure([name, ...e.steps], e.subject, e.origin, e.exchange);
  // Taken now: a later check that gets this failure from a shared step has a transcript of its own.
  const exchange = (e as { exchange?: Exchange; } | null)?.exchange ?? currentCheck()?.transcript.at(-1);
  return new SetupFailure([name], options.subject ?? [], e, exchange);
}

/** Runs one setup step; a failure comes out as a SetupFailure naming the step. */
export async function setup<T>(name: string, fn: () => Promise<T>, options: SetupOptions = {}): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw wrap(name, e, options);
  }
}

/**
 * A step shared by the checks of one suite file: it runs once, and every check that asks for it
 * gets the same records — or the same failure, so a broken fixture costs one attempt, not one per
 * check. A skip is not kept (the next check tries again). Forgotten when the file's session ends,
 * because its records are cleaned up then.
 */
export function shared<A extends unknown[], T>(name: string, fn: (...args: A) => Promise<T>, options: SetupOptions = {}): (...args: A) => Promise<T> {
  let pending: Promise<T> | undefined;
  onSessionEnd(() => {
    pending = undefined;
  });
  return (...args: A) => {
    if (!pending) {
      const started = setup(name, () => onOwnSeeds(name, () => fn(...args)), options);
      pending = started;
      started.catch((e: unknown) => {
        if (isSkip(e) && pending === started) pending = undefined;
      });
    }
    return pending;
  };
}
