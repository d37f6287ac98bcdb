// The cached best case: throughput on one URL, repeated, beside the baselines, measured one
// server at a time, each server in its own process (the load generator is this process).
// After the first request every answer of the mock comes from its page cache; mixed.ts
// measures what a mix of requests costs.
//   - the mock:            GET /api/public/v1/projects?limit=50 with a valid key; answered
//                          before fastify (mock/fast/direct-reads.ts), from the page cache
//   - the mock, framework:  the same with every request through fastify (directReads: false)
//   - Prism's mock:        `prism mock specs/openapi.json`, same request
//   - a bare node:http:    answers every request with the bytes the mock answered
// Prints a table; a benchmark, not a test: nothing here passes or fails.
// Settings (environment, documented defaults):
//   BENCH_DURATION_MS=3000  measured time per server and round
//   BENCH_ROUNDS=3          rounds; the table shows the median
//   BENCH_CONCURRENCY=16    requests in flight
//   BENCH_LOAD=auto         load generator: wrk when installed (apt-get install wrk), else undici
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startPrismMock } from '../integrations/prism.js';
import { startBenchServer } from './children.js';
import { type LoadResult, measure } from './load.js';
import { printTable } from './table.js';
import { measureWithWrk, wrkAvailable } from './wrk.js';

const PATH = '/api/public/v1/projects?limit=50';
const OPENAPI = fileURLToPath(new URL('../specs/openapi.json', import.meta.url));
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 3_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const requestedLoad = process.env.BENCH_LOAD ?? 'auto';
if (!['auto', 'wrk', 'undici'].includes(requestedLoad)) throw new Error(`BENCH_LOAD must be auto, wrk or undici, not ${requestedLoad}`);
const generator = requestedLoad === 'auto' ? (wrkAvailable() ? 'wrk' : 'undici') : requestedLoad;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  bytes: number;
  results: LoadResult[];
}

async function capture(url: string, headers: Record<string, string>, file: string): Promise<number> {
  const res = await request(url, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  if (res.statusCode !== 200) throw new Error(`mock answered ${res.statusCode} to ${PATH}: ${body.toString().slice(0, 200)}`);
  const contentType = String(res.headers['content-type'] ?? 'application/json');
  writeFileSync(file, JSON.stringify({ status: res.statusCode, contentType, bodyBase64: body.toString('base64') }));
  return body.length;
}

async function bodySize(url: string, headers: Record<string, string>): Promise<number> {
  const res = await request(url, { headers });
  return (await res.body.arrayBuffer()).byteLength;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const work = mkdtempSync(join(tmpdir(), 'bench-'));
const capturedFile = join(work, 'projects-limit-50.json');
const stops: (() => Promise<void>)[] = [];
const targets: Target[] = [];
try {
  // Each server is its own process and idles while another is measured.
  const mock = await startBenchServer(['mock']);
  stops.push(mock.stop);
  const headers = { authorization: `Bearer ${mock.settings.CONFORMANCE_API_KEY ?? ''}`, accept: 'application/json' };
  targets.push({
    name: 'reference mock (cached best case)',
    url: mock.url + PATH,
    headers,
    bytes: await capture(mock.url + PATH, headers, capturedFile),
    results: [],
  });
  const prism = await startPrismMock({ openapiPath: OPENAPI });
  stops.push(prism.stop);
  targets.push({ name: 'prism mock (same OpenAPI)', url: prism.url + PATH, headers, bytes: await bodySize(prism.url + PATH, headers), results: [] });
  const framework = await startBenchServer(['mock-framework']);
  stops.push(framework.stop);
  const frameworkHeaders = { ...headers, authorization: `Bearer ${framework.settings.CONFORMANCE_API_KEY ?? ''}` };
  targets.push({
    name: 'reference mock, all through fastify',
    url: framework.url + PATH,
    headers: frameworkHeaders,
    bytes: await bodySize(framework.url + PATH, frameworkHeaders),
    results: [],
  });
  const bare = await startBenchServer(['bare', capturedFile]);
  stops.push(bare.stop);
  targets.push({ name: 'bare node:http (same bytes)', url: bare.url + PATH, headers, bytes: await bodySize(bare.url + PATH, headers), results: [] });

  // Rounds alternate the servers so a change in the machine's load falls on all of them.
  for (let round = 0; round < rounds; round += 1) {
    for (const target of targets) {
      const options = { url: target.url, headers: target.headers, durationMs, concurrency, warmupMs: 500 };
      if (generator === 'wrk') await measure({ ...options, durationMs: 500, warmupMs: 0 }); // warm-up
      target.results.push(generator === 'wrk' ? measureWithWrk(options) : await measure(options));
    }
  }
} finally {
  for (const stop of stops.reverse()) await stop();
  rmSync(work, { recursive: true, force: true });
}

const rate = (t: Target) => median(t.results.map((r) => r.requestsPerSecond));
const mockRate = rate(targets[0]!);
console.log(
  `\nCached best case: GET ${PATH} repeated, ${concurrency} in flight, load generator ${generator}; ${rounds} rounds of ${durationMs} ms per server (after 0.5 s warm-up), one server at a time; median of rounds\n`,
);
printTable(
  ['target', 'status', 'req/s', 'rounds (req/s)', 'p50 ms', 'p99 ms', 'body bytes', 'mock / this'],
  targets.map((t) => {
    const mid = t.results.find((r) => r.requestsPerSecond === rate(t)) ?? t.results[0]!;
    const unexpected = t.results.reduce((sum, r) => sum + r.unexpected, 0);
    return [
      t.name,
      String(mid.status) + (unexpected ? ` (+${unexpected} other)` : ''),
      rate(t).toFixed(0),
      t.results.map((r) => r.requestsPerSecond.toFixed(0)).join(' / '),
      mid.p50Ms.toFixed(2),
      mid.p99Ms.toFixed(2),
      String(t.bytes),
      `${(mockRate / rate(t)).toFixed(2)}x`,
    ];
  }),
);
const [, prismTarget, frameworkTarget, bareTarget] = targets;
if (prismTarget && frameworkTarget && bareTarget) {
  console.log(`\nmock vs prism mock: ${(mockRate / rate(prismTarget)).toFixed(1)}x (expected >= 10x)`);
  console.log(`mock vs bare node:http: ${((100 * mockRate) / rate(bareTarget)).toFixed(0)}% (expected >= 60%)`);
  console.log(
    `without the early page answer: ${(rate(frameworkTarget) / rate(prismTarget)).toFixed(1)}x prism, ${
      ((100 * rate(frameworkTarget)) / rate(bareTarget)).toFixed(0)
    }% of bare`,
  );
}
