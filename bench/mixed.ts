// Throughput on the mixed workloads of mix.ts (the read mix and the write mix), side by
// side, each server in its own process and fresh for each mix:
//   - the mock:                 default options (plain GETs of lists and records answered before
//                               fastify, mock/fast/direct-reads.ts; unchanged pages from the page cache)
//   - the mock, fastify only:   directReads: false
//   - Prism's mock:             `prism mock specs/openapi.json` (stateless: it answers each
//                               operation's example, whatever the ids, cursors and bodies)
//   - bare node:http:           answers each request with the bytes the mock answered to it,
//                               recorded beforehand: what sending these answers costs at least
// Every server gets the same seeded sequence of requests (cursors are each mock's own; Prism
// gets the first mock's), repeated until the time is up. CPU per request is the server
// process's user + system time over the measured rounds divided by the responses it sent.
// Prints tables; a benchmark, not a test: nothing here passes or fails.
// Settings (environment, documented defaults):
//   BENCH_DURATION_MS=3000   measured time per server and round
//   BENCH_ROUNDS=3           rounds; the table shows the median and the range
//   BENCH_CONCURRENCY=16     requests in flight
//   BENCH_LOAD=auto          load generator: wrk when installed (apt-get install wrk), else undici
//   BENCH_SEED=1             seed of the request sequences
//   BENCH_MIXES=read,write   which mixes to run
//   BENCH_BASELINE=<dir>     also measure the mock of another checkout (children.ts), last
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startPrismMock } from '../integrations/prism.js';
import { startBenchServer, startCheckoutMock } from './children.js';
import { childPidsMatching, cpuMsOf } from './cpu.js';
import { type LoadResult, measure } from './load.js';
import { MIX_SUMMARY, type MixName, mixSteps } from './mix.js';
import { ListWalker, type RequestSequence, resolveSequence, teamData } from './sequence.js';
import { printTable } from './table.js';
import { measureWithWrk, wrkAvailable } from './wrk.js';

const OPENAPI = fileURLToPath(new URL('../specs/openapi.json', import.meta.url));
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 3_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const seed = Number(process.env.BENCH_SEED ?? 1);
const mixes = (process.env.BENCH_MIXES ?? 'read,write').split(',').map((m) => m.trim()) as MixName[];
const baseline = process.env.BENCH_BASELINE;
const requestedLoad = process.env.BENCH_LOAD ?? 'auto';
if (!['auto', 'wrk', 'undici'].includes(requestedLoad)) throw new Error(`BENCH_LOAD must be auto, wrk or undici, not ${requestedLoad}`);
const generator = requestedLoad === 'auto' ? (wrkAvailable() ? 'wrk' : 'undici') : requestedLoad;

interface Target {
  name: string;
  url: string;
  pid: number | undefined;
  sequence: RequestSequence;
  results: LoadResult[];
  cpuMs: number;
}

