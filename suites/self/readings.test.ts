// The proof that the suites pass conforming servers that read the document differently: the mock
// serves the alternative readings of mock/reference/readings.ts (open points of the document, not faults),
// and a full conformance run against each combination reports no must/implied requirement failed.
import { beforeAll, describe, expect, test } from 'vitest';
import { type ReadingChoice, readings } from '../../mock/index.js';
import { requirementById } from '../../specs/requirements.js';
import { pooled, runConformance, type RunOutcome, selfTestSettings } from './runner.js';

interface ReadingRun {
  name: string;
  choice: ReadingChoice;
  shape?: 'legacy';
  /** Readings the suites must have recorded, proving the alternative was actually served. */
  observed: Record<string, RegExp>;
  /** Warnings the suites must have raised (arguable but conforming behaviour). */
  warned?: RegExp[];
}

/** Compatible readings combined, so every alternative value is served at least once in four runs. */
const runs: ReadingRun[] = [
  {
    name: 'pagination: a small maximum refused above, default page 10, default order desc, no last cursor, unsigned cursors',
    choice: {
      'limit-over-max': '400',
      'max-limit': '50',
      'default-limit': '10',
      'default-order': 'desc',
      'last-page-cursor': 'absent',
      'cursor-format': 'plain',
    },
    observed: {
      'list.maximum-limit': /^50 \(a larger limit is refused with 400\)/,
      'list.limit-above-maximum': /refused with 400/,
      'list.default-page-size': /^10$/,
      'list.last-page-next-cursor': /absent/,
    },
  },
  {
    name:
      'statuses: 200 creates, 403 for keys and plans, 409 reused JSON key, 404 malformed ids, 204 file delete, decimal 25 MB, offset timestamps, per-request noise in errors, other UUID spellings served',
    choice: {
      'create-status': '200',
      'auth-failure-status': '403',
      'plan-limit-status': '403',
      'idempotency-reused-status': '409',
      'malformed-id': '404',
      'file-delete': '204',
      'upload-limit': '25000000',
      'timestamp-format': 'offset',
      'request-noise': 'gateway',
      'uuid-spellings': 'accept',
      'text-normal-form': 'nfc',
    },
    observed: {
      'create.status': /^200$/,
      'plan-limit.status': /^403$/,
      'idempotency.reused-key-other-body': /^409$/,
      'ids.non-canonical-status': /404/,
      'file-delete.answer': /^204/,
      'upload.limit': /^24995904 <= L/,
      'isolation.per-request-noise': /header x-upstream-latency-us/,
      'ids.other-spellings': /^served as the id it spells$/,
      'text.normal-form.employees': /another Unicode normal form/,
    },
  },
  {
    name:
      'a maximum of 50 clamped, space-separated timestamps, lists also at a trailing slash, a full page before an empty last one, pages of a scanned window, legacy organizations beside full projects',
    choice: {
      'max-limit': '50',
      'default-limit': '10',
      'timestamp-format': 'space',
      'trailing-slash-lists': 'list',
      'empty-last-page': 'after-full-page',
      'page-scan': 'window',
      'organization-shape': 'other',
    },
    observed: {
      'list.limit-above-maximum': /clamped \(page of 50\)/,
      'shape.organization': /^legacy/,
      'shape.project': /^full/,
    },
    warned: [/^list\.empty-last-page/, /^list\.empty-page-has-more/],
  },
  {
    name: 'legacy shape with every alternative reading at once (a limit above 50 refused with 422)',
    shape: 'legacy',
    choice: Object.fromEntries(readings.map((r) => [r.name, r.values.at(-1)!])) as ReadingChoice,
    observed: {
      'list.maximum-limit': /^50 \(a larger limit is refused with 422\)/,
      'list.limit-above-maximum': /refused with 422/,
      'create.status': /^200$/,
      'shape.organization': /^full/,
      'shape.project': /^legacy/,
    },
  },
];

const settingsOf = (run: ReadingRun) => ({
  ...selfTestSettings,
  CONFORMANCE_MOCK_READINGS: Object.entries(run.choice).map(([k, v]) => `${k}=${v}`).join(','),
  ...(run.shape ? { CONFORMANCE_MOCK_SHAPE: run.shape } : {}),
});

/** Failed requirements a conforming server must never get (level must or implied). */
const testableFailures = (o: RunOutcome) =>
  o.requirements.filter((r) => r.status === 'failed' && requirementById(r.id)?.level !== 'not-testable').map((r) => r.id);

const outcomes: RunOutcome[] = [];

beforeAll(async () => {
  outcomes.push(...(await pooled(runs, 2, (run) => runConformance(settingsOf(run), 240_000))));
}, 600_000);

describe('the suites pass the mock serving alternative conforming readings', () => {
  test('every alternative value of mock/reference/readings.ts is served by some run', () => {
    for (const r of readings) {
      for (const value of r.values.slice(1)) {
        expect(runs.some((run) => (run.choice as Record<string, string>)[r.name] === value), `${r.name}=${value}`).toBe(true);
      }
    }
  });

  test.each(runs.map((run, i) => [run.name, i] as const))('%s', (_name, i) => {
    const run = runs[i]!;
    const outcome = outcomes[i]!;
    expect(outcome.requirements.length, `no report was written:\n${outcome.output}`).toBeGreaterThan(0);
    expect(testableFailures(outcome), `readings ${settingsOf(run).CONFORMANCE_MOCK_READINGS}\n${outcome.output}`).toEqual([]);
    expect(outcome.exitCode, outcome.output).toBe(0);
    for (const pattern of run.warned ?? []) expect(outcome.warnings ?? [], `warning ${pattern} raised`).toContainEqual(expect.stringMatching(pattern));
    for (const [key, pattern] of Object.entries(run.observed)) {
      expect(outcome.readings?.[key], `reading ${key} observed (all: ${JSON.stringify(outcome.readings)})`).toMatch(pattern);
    }
  });
});
