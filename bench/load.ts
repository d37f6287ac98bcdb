// A bounded closed-loop load generator on undici: `concurrency` workers each send
// requests back to back until the duration ends, after a short warm-up: the same GET,
// or the requests of a sequence (sequence.ts) in turn, starting again at its end.
import { Pool } from 'undici';
import type { RequestSequence } from './sequence.js';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** Default 5 s; the run never exceeds it by more than one request's time. */
  durationMs?: number;
  /** Default 1 s, not counted. */
  warmupMs?: number;
  /** Default 16. */
  concurrency?: number;
  /** Requests to send in turn instead of GET `url` (then only the origin of `url` counts). */
  sequence?: RequestSequence;
}

export interface LoadResult {
  requests: number;
  /** Responses with a status other than expected (counted, not in the rate). */
  unexpected: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The status of the first response (single URL), or 200 when every response was a 2xx (sequence). */
  status: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function measure(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const path = target.pathname + target.search;
  const concurrency = options.concurrency ?? 16;
  const pool = new Pool(target.origin, { connections: concurrency, keepAliveTimeout: 10_000 });
  const headers = options.headers ?? {};
  const seq = options.sequence;
  let status = seq ? 200 : 0;
  let next = 0;
  const nextRequest = () => {
    if (!seq) return { method: 'GET' as const, path, headers };
    const r = seq.requests[next]!;
    next = (next + 1) % seq.requests.length;
    const body = r.body === undefined ? undefined : seq.bodies[r.body];
    return { method: r.method, path: r.path, headers: r.contentType ? { ...seq.headers, 'content-type': r.contentType } : seq.headers, body };
  };

  const run = async (until: number, latencies: number[] | undefined) => {
    let ok = 0;
    let unexpected = 0;
    while (Date.now() < until) {
      const started = performance.now();
      const res = await pool.request(nextRequest());
      await res.body.dump({ limit: Number.MAX_SAFE_INTEGER });
      latencies?.push(performance.now() - started);
      if (status === 0) status = res.statusCode;
      const expected = seq ? res.statusCode < 300 : res.statusCode === status;
      if (expected) ok += 1;
      else unexpected += 1;
    }
    return { ok, unexpected };
  };

  try {
    const warmupEnd = Date.now() + (options.warmupMs ?? 1_000);
    await Promise.all(Array.from({ length: concurrency }, () => run(warmupEnd, undefined)));
    const durationMs = options.durationMs ?? 5_000;
    const latencies: number[] = [];
    const started = performance.now();
    const end = Date.now() + durationMs;
    const counts = await Promise.all(Array.from({ length: concurrency }, () => run(end, latencies)));
    const elapsed = (performance.now() - started) / 1000;
    const requests = counts.reduce((sum, c) => sum + c.ok, 0);
    latencies.sort((a, b) => a - b);
    return {
      requests,
      unexpected: counts.reduce((sum, c) => sum + c.unexpected, 0),
      requestsPerSecond: requests / elapsed,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      status,
    };
  } finally {
    await pool.close();
  }
}
