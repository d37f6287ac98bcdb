// A small soak of verdicts in `npm test` (the full one is `npm run soak -- --runs N`,
// bench/verdict-soak.ts): three conformance runs against the bundled mock, each on a random seed
// with another setup of readings and shape, must all conform. A seed that fails is printed with
// its setup, so the false verdict can be run again.
import { describe, expect, test } from 'vitest';
import { pooled } from './runner.js';
import { setupOf, verdictOf } from './soak.js';

const RUNS = 3;
// a random turn of the rotation, so that over many runs of the test every setup comes up
const offset = Math.floor(Math.random() * 12);
const runs = Array.from({ length: RUNS }, (_, i) => ({ seed: Math.floor(Math.random() * 2 ** 31), setup: setupOf(offset + i) }));

describe('the suites pass the bundled mock on random seeds', () => {
  test('three random seeds, each with its own readings and shape', async () => {
    const verdicts = await pooled(runs, 2, ({ seed, setup }) => verdictOf(seed, setup, 120_000));
    const failures = verdicts.filter((v) => v.exitCode !== 0 || v.failed.length);
    const described = failures.map((f) =>
      `seed ${f.seed} shape ${f.shape} readings ${f.readings}: exit ${f.exitCode}, ${f.failed.join(', ')}\n${f.cause ?? ''}`
    );
    expect(described).toEqual([]);
  }, 180_000);
});
