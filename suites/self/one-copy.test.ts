// One stale copy is one cause. A deployment that keeps the employee embedded in an assignment as it
// was when the assignment was made shows it stale wherever an assignment is shown after a change
// of the employee: GET by id, every list and filter, the answer of a PATCH of the assignment. The
// suite reports one root cause, failing the embedding's requirement (§2 Assignment: `employee`
// "embedded in responses") and nothing else, whichever check, field and view met it.
import { beforeAll, describe, expect, test } from 'vitest';
import { runConformance, type RunOutcome } from './runner.js';

let outcome: RunOutcome;

beforeAll(async () => {
  outcome = await runConformance({ CONFORMANCE_MOCK_DEPRECATE: 'listCvs', CONFORMANCE_SEED: '5', CONFORMANCE_MOCK_FAULT: 'embedded-employee-stale' });
}, 180_000);

describe("an assignment's embedded employee kept as it was", () => {
  test('is one root cause, failing the embedding requirement only', () => {
    expect(outcome.causes?.length, outcome.output).toBe(1);
    const [cause] = outcome.causes!;
    expect(cause!.message).toMatch(/^the employee embedded in assignments is not the employee as it is/);
    expect(cause!.failed).toEqual(['RES-ASSIGNMENT-EMBEDDED-CURRENT']);
    expect(outcome.requirements.filter((r) => r.status === 'failed' || r.status === 'blocked').map((r) => r.id)).toEqual(['RES-ASSIGNMENT-EMBEDDED-CURRENT']);
  });

  test('lists where else it showed', () => {
    expect(outcome.causes![0]!.seenIn).toEqual(expect.arrayContaining(['GET /assignments', 'GET /assignments/{id}']));
  });

  test('the checks that met it read on and pass', () => {
    for (const behaviour of ['EP-PATCH-PERSISTS', 'EP-CREATE-PERSISTS', 'EP-ASSIGNMENTS-GET', 'LIST-FILTER-EMPLOYEE-ID']) {
      expect(outcome.requirements.find((r) => r.id === behaviour)?.status, behaviour).toBe('passed');
    }
    expect(outcome.exitCode).toBe(1);
  });
});