const headersFor = (key: string) => ({ authorization: `Bearer ${key}`, accept: 'application/json' });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The mock's answer to each distinct request of the sequence, as serve.ts's `bare` reads them. */
async function recordAnswers(url: string, seq: RequestSequence, file: string): Promise<void> {
  const answers: Record<string, { status: number; contentType: string; bodyBase64: string; }> = {};
  for (const r of seq.requests) {
    const key = `${r.method} ${r.path}`;
    if (answers[key]) continue;
    const res = await request(url + r.path, {
      method: r.method,
      headers: r.contentType ? { ...seq.headers, 'content-type': r.contentType } : seq.headers,
      body: r.body === undefined ? undefined : seq.bodies[r.body],
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    answers[key] = { status: res.statusCode, contentType: String(res.headers['content-type'] ?? 'application/json'), bodyBase64: body.toString('base64') };
  }
  writeFileSync(file, JSON.stringify({ answers }));
}

async function runMix(mix: MixName): Promise<Target[]> {
  const steps = mixSteps(mix, { seed });
  const stops: (() => Promise<void>)[] = [];
  const targets: Target[] = [];
  const work = mkdtempSync(join(tmpdir(), 'bench-mix-'));
  try {
    const mock = await startBenchServer(['mock']);
    stops.push(mock.stop);
    const mockHeaders = headersFor(mock.settings.CONFORMANCE_API_KEY ?? '');
    const mockWalker = new ListWalker(mock.url, mockHeaders);
    const data = await teamData(mockWalker);
    const mockSequence = await resolveSequence(steps, data, mockWalker, mockHeaders);
    targets.push({ name: 'reference mock', url: mock.url, pid: mock.pid, sequence: mockSequence, results: [], cpuMs: 0 });

    const framework = await startBenchServer(['mock-framework']);
    stops.push(framework.stop);
    const frameworkHeaders = headersFor(framework.settings.CONFORMANCE_API_KEY ?? '');
    const frameworkSequence = await resolveSequence(steps, data, new ListWalker(framework.url, frameworkHeaders), frameworkHeaders);
    targets.push({ name: 'reference mock, all through fastify', url: framework.url, pid: framework.pid, sequence: frameworkSequence, results: [], cpuMs: 0 });

    const answersFile = join(work, 'answers.json');
    await recordAnswers(mock.url, mockSequence, answersFile);
    const bare = await startBenchServer(['bare', answersFile]);
    stops.push(bare.stop);

    const prism = await startPrismMock({ openapiPath: OPENAPI });
    stops.push(prism.stop);
    const prismPid = childPidsMatching('prism-cli').at(-1);
    targets.push({
      name: 'prism mock (same OpenAPI)',
      url: prism.url,
      pid: prismPid,
      sequence: { ...mockSequence, headers: headersFor('bench') },
      results: [],
      cpuMs: 0,
    });
    targets.push({ name: "bare node:http (the mock's answers)", url: bare.url, pid: bare.pid, sequence: mockSequence, results: [], cpuMs: 0 });

    if (baseline) {
      const base = await startCheckoutMock(baseline);
      stops.push(base.stop);
      const baseHeaders = headersFor(base.settings.CONFORMANCE_API_KEY ?? '');
      const baseSequence = await resolveSequence(steps, data, new ListWalker(base.url, baseHeaders), baseHeaders);
      targets.push({ name: `baseline mock (${baseline})`, url: base.url, pid: base.pid, sequence: baseSequence, results: [], cpuMs: 0 });
    }

    // Rounds alternate the servers so a change in the machine's load falls on all of them.
    for (let round = 0; round < rounds; round += 1) {
      for (const target of targets) {
        const options = { url: target.url, sequence: target.sequence, durationMs, concurrency, warmupMs: 500 };
        if (generator === 'wrk') await measure({ ...options, durationMs: 500, warmupMs: 0 }); // warm-up
        const cpuBefore = target.pid === undefined ? undefined : cpuMsOf(target.pid);
        target.results.push(generator === 'wrk' ? measureWithWrk(options) : await measure(options));
        const cpuAfter = target.pid === undefined ? undefined : cpuMsOf(target.pid);
        target.cpuMs += cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : cpuAfter - cpuBefore;
      }
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(work, { recursive: true, force: true });
  }
  return targets;
}

function print(mix: MixName, targets: Target[]): void {
  const rate = (t: Target) => median(t.results.map((r) => r.requestsPerSecond));
  const mockRate = rate(targets[0]!);
  console.log(`\n${mix} mix: ${MIX_SUMMARY[mix]}`);
  console.log(
    `seed ${seed}, ${
      targets[0]!.sequence.requests.length
    } requests repeated; ${concurrency} in flight, load generator ${generator}; ${rounds} rounds of ${durationMs} ms per server (after 0.5 s warm-up)\n`,
  );
  printTable(
    ['target', 'req/s', 'rounds (req/s)', 'non-2xx', 'p50 ms', 'p99 ms', 'CPU ms/req', 'mock / this'],
    targets.map((t) => {
      const requests = t.results.reduce((sum, r) => sum + r.requests, 0);
      const unexpected = t.results.reduce((sum, r) => sum + r.unexpected, 0);
      const mid = t.results.find((r) => r.requestsPerSecond === rate(t)) ?? t.results[0]!;
      return [
        t.name,
        rate(t).toFixed(0),
        t.results.map((r) => r.requestsPerSecond.toFixed(0)).join(' / '),
        `${((100 * unexpected) / Math.max(1, requests)).toFixed(1)}%`,
        mid.p50Ms.toFixed(2),
        mid.p99Ms.toFixed(2),
        Number.isNaN(t.cpuMs) ? 'n/a' : (t.cpuMs / Math.max(1, requests)).toFixed(3),
        `${(mockRate / rate(t)).toFixed(2)}x`,
      ];
    }),
  );
  const [, framework, prism, bare, base] = targets;
  const ratio = (a: Target, b: Target) => (rate(a) / rate(b)).toFixed(1);
  const cpuRatio = (a: Target, b: Target) =>
    ((b.cpuMs / b.results.reduce((s, r) => s + r.requests, 0)) / (a.cpuMs / a.results.reduce((s, r) => s + r.requests, 0))).toFixed(1);
  const mock = targets[0]!;
  if (framework && prism && bare) {
    console.log(
      `\n${mix} mix, mock vs prism mock: ${ratio(mock, prism)}x req/s, ${cpuRatio(mock, prism)}x less CPU per request; fastify only vs prism mock: ${
        ratio(framework, prism)
      }x`,
    );
    console.log(`${mix} mix, mock vs bare node:http sending the same answers: ${((100 * rate(mock)) / rate(bare)).toFixed(0)}% of its req/s`);
  }
  if (base && prism) {
    console.log(
      `${mix} mix, mock vs baseline mock: ${ratio(mock, base)}x req/s, ${cpuRatio(mock, base)}x less CPU per request; baseline vs prism mock: ${
        ratio(base, prism)
      }x`,
    );
  }
}

for (const mix of mixes) print(mix, await runMix(mix));
