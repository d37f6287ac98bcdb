// The proof that the checks can fail: the suites pass against the clean mock (two real runs, as a
// user would start them), and for every fault of mock/faults/ the checks selected by the fault's
// requirements, run against a mock with the fault on, report at least one of them failed. The
// faults run in two sweep processes (suites/self/sweep.ts): the same checks and report building,
// without a vitest start-up per fault.
import { beforeAll, describe, expect, test } from 'vitest';
import { failureModes, faults as written } from '../../mock/index.js';
import { pooled, runConformance, runFaultSweep, type RunOutcome, selfTestSettings } from './runner.js';

/**
 * The written faults, and the failure modes no written fault stands for, on every element they
 * have (each operation): the checks only they can fail (the scheme's letter case, a caller held in
 * state shared between requests, a PATCH or DELETE retry in flight run again) are proven by them.
 */
const PROVING_MODES =
  /^mode:access:bearer-scheme-case-sensitive:|^mode:concurrency:request-state-shared:(get|update(?!Project)|delete)|^mode:concurrency:in-flight-run-twice:(update|delete)/;
const faults: readonly { name: string; requirements: readonly string[]; description: string; shape?: string; }[] = [
  ...written,
  ...failureModes().filter((f) => PROVING_MODES.test(f.name)),
];

/** Faults that only show in the older shape are run against the legacy mock. */
const specOf = (fault: (typeof faults)[number]) => (fault.shape === 'legacy' ? `${fault.name}@legacy` : fault.name);

const failedIds = (o: RunOutcome) => o.requirements.filter((r) => r.status === 'failed').map((r) => r.id);

let clean: RunOutcome;
let cleanLegacy: RunOutcome;
const outcomes = new Map<string, RunOutcome>();

beforeAll(async () => {
  const specs = faults.map(specOf);
  // two processes, each with every other fault, so both cores work and slow faults are spread
  const halves = [specs.filter((_, i) => i % 2 === 0), specs.filter((_, i) => i % 2 === 1)];
  const [cleanRuns, swept] = await Promise.all([
    pooled([selfTestSettings, { ...selfTestSettings, CONFORMANCE_MOCK_SHAPE: 'legacy' }], 2, (settings) => runConformance(settings)),
    Promise.all(halves.map((half) => runFaultSweep(half, selfTestSettings))),
  ]);
  [clean, cleanLegacy] = cleanRuns as [RunOutcome, RunOutcome];
  for (const fault of faults) outcomes.set(fault.name, swept.find((m) => m.has(specOf(fault)))!.get(specOf(fault))!);
}, 600_000);

describe('the suites against the clean mock', () => {
  test('full shape: every check passes', () => {
    expect(clean.requirements.length, clean.output).toBeGreaterThan(0);
    expect(failedIds(clean), clean.output).toEqual([]);
    expect(clean.exitCode, clean.output).toBe(0);
  });

  test('legacy shape: every check passes', () => {
    expect(failedIds(cleanLegacy), cleanLegacy.output).toEqual([]);
    expect(cleanLegacy.exitCode, cleanLegacy.output).toBe(0);
  });
});

describe('every check can fail', () => {
  // A requirement can have several checks; each of them, not only one per requirement, must be
  // failed by some fault, or it is a check that nothing can fail.
  test('each check that passes against the clean mock fails against at least one fault', () => {
    const passing = new Set([...clean.checks, ...cleanLegacy.checks].filter(([, status]) => status === 'passed').map(([name]) => name));
    for (const name of faults.map((f) => f.name)) {
      for (const [check, status] of outcomes.get(name)!.checks) if (status === 'failed') passing.delete(check);
    }
    expect([...passing], 'checks that no fault makes fail').toEqual([]);
  });
});

describe('every fault is detected', () => {
  test.each(faults.map((f) => [f.name, f] as const))('%s', (name, fault) => {
    const outcome = outcomes.get(name)!;
    expect(outcome.requirements.length, `no report was written:\n${outcome.output}`).toBeGreaterThan(0);
    const detected = failedIds(outcome).filter((id) => fault.requirements.includes(id));
    expect(detected, `no check of ${fault.requirements.join(', ')} failed with fault ${name} (${fault.description})`).not.toEqual([]);
  });
});
