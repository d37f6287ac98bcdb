// One bug is one cause. A deployment answering `"nextCursor": null` on the last page of every
// list (§2 types it string) breaks the page envelope, and nothing else: the suite reports exactly
// one root cause, the page envelope's requirement failed, with the response cut around the null,
// and every check of behaviour (authentication, isolation, idempotency, state, the walks
// themselves) reads past it and passes, or is blocked by that one cause.
import { beforeAll, describe, expect, test } from 'vitest';
import { runConformance, type RunOutcome } from './runner.js';

let outcome: RunOutcome;

beforeAll(async () => {
  outcome = await runConformance({ CONFORMANCE_MOCK_DEPRECATE: 'listCvs', CONFORMANCE_SEED: '20240601', CONFORMANCE_MOCK_FAULT: 'next-cursor-null-last-page' });
}, 180_000);

describe('"nextCursor": null on the last pages', () => {
  test('is one root cause, in plain words, failing the page envelope only', () => {
    expect(outcome.causes?.map((c) => c.message), outcome.output).toEqual(['page.nextCursor is null, where the API document has a string']);
    const [cause] = outcome.causes!;
    expect(cause!.failed).toEqual(['RES-PAGE-ENVELOPE']);
    expect(outcome.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual(['RES-PAGE-ENVELOPE']);
  });

  test('shows the part of the response around the null', () => {
    expect(outcome.causes![0]!.failure.excerpt).toContain('"nextCursor":null');
  });

  test('every other requirement passes, or is blocked by that cause', () => {
    const id = outcome.causes![0]!.id;
    for (const r of outcome.requirements) {
      if (r.id === 'RES-PAGE-ENVELOPE') continue;
      expect(['passed', 'skipped', 'not-testable', 'blocked'], r.id).toContain(r.status);
      if (r.status === 'blocked') expect(r.causes, r.id).toEqual([id]);
    }
    for (
      const behaviour of [
        'AUTH-BEARER-REQUIRED',
        'IDEM-REPLAY',
        'ISO-LIST-OWN-TEAM-ONLY',
        'STATE-EMPLOYEE-IS-ACTIVE',
        'LIST-PAGE-WALK',
        'LIST-WALK-EVERY-RECORD-ONCE',
      ]
    ) {
      expect(outcome.requirements.find((r) => r.id === behaviour)?.status, behaviour).toBe('passed');
    }
    expect(outcome.exitCode).toBe(1);
  });
});
