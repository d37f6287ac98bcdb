// A small, time-bounded sample of the failure modes (mock/faults/modes/), each of which the suite
// must detect: the checks its requirements select, run against the mock with the fault on, report
// one of those requirements failed. The sample is drawn with a fixed seed from the modes the suite
// catches today, in the categories storage and serialization, writes, diverging reads, request
// parsing, auth and isolation order, lists, and idempotency scope. Concurrency is not drawn from:
// its faults show only under requests that overlap, which the checks' order does not fix. The modes
// it does not catch are measured, and their survivors listed, by `npm run failure-modes`
// (bench/failure-modes.ts), not hidden here.
import { beforeAll, describe, expect, test } from 'vitest';
import { failureModes, prng } from '../../mock/index.js';
import { runFaultSweep, type RunOutcome, selfTestSettings } from './runner.js';

/** Modes the suite detects on every element a seeded draw has met (category:mode). */
const CAUGHT = [
  'storage:number-as-string',
  'storage:answered-number-as-string',
  'storage:answered-key-camelcased',
  'writes:patch-resets-unnamed',
  'reads:stale-cache',
  'requests:not-found-outside-envelope',
  'access:lookup-by-id-alone',
  'lists:keyset-skips-ties',
  'idempotency:key-without-body',
];

const SEED = 20240601;
const SIZE = 8;

/** One fault per mode of CAUGHT, the element drawn by the seed; the first SIZE of them. */
const sample = CAUGHT.map((m, i) => {
  const of = failureModes().filter((f) => `${f.category}:${f.mode}` === m);
  const random = prng(SEED + i);
  return of[Math.floor(random() * of.length)]!;
}).slice(0, SIZE);

let outcomes: Map<string, RunOutcome>;

beforeAll(async () => {
  outcomes = await runFaultSweep(sample.map((f) => f.name), selfTestSettings, 90_000);
}, 120_000);

describe('a sample of the failure modes is detected', () => {
  test.each(sample.map((f) => [f.name, f] as const))('%s', (name, fault) => {
    const o = outcomes.get(name)!;
    expect(o.requirements.length, `no report was written:\n${o.output}`).toBeGreaterThan(0);
    const detected = o.requirements.filter((r) => r.status === 'failed' && fault.requirements.includes(r.id)).map((r) => r.id);
    expect(detected, `no check of ${fault.requirements.join(', ')} failed with ${name} (${fault.description})`).not.toEqual([]);
  });
});
