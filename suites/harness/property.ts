// fast-check runs seeded by the run's seed; a failure puts seed, path and the shrunk
// counterexample into the check's evidence. CONFORMANCE_REPLAY_PATH (`conformance run --path`)
// replays one counterexample directly instead of generating and shrinking. Seed and path decide
// everything a run sends: the values the harness makes up are seeded from the run's input
// (value-seeds.ts), and a model-based run's path carries the replay path of its commands
// (`3:1@AB:C`), without which fast-check shrinks commands otherwise on a replay.
import fc from 'fast-check';
import { CheckFailure } from './judge/assert.js';
import { Unreadable } from './judge/problems.js';
import { currentCheck } from './run/current.js';
import { target } from './run/target.js';
import { SetupFailure } from './setup.js';
import { hashOf, reseedValues } from './value-seeds.js';

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
const replayArgument = (): string | undefined => process.env.CONFORMANCE_REPLAY_PATH?.trim() || undefined;
/** fast-check's path: the part before `@`. */
const replayPath = (): string | undefined => replayArgument()?.split('@')[0] || undefined;
/** The commands' replay path of a model-based run: the part after `@`. */
const commandsReplayPath = (): string | undefined => replayArgument()?.split('@')[1] || undefined;

/**
 * `fc.commands` for a model-based property, replayable: under `--path`, the commands' replay path
 * the failure reported is handed to fast-check, so the replay runs the very commands that failed.
 */
export function modelCommands<Model extends object, Real>(
  commands: fc.Arbitrary<fc.AsyncCommand<Model, Real>>[],
  constraints: fc.CommandsContraints = {},
): fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Real>>> {
  const replay = commandsReplayPath();
  return fc.commands(commands, { ...constraints, ...(replay ? { replayPath: replay } : {}) });
}

/** What identifies a run's input: its text, or for commands the commands generated (before any ran). */
function identity(value: unknown): string {
  if (!isPlain(value) && value !== null && typeof value === 'object' && Symbol.iterator in value) {
    return [...(value as Iterable<unknown>)].map(String).join(',');
  }
  return fc.stringify(value);
}

async function runOnce<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, parameters: fc.Parameters<[T]>) {
  let failed: Failed | undefined;
  // A response the audit found wrong where the property needs it stops the property, unshrunk:
  // no smaller input reads it better, and the check is blocked by that finding, not failed.
  let unreadable: Unreadable | undefined;
  const result = await fc.check(fc.asyncProperty(arb, async (value) => {
    if (unreadable) return;
    const before = isPlain(value) ? { input: jsonSafe(value), text: fc.stringify(value) } : undefined;
    // the values this run makes up follow from its input alone: a replay makes the same ones
    reseedValues(hashOf(identity(value)));
    const from = currentCheck()?.requests;
    try {
      await predicate(value);
    } catch (error) {
      if (error instanceof Unreadable || (error instanceof SetupFailure && error.origin instanceof Unreadable)) {
        unreadable = error instanceof Unreadable ? error : (error.origin as Unreadable);
        return;
      }
      const text = before?.text ?? fc.stringify(value);
      failed = { input: before?.input ?? text, text, error };
      const running = currentCheck();
      if (running && from !== undefined) running.runFrom = from;
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
  // a model-based counterexample says which of its commands' shrinks were taken: the replay needs it
  const commands = /replayPath="([^"]*)"/.exec(failed?.text ?? fc.stringify(result.counterexample?.[0]))?.[1];
  const shown = result.counterexamplePath ? `${result.counterexamplePath}${commands ? `@${commands}` : ''}` : undefined;
  if (state) state.property = { seed: result.seed, path: shown, counterexample };
  // The message says what is wrong, in the predicate's words; the shrunk input, the seed and the
  // path that run it again are the evidence (state.property), shown below it.
  const failure = new CheckFailure(cause?.message ?? 'the property failed', cause?.exchange, {
    ...(cause?.requirements ? { requirement: cause.requirements } : {}),
    ...(cause instanceof CheckFailure && cause.finding !== undefined ? { finding: cause.finding } : {}),
  });
  if (cause instanceof CheckFailure && cause.differences) failure.differences = cause.differences;
  throw failure;
}

function jsonSafe(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
  } catch {
    return fc.stringify(value);
  }
}
