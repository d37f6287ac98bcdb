// A small, time-bounded sample of the failure modes (mock/faults/modes/), each of which the suite
// must detect: the checks its requirements select, run against the mock with the fault on, report
// one of those requirements failed. The sample is taken from the faults the seeded benchmark runs
// killed by a requirement the fault names (`npm run failure-modes`), one per category it draws
// from: storage and serialization (stored as, answered as), writes, diverging reads, request
// parsing, auth and isolation order, lists, idempotency scope. Concurrency is not drawn from: its
// faults show only under requests that overlap, which the checks' order does not fix. A key matched
// without its body (`mode:idempotency:key-without-body:<JSON endpoint>`) survives: for JSON bodies
// the document says only "Every mutating endpoint takes an optional header idempotency-key
// (string)", and a replay of the first answer is a reading it leaves open (the 422 is stated for
// uploads alone). The faults
// the suite does not catch are measured, and listed with the request that shows them, by
// `npm run failure-modes` (bench/failure-modes.ts, fixtures/failure-modes/), not hidden here.
import { beforeAll, describe, expect, test } from 'vitest';
import { failureModes } from '../../mock/index.js';
import { runFaultSweep, type RunOutcome, selfTestSettings } from './runner.js';

const SAMPLE = [
  'mode:storage:number-as-string:createAssignment.bill_rate',
  'mode:storage:answered-key-camelcased:listAssignments?project_id>employee#first_name',
  'mode:writes:patch-array-merged:updateEmployee.skills',
  'mode:reads:stale-cache:getAssignment',
  'mode:requests:not-found-outside-envelope:getAssignment',
  'mode:access:lookup-by-id-alone:getAssignment',
  'mode:lists:parameter-ignored:listProjects?order',
  'mode:idempotency:key-checked-after-handler:createAssignment',
];

const sample = SAMPLE.map((name) => {
  const f = failureModes().find((x) => x.name === name);
  if (!f) throw new Error(`no failure mode ${name}`);
  return f;
});

let outcomes: Map<string, RunOutcome>;

beforeAll(async () => {
  // about 75 s on an idle 2-core machine
  outcomes = await runFaultSweep(SAMPLE, selfTestSettings, 150_000);
}, 180_000);

describe('a sample of the failure modes is detected', () => {
  test.each(sample.map((f) => [f.name, f] as const))('%s', (name, fault) => {
    const o = outcomes.get(name)!;
    expect(o.requirements.length, `no report was written:\n${o.output}`).toBeGreaterThan(0);
    const detected = o.requirements.filter((r) => r.status === 'failed' && fault.requirements.includes(r.id)).map((r) => r.id);
    expect(detected, `no check of ${fault.requirements.join(', ')} failed with ${name} (${fault.description})`).not.toEqual([]);
  });
});
