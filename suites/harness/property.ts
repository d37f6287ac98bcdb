// fast-check runs seeded by the run's seed; a failure puts seed, path and the shrunk
// counterexample into the check's evidence. CONFORMANCE_REPLAY_PATH (`conformance run --path`)
// replays one counterexample directly instead of generating and shrinking.
import fc from 'fast-check';
import { CheckFailure } from './assert.js';
import { currentCheck } from './current.js';
import { Unreadable } from './problems.js';
import { SetupFailure } from './setup.js';
import { target } from './target.js';

export interface PropertyOptions<T = unknown> {
  numRuns?: number;
  /** Bound on the whole run including shrinking, so a failing live target is not hammered. */
  timeLimitMs?: number;
  /**
   * Inputs run first on every seed, before the random ones (fast-check's examples): the cases a
   * rule needs examined whatever the seed (every list, every sort), their values drawn by `drawn`.
   */
  examples?: readonly T[];
}

/**
 * `n` values of `arb` drawn from the run's seed: the values of fixed cases (examples), which vary
 * with the seed while the cases do not.
 */
export function drawn<T>(arb: fc.Arbitrary<T>, n: number): T[] {
  return n > 0 ? fc.sample(arb, { seed: target().seed, numRuns: n }) : [];
}

/** The input of the last failing run: fast-check's last failure is the shrunk one. */
interface Failed {
  input: unknown;
  text: string;
  error: unknown;
}

/**
 * Plain data is kept as generated, before the predicate could change it. An instance of a class
 * (fast-check's model-based commands) says itself what it was — after the run, when it knows
 * which commands ran.
 */
const isPlain = (v: unknown) => v === null || typeof v !== 'object' || Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype;

/** The replay path of `conformance run --path`, read where the property runs (every worker inherits it). */
const replayPath = (): string | undefined => process.env.CONFORMANCE_REPLAY_PATH?.trim() || undefined;

async function runOnce<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, parameters: fc.Parameters<[T]>) {
  let failed: Failed | undefined;
  // A response the audit found wrong where the property needs it stops the property, unshrunk:
  // no smaller input reads it better, and the check is blocked by that finding, not failed.
  let unreadable: Unreadable | undefined;
  const result = await fc.check(fc.asyncProperty(arb, async (value) => {
    if (unreadable) return;
    const before = isPlain(value) ? { input: jsonSafe(value), text: fc.stringify(value) } : undefined;
    try {
      await predicate(value);
    } catch (error) {
      if (error instanceof Unreadable || (error instanceof SetupFailure && error.origin instanceof Unreadable)) {
        unreadable = error instanceof Unreadable ? error : (error.origin as Unreadable);
        return;
      }
      const text = before?.text ?? fc.stringify(value);
      failed = { input: before?.input ?? text, text, error };
      throw error;
    }
  }), parameters);
  if (unreadable) throw unreadable;
  return { result, failed };
}

export async function property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options: PropertyOptions<T> = {}): Promise<void> {
  const { seed, settings } = target();
  const base: fc.Parameters<[T]> = {
    seed,
    numRuns: options.numRuns ?? settings.numRuns,
    interruptAfterTimeLimit: options.timeLimitMs ?? 20_000,
    markInterruptAsFailure: false,
    ...(options.examples?.length ? { examples: options.examples.map((e): [T] => [e]) } : {}),
  };
  const path = replayPath();
  let run: Awaited<ReturnType<typeof runOnce<T>>>;
  try {
    run = await runOnce(arb, predicate, path ? { ...base, path, endOnFailure: true } : base);
  } catch (e) {
    // --path names one property's counterexample; another property selected by the same --only runs normally.
    if (!path || !/Unable to replay/.test(String((e as Error).message))) throw e;
    run = await runOnce(arb, predicate, base);
  }
  const { result, failed } = run;
  if (!result.failed) return;
  const cause = (failed?.error ?? result.errorInstance) as { message?: string; exchange?: CheckFailure['exchange']; requirements?: string[]; } | undefined;
  // A shared setup step failing inside a run is not the property's failure: the check is blocked by it.
  if (cause instanceof SetupFailure) throw cause;
  const counterexample = failed?.input ?? jsonSafe(result.counterexample?.[0]);
  const state = currentCheck();
  if (state) state.property = { seed: result.seed, path: result.counterexamplePath ?? undefined, counterexample };
  // The message says what is wrong, in the predicate's words; the shrunk input, the seed and the
  // path that run it again are the evidence (state.property), shown below it.
  throw new CheckFailure(cause?.message ?? 'the property failed', cause?.exchange, {
    ...(cause?.requirements ? { requirement: cause.requirements } : {}),
    ...(cause instanceof CheckFailure && cause.finding !== undefined ? { finding: cause.finding } : {}),
  });
}

function jsonSafe(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
  } catch {
    return fc.stringify(value);
  }
}
