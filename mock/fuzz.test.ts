// Property-based fuzzing of the whole mock over raw HTTP/1.1 by hostile clients
// (mock/testing/hostile.ts): random methods, paths, queries, headers (repeated and conflicting
// ones, control characters, heads over the limit, empty idempotency keys), bodies (JSON, random
// bytes, multipart with every kind of part and file name, megabytes refused while they arrive),
// sent whole, slowly, stopped part-way, abandoned, written whole before a byte is read, or kept
// alive and followed by another request or by bytes that are none. Every request the client
// finishes must be answered below 500, every 4xx in the §7 full envelope, with no hang, no close
// without an answer, no reset and no answer lost to what followed it; the mock must keep serving and hold no blob
// file open afterwards. Bounded and reproducible: MOCK_FUZZ_SEED (default 1414) and
// MOCK_FUZZ_RUNS (default 4000 requests); a failure prints the seed, the request's index and the
// request. The long runs are the fuzz benchmark's (bench/fuzz.ts).
import { readdirSync, readlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestMock, type TestMock } from './testing/client.js';
import { describeRequest, type FuzzTargets, problemOf, runHostile } from './testing/hostile.js';

const SEED = Number(process.env.MOCK_FUZZ_SEED ?? 1414);
const RUNS = Number(process.env.MOCK_FUZZ_RUNS ?? 4000);
/** Short timeouts, so a request the fuzzer leaves incomplete, or a download it never reads, ends quickly. */
const TIMEOUTS = { bodyTimeoutMs: 400, requestTimeoutMs: 1_000, downloadIdleTimeoutMs: 1_000 } as const;

let t: TestMock;
let targets: FuzzTargets;
beforeAll(async () => {
  t = await startTestMock(TIMEOUTS);
  const a = (await t.call('GET', '/assignments?limit=1')).json.data[0];
  const org = (await t.call('GET', '/organizations?limit=1')).json.data[0].id;
  const other = (await t.call('GET', '/projects?limit=1', { key: 'other' })).json.data[0].id;
  targets = { keys: t.keys, ids: [a.id, a.employee_id, a.project_id, org, other], projectId: a.project_id, attachments: [] };
});
afterAll(() => t.close());

/** Descriptors of this process open on the mock's blob files. */
const blobFiles = () =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(t.mock.dataDir);
    } catch {
      return false;
    }
  }).length;

describe('fuzz', () => {
  it(`answers ${RUNS} hostile requests below 500, every 4xx in the envelope, none left hanging (seed ${SEED})`, async () => {
    const started = Date.now();
    const statuses = new Map<number | string, number>();
    const problems: string[] = [];
    await runHostile(t.mock.url, targets, {
      seed: SEED,
      count: RUNS,
      concurrency: 16,
      boundMs: TIMEOUTS.requestTimeoutMs + 4_000,
      timing: { maxGapMs: TIMEOUTS.bodyTimeoutMs / 4 },
    }, (r, outcome, index) => {
      const key = outcome.kind === 'answered' ? outcome.status : outcome.kind;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      const p = problemOf(r, outcome);
      if (p) problems.push(`#${index} ${p.problem}: ${p.why}\n  request: ${describeRequest(r)}`);
    });
    const sorted = Object.fromEntries([...statuses].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    console.log(`fuzz: ${RUNS} requests in ${Date.now() - started} ms (seed ${SEED}); outcomes ${JSON.stringify(sorted)}`);
    expect(problems.slice(0, 5), `${problems.length} problems (seed ${SEED})`).toEqual([]);
    expect([...statuses.keys()].some((s) => typeof s === 'number' && s < 300)).toBe(true);
    expect((await t.call('GET', '/projects?limit=1')).status).toBe(200);
    await vi.waitFor(() => expect(blobFiles()).toBe(0), { timeout: 5_000, interval: 100 });
  }, 180_000);
});
