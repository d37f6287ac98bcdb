// fast-check runs seeded by the run's seed; a failure puts seed, path and the shrunk
// counterexample into the check's evidence.
import fc from 'fast-check';
import { CheckFailure } from './assert.js';
import { currentCheck } from './current.js';
import { target } from './target.js';

export interface PropertyOptions {
  numRuns?: number;
  /** Bound on the whole run including shrinking, so a failing live target is not hammered. */
  timeLimitMs?: number;
}

export async function property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options: PropertyOptions = {}): Promise<void> {
  const { seed, settings } = target();
  const result = await fc.check(fc.asyncProperty(arb, predicate), {
    seed,
    numRuns: options.numRuns ?? settings.numRuns,
    interruptAfterTimeLimit: options.timeLimitMs ?? 20_000,
    markInterruptAsFailure: false,
  });
  if (!result.failed) return;
  const counterexample = result.counterexample?.[0];
  const state = currentCheck();
  if (state) state.property = { seed: result.seed, path: result.counterexamplePath ?? undefined, counterexample: jsonSafe(counterexample) };
  const cause = result.errorInstance as { message?: string; exchange?: CheckFailure['exchange'] } | undefined;
  throw new CheckFailure(
    `property failed (seed ${result.seed}, path ${result.counterexamplePath}, ${result.numShrinks} shrinks): ${cause?.message ?? 'predicate failed'}\ncounterexample: ${fc.stringify(counterexample)}`,
    cause?.exchange,
  );
}

function jsonSafe(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
  } catch {
    return fc.stringify(value);
  }
}
