// The parts of the soak of verdicts (bench/verdict-soak.ts) that its test in `npm test` shares
// (suites/self/verdict-soak.test.ts): which mock setup the i-th run gets, one conformance run on a
// seed and setup, and each fault's detection seed by seed.
import { faults as allFaults, prng, type ReadingChoice, readings } from '../../mock/index.js';
import { requirementById } from '../../specs/requirements.js';
import { pooled, runConformance, runFaultSweep, type RunOutcome, selfTestSettings } from './runner.js';

/** One configuration of the bundled mock: a choice of readings and a shape. */
export interface MockSetup {
  choice: ReadingChoice;
  shape: 'full' | 'legacy';
}

/**
 * The setup of the i-th run: shapes alternate, and each reading takes its values in turn (the k-th
 * pair of runs serves value k mod n of a reading with n values), so every value of every reading is
 * served in both shapes within 12 consecutive runs; the defaults alone are runs 0 and 1.
 */
export function setupOf(i: number): MockSetup {
  const turn = Math.floor(i / 2);
  const choice = Object.fromEntries(readings.map((r) => [r.name, r.values[turn % r.values.length]!])) as ReadingChoice;
  return { choice, shape: i % 2 === 0 ? 'full' : 'legacy' };
}

/** The readings a setup changes from the mock's defaults, as CONFORMANCE_MOCK_READINGS spells them. */
export const readingsText = (s: MockSetup): string =>
  Object.entries(s.choice).filter(([name, v]) => readings.find((r) => r.name === name)!.values[0] !== v).map(([k, v]) => `${k}=${v}`).join(',');

/** The settings of one run: the self-test's, a seed, a setup. */
export function settingsOf(seed: number, s: MockSetup): Record<string, string> {
  const text = readingsText(s);
  return {
    ...selfTestSettings,
    CONFORMANCE_SEED: String(seed),
    ...(text ? { CONFORMANCE_MOCK_READINGS: text } : {}),
    ...(s.shape === 'legacy' ? { CONFORMANCE_MOCK_SHAPE: 'legacy' } : {}),
  };
}

/** Requirements a conforming server must never fail (must and implied). */
export const falseFailures = (o: RunOutcome): string[] =>
  o.requirements.filter((r) => r.status === 'failed' && requirementById(r.id)?.level !== 'not-testable').map((r) => r.id);

export interface RunVerdict {
  seed: number;
  shape: MockSetup['shape'];
  readings: string;
  exitCode: number | null;
  failed: string[];
  /** The report's first root cause, or the run's last output when it wrote no report. */
  cause?: string;
  ms: number;
}

/** One conformance run on a seed and setup, as `npm start` runs it (a vitest process over the bundled mock). */
export async function verdictOf(seed: number, s: MockSetup, timeoutMs = 240_000): Promise<RunVerdict> {
  const started = Date.now();
  const o = await runConformance(settingsOf(seed, s), timeoutMs);
  const failed = falseFailures(o);
  const cause = o.causes?.[0]?.message ?? (o.requirements.length ? undefined : o.output.slice(-600));
  return {
    seed,
    shape: s.shape,
    readings: readingsText(s) || '(defaults)',
    exitCode: o.exitCode,
    failed,
    ...(cause ? { cause } : {}),
    ms: Date.now() - started,
  };
}

/** A seed the run can use (CONFORMANCE_SEED is a non-negative 32-bit integer). */
export const seedsFrom = (first: number, n: number): number[] => {
  const next = prng(first);
  return [first, ...Array.from({ length: n - 1 }, () => Math.floor(next() * 2 ** 31))];
};

/** Faults that only show in the older shape are run against the legacy mock (as suites/self/faults.test.ts does). */
const specOf = (f: (typeof allFaults)[number]) => (f.shape === 'legacy' ? `${f.name}@legacy` : f.name);

export interface FaultDetection {
  fault: string;
  detectedOn: number[];
  missedOn: number[];
}

/** Each fault's checks on each seed: on which seeds a check of its requirements failed. */
export async function detectionOf(names: readonly string[], seeds: readonly number[], concurrency: number): Promise<FaultDetection[]> {
  const chosen = allFaults.filter((f) => names.includes(f.name));
  const specs = chosen.map(specOf);
  const bySeed = await pooled(seeds, concurrency, (seed) => runFaultSweep(specs, { ...selfTestSettings, CONFORMANCE_SEED: String(seed) }, 3_600_000));
  return chosen.map((f) => {
    const detection: FaultDetection = { fault: f.name, detectedOn: [], missedOn: [] };
    seeds.forEach((seed, i) => {
      const o = bySeed[i]!.get(specOf(f))!;
      const hit = o.requirements.some((r) => r.status === 'failed' && f.requirements.includes(r.id));
      (hit ? detection.detectedOn : detection.missedOn).push(seed);
    });
    return detection;
  });
}
