// Soak of verdicts: the conformance run against the bundled mock (a conforming server) on many
// random seeds, across every reading the mock serves (mock/reference/readings.ts) and both shapes.
// A conforming server must conform on every seed: any failure is a false verdict of the suites, and
// is listed with its seed and readings so it can be run again. With --faults, the checks each named
// mock fault selects run against the mock with the fault on, once per seed, and a fault detected on
// some seeds and not on others is listed: detection must not depend on the seed (randomness varies
// values and orders, not whether a rule is examined).
//
//   npm run soak -- --runs 40                     the run on 40 random seeds (readings and shapes in rotation)
//   npm run soak -- --runs 5 --faults all         also every fault on 5 seeds (each seed one sweep of all faults)
//   npm run soak -- --runs 5 --faults a,b --concurrency 2
// Options: --runs N (default 10), --faults all|name,... (default none), --concurrency N (default 1;
// the runs are CPU-bound), --seed S (the first seed; later ones are drawn from it; default random),
// --only-faults (skip the runs against the clean mock), --json <file> (the figures as JSON).
// Exits 1 when a run fails or a fault's detection depends on the seed. A benchmark of the suites'
// verdicts, not of the mock's speed; bench/soak.ts is the mock's memory soak.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { faults as allFaults } from '../mock/index.js';
import { pooled } from '../suites/self/runner.js';
import { detectionOf, type FaultDetection, type RunVerdict, seedsFrom, setupOf, verdictOf } from '../suites/self/soak.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '10' },
      faults: { type: 'string' },
      concurrency: { type: 'string', default: '1' },
      seed: { type: 'string' },
      'only-faults': { type: 'boolean', default: false },
      json: { type: 'string' },
    },
  });
  const runs = Number(values.runs);
  const concurrency = Math.max(1, Number(values.concurrency));
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not ${values.runs}`);
  const first = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const seeds = seedsFrom(first, runs);
  const started = Date.now();
  const figures: { runs?: RunVerdict[]; faults?: FaultDetection[]; } = {};
  let bad = false;

  if (!values['only-faults']) {
    console.log(`verdict soak: ${runs} runs against the bundled mock, seeds from ${first}, ${concurrency} at a time`);
    let done = 0;
    const verdicts = await pooled(seeds.map((seed, i) => ({ seed, setup: setupOf(i) })), concurrency, async ({ seed, setup }) => {
      const v = await verdictOf(seed, setup);
      done++;
      const ok = v.exitCode === 0 && !v.failed.length;
      console.log(
        `${ok ? 'ok  ' : 'FAIL'} ${done}/${runs} seed ${seed} shape ${v.shape} readings ${v.readings} (${(v.ms / 1000).toFixed(1)} s)${
          ok ? '' : ` exit ${v.exitCode}: ${v.failed.join(', ') || 'no requirement failed'}${v.cause ? `\n     ${v.cause.split('\n')[0]!.slice(0, 300)}` : ''}`
        }`,
      );
      return v;
    });
    figures.runs = verdicts;
    const failures = verdicts.filter((v) => v.exitCode !== 0 || v.failed.length);
    const ms = verdicts.map((v) => v.ms).sort((a, b) => a - b);
    console.log(
      `\n${runs} runs, ${failures.length} failed; run time median ${(ms[Math.floor(ms.length / 2)]! / 1000).toFixed(1)} s, max ${
        (ms.at(-1)! / 1000).toFixed(1)
      } s`,
    );
    for (const f of failures) {
      console.log(
        `  CONFORMANCE_SEED=${f.seed} ${f.shape === 'legacy' ? 'CONFORMANCE_MOCK_SHAPE=legacy ' : ''}${
          f.readings === '(defaults)' ? '' : `CONFORMANCE_MOCK_READINGS=${f.readings} `
        }npm start  →  ${f.failed.join(', ') || `exit ${f.exitCode}`}`,
      );
    }
    bad ||= failures.length > 0;
  }

  if (values.faults) {
    const names = values.faults === 'all' ? allFaults.map((f) => f.name) : values.faults.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = names.filter((n) => !allFaults.some((f) => f.name === n));
    if (unknown.length) throw new Error(`unknown faults: ${unknown.join(', ')} (npm run mock -- --list-faults)`);
    console.log(`\nfault detection: ${names.length} faults on ${seeds.length} seeds`);
    const detection = await detectionOf(names, seeds, concurrency);
    figures.faults = detection;
    const partial = detection.filter((d) => d.detectedOn.length && d.missedOn.length);
    const never = detection.filter((d) => !d.detectedOn.length);
    console.log(`${detection.length - partial.length - never.length} detected on every seed, ${partial.length} on some seeds only, ${never.length} on none`);
    for (const d of partial) console.log(`  seed-dependent: ${d.fault} missed on seeds ${d.missedOn.join(', ')} (detected on ${d.detectedOn.join(', ')})`);
    for (const d of never) console.log(`  never detected: ${d.fault}`);
    bad ||= partial.length > 0 || never.length > 0;
  }

  console.log(`\nwall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ first, seeds, ...figures }, null, 2)}\n`);
  return bad ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then((code) => process.exit(code), (e: unknown) => {
    console.error(String((e as Error)?.message ?? e));
    process.exit(2);
  });
}
