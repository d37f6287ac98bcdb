// What a keyset page costs deep in a large collection: the mock with a population of
// 50,000 records per list and team (start({ population })), GET /projects?limit=50, page 1
// against page 1000 (the last), reached by walking the cursors first. Two ways:
//   - built afresh:   each request a new URL (an extra parameter the mock ignores), so the
//                     page cache never answers and the page is built every time
//   - after a PATCH:  the same, each GET right after a PATCH of a project's notes, the write
//                     that used to make the next read re-sort the whole collection
// Requests are sequential on one connection; the figure is the median latency (p10-p90).
// Prints a table; a benchmark, not a test.
// Settings (environment, documented defaults):
//   BENCH_POPULATION=50000    records per list and team
//   BENCH_PAGE_SAMPLES=200    requests per page and way
//   BENCH_BASELINE=<dir>      also measure the mock of another checkout (children.ts)
import { Pool } from 'undici';
import { type BenchServer, startBenchServer, startCheckoutMock } from './children.js';
import { cpuMsOf } from './cpu.js';
import { printTable } from './table.js';

const API = '/api/public/v1';
const LIMIT = 50;
const population = Number(process.env.BENCH_POPULATION ?? 50_000);
const samples = Number(process.env.BENCH_PAGE_SAMPLES ?? 200);
const deepPage = Math.max(2, Math.ceil(population / LIMIT));
const baseline = process.env.BENCH_BASELINE;

interface Figures {
  p10: number;
  p50: number;
  p90: number;
  cpuMs: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function call(
  pool: Pool,
  method: 'GET' | 'PATCH',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; }> {
  const res = await pool.request({ method, path, headers: body ? { ...headers, 'content-type': 'application/json' } : headers, body });
  return { status: res.statusCode, text: await res.body.text() };
}

/** The path of page `n` (1-based) of the walk, and the ids on a page halfway there. */
async function walkTo(pool: Pool, headers: Record<string, string>, n: number): Promise<{ path: string; middleIds: string[]; }> {
  let path = `${API}/projects?limit=${LIMIT}`;
  let middleIds: string[] = [];
  for (let page = 1; page < n; page += 1) {
    const r = await call(pool, 'GET', path, headers);
    if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}`);
    const body = JSON.parse(r.text) as { data: { id: string; }[]; page: { hasMore: boolean; nextCursor: string; }; };
    if (page === Math.ceil(n / 2)) middleIds = body.data.map((p) => p.id);
    if (!body.page.hasMore) throw new Error(`the walk ended at page ${page}, before page ${n}`);
    path = `${API}/projects?limit=${LIMIT}&cursor=${encodeURIComponent(body.page.nextCursor)}`;
  }
  return { path, middleIds };
}

async function measurePage(server: BenchServer, pool: Pool, headers: Record<string, string>, path: string, patchIds: string[] | undefined): Promise<Figures> {
  const times: number[] = [];
  const cpuBefore = cpuMsOf(server.pid);
  for (let i = 0; i < samples; i += 1) {
    if (patchIds) await call(pool, 'PATCH', `${API}/projects/${patchIds[i % patchIds.length]}`, headers, JSON.stringify({ notes: `bench page note ${i}` }));
    const fresh = `${path}&bench_sample=${Date.now()}-${i}`;
    const started = performance.now();
    const r = await call(pool, 'GET', fresh, headers);
    times.push(performance.now() - started);
    if (r.status !== 200) throw new Error(`GET ${fresh} answered ${r.status}`);
  }
  const cpuAfter = cpuMsOf(server.pid);
  times.sort((a, b) => a - b);
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : (cpuAfter - cpuBefore) / samples;
  return { p10: quantile(times, 0.1), p50: quantile(times, 0.5), p90: quantile(times, 0.9), cpuMs };
}

async function measureServer(name: string, start: () => Promise<BenchServer>): Promise<string[][]> {
  const server = await start();
  const pool = new Pool(server.url, { connections: 1 });
  try {
    const headers = { authorization: `Bearer ${server.settings.CONFORMANCE_API_KEY ?? ''}`, accept: 'application/json' };
    const firstPath = `${API}/projects?limit=${LIMIT}`;
    // The PATCHes change projects halfway, on neither page measured.
    const deep = await walkTo(pool, headers, deepPage);
    const rows: string[][] = [];
    for (const [way, patchIds] of [['built afresh', undefined], ['after a PATCH', deep.middleIds]] as const) {
      const one = await measurePage(server, pool, headers, firstPath, patchIds);
      const far = await measurePage(server, pool, headers, deep.path, patchIds);
      const ms = (f: Figures) => `${f.p50.toFixed(2)} (${f.p10.toFixed(2)}-${f.p90.toFixed(2)})`;
      const cpu = (f: Figures) => (Number.isNaN(f.cpuMs) ? 'n/a' : f.cpuMs.toFixed(3));
      rows.push([name, way, ms(one), ms(far), `${(far.p50 / one.p50).toFixed(2)}x`, cpu(one), cpu(far)]);
    }
    return rows;
  } finally {
    await pool.close();
    await server.stop();
  }
}

const rows = await measureServer('reference mock', () => startBenchServer(['mock', String(population)]));
if (baseline) rows.push(...(await measureServer(`baseline (${baseline})`, () => startCheckoutMock(baseline, { population }))));
console.log(
  `\nGET ${API}/projects?limit=${LIMIT}, population ${population} per list and team: page 1 and page ${deepPage} (the last), ${samples} sequential requests each; ms median (p10-p90)\n`,
);
printTable(['target', 'way', 'page 1 ms', `page ${deepPage} ms`, `page ${deepPage} / page 1`, 'CPU ms/req p1', `CPU ms/req p${deepPage}`], rows);
console.log('\n"after a PATCH": the CPU figure includes the PATCH before each GET.');
