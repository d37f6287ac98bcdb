// One wrong field is one cause. A deployment that counts the bytes of every upload one short shows
// a wrong `size` wherever an upload is shown: the answers of both upload endpoints, their replays,
// GET by id, the lists. The suite reports one root cause, the field's requirement (what each
// upload endpoint answers, §4 Attachments and Files) failed and nothing else, listing every
// endpoint it showed in; the checks that met it (the model-based run, the field table, the
// retries, the limits) compare the other fields and pass.
import { beforeAll, describe, expect, test } from 'vitest';
import { runConformance, type RunOutcome } from './runner.js';

let outcome: RunOutcome;

beforeAll(async () => {
  outcome = await runConformance({ CONFORMANCE_MOCK_DEPRECATE: 'listCvs', CONFORMANCE_SEED: '20240601', CONFORMANCE_MOCK_FAULT: 'upload-size-wrong' });
}, 180_000);

describe('the size of every upload one byte short', () => {
  test('is one root cause, failing the upload endpoints only', () => {
    expect(outcome.causes?.length, outcome.output).toBe(1);
    const [cause] = outcome.causes!;
    expect(cause!.message).toMatch(/^size of attachments and files is shown otherwise than sent: size=\d+ for \d+/);
    expect([...cause!.failed].sort()).toEqual(['EP-ATTACHMENTS-CREATE', 'EP-FILES-CREATE']);
    expect(outcome.requirements.filter((r) => r.status === 'failed').map((r) => r.id).sort()).toEqual(['EP-ATTACHMENTS-CREATE', 'EP-FILES-CREATE']);
  });

  test('lists where else it showed', () => {
    expect(outcome.causes![0]!.seenIn).toEqual(expect.arrayContaining(['POST /files', 'POST /attachments']));
  });

  test('every other requirement passes', () => {
    for (const r of outcome.requirements) {
      if (r.id === 'EP-ATTACHMENTS-CREATE' || r.id === 'EP-FILES-CREATE') continue;
      expect(['passed', 'skipped', 'not-testable'], r.id).toContain(r.status);
    }
    for (
      const behaviour of ['EP-CREATE-PERSISTS', 'IDEM-REPLAY', 'ISO-IDEMPOTENCY-PER-TEAM', 'UPLOAD-IDEM-REPLAY', 'UPLOAD-MAX-SIZE', 'STATE-EMPLOYEE-IS-ACTIVE']
    ) {
      expect(outcome.requirements.find((r) => r.id === behaviour)?.status, behaviour).toBe('passed');
    }
    expect(outcome.exitCode).toBe(1);
  });
});
