// Soak figure of the reference mock: a long run of mixed requests against one mock
// process, reading its resident set size (VmRSS) after a warm-up and at the end. Memory
// that grows with the number of requests served (rather than with the data kept) shows
// as an end RSS well above the warm-up one; the mock's bounded state is the idempotency
// store (mock/reference/idempotency-store.ts), the page cache (mock/fast/page-cache.ts) and per-request
// timeouts (mock/reference/protocol.ts). Prints a table; a benchmark, not a test.
// The mix, cycled: list pages (a bounded set of URLs) and single records, PATCHes and
// creates with fresh idempotency keys, replays of a few keys, assignments and uploads
// created and deleted again (so the data stays the same size), attachment downloads,
// repeated captures, and bad input (404, malformed ids, invalid, deep and non-object
// JSON, missing keys). Every answer must be below 500.
// Settings (environment, documented defaults):
//   BENCH_SOAK_REQUESTS=200000   requests in all, warm-up included
//   BENCH_SOAK_WARMUP=20000      requests before the warm-up RSS is read
//   BENCH_SOAK_CONCURRENCY=8     requests in flight
//   BENCH_SOAK_UPLOAD_BYTES=65536  size of each upload
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { type BenchServer, startBenchServer } from './children.js';
import { printTable } from './table.js';

const API = '/api/public/v1';
const total = Number(process.env.BENCH_SOAK_REQUESTS ?? 200_000);
const warmup = Number(process.env.BENCH_SOAK_WARMUP ?? 20_000);
const concurrency = Number(process.env.BENCH_SOAK_CONCURRENCY ?? 8);
const uploadBytes = Number(process.env.BENCH_SOAK_UPLOAD_BYTES ?? 65_536);
const MB = 1024 * 1024;

function rssOf(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

const boundary = 'soakboundary';
const file = randomBytes(uploadBytes);
const multipart = (fields: Record<string, string>) =>
  Buffer.concat([
    Buffer.from(Object.entries(fields).map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')),
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="soak.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);

class Soak {
  private readonly pool: Pool;
  private readonly auth: Record<string, string>;
  readonly statuses = new Map<number, number>();
  private n = 0;
  private projects: string[] = [];
  private employees: string[] = [];
  private orgs: string[] = [];

  constructor(private readonly mock: BenchServer) {
    this.pool = new Pool(mock.url, { connections: concurrency, keepAliveTimeout: 10_000 });
    this.auth = { authorization: `Bearer ${mock.settings.CONFORMANCE_API_KEY ?? ''}` };
  }

  async send(c: Call): Promise<{ status: number; text: string; }> {
    const res = await this.pool.request({ method: c.method, path: c.path, headers: { ...this.auth, ...c.headers }, body: c.body });
    const text = await res.body.text();
    this.statuses.set(res.statusCode, (this.statuses.get(res.statusCode) ?? 0) + 1);
    return { status: res.statusCode, text };
  }

  async prepare(): Promise<void> {
    const ids = async (path: string, field = 'id') =>
      (JSON.parse((await this.send({ method: 'GET', path: `${API}${path}` })).text) as { data: Record<string, string>[]; }).data.map((r) => r[field]!);
    this.projects = await ids('/projects?limit=20');
    this.employees = await ids('/assignments?limit=20', 'employee_id');
    this.orgs = await ids('/organizations?limit=20');
  }

  /** One step of the mix; some steps send two or three requests (create, then delete). */
  async step(): Promise<number> {
    const i = this.n++;
    const p = this.projects[i % this.projects.length]!;
    const e = this.employees[i % this.employees.length]!;
    const key = `soak-${i}`;
    switch (i % 16) {
      case 0:
        await this.send({ method: 'GET', path: `${API}/projects?limit=50` });
        return 1;
      case 1:
        await this.send({ method: 'GET', path: `${API}/projects?limit=${1 + (i % 20)}&order=${i % 2 ? 'asc' : 'desc'}&q=${i % 7}` });
        return 1;
      case 2:
        await this.send({ method: 'GET', path: `${API}/projects/${p}` });
        return 1;
      case 3:
        await this.send({
          method: 'PATCH',
          path: `${API}/projects/${p}`,
          headers: { 'idempotency-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ notes: `soak ${i}` }),
        });
        return 1;
      case 4: {
        const created = await this.send({
          method: 'POST',
          path: `${API}/assignments`,
          headers: { 'idempotency-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ employee_id: e, project_id: p, role: `soak ${i}` }),
        });
        const id = (JSON.parse(created.text) as { id?: string; }).id;
        if (id) await this.send({ method: 'DELETE', path: `${API}/assignments/${id}` });
        return id ? 2 : 1;
      }
      case 5:
        await this.send({ method: 'GET', path: `${API}/assignments?project_id=${p}&limit=25` });
        return 1;
      case 6: {
        const up = await this.send({
          method: 'POST',
          path: `${API}/files`,
          headers: { 'idempotency-key': key, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: multipart({ category: 'soak' }),
        });
        const id = (JSON.parse(up.text) as { id?: string; }).id;
        if (id) await this.send({ method: 'DELETE', path: `${API}/files/${id}` });
        return id ? 2 : 1;
      }
      case 7: {
        const up = await this.send({
          method: 'POST',
          path: `${API}/attachments`,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: multipart({ entity_type: 'project', entity_id: p }),
        });
        const id = (JSON.parse(up.text) as { id?: string; }).id;
        if (!id) return 1;
        await this.send({ method: 'GET', path: `${API}/attachments/${id}/download` });
        await this.send({ method: 'DELETE', path: `${API}/attachments/${id}` });
        return 3;
      }
      case 8:
        await this.send({
          method: 'POST',
          path: `${API}/organizations`,
          headers: { 'idempotency-key': `soak-org-${i % 50}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Soak org ${i % 50}` }),
        });
        return 1;
      case 9:
        await this.send({
          method: 'PATCH',
          path: `${API}/organizations/${this.orgs[i % this.orgs.length]!}`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ notes: `soak ${i}` }),
        });
        return 1;
      case 10:
        await this.send({
          method: 'POST',
          path: `${API}/intake/captures`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ source: 'soak', external_id: `thread-${i % 100}` }),
        });
        return 1;
      case 11:
        await this.send({ method: 'GET', path: `${API}/cvs?limit=${1 + (i % 10)}` });
        return 1;
      case 12:
        await this.send({ method: 'GET', path: `${API}/projects/${(i >> 4) % 2 ? 'not-a-uuid' : '00000000-0000-4000-8000-000000000000'}` });
        return 1;
      case 13:
        await this.send({
          method: 'POST',
          path: `${API}/employees`,
          headers: { 'idempotency-key': key, 'content-type': 'application/json' },
          body: i % 3 === 0 ? '{"first_name":' : i % 3 === 1 ? `{"x":${'['.repeat(200)}${']'.repeat(200)}}` : 'null',
        });
        return 1;
      case 14:
        await this.send({ method: 'GET', path: `${API}/projects`, headers: { authorization: 'Bearer wrong' } });
        return 1;
      default:
        await this.send({
          method: 'PATCH',
          path: `${API}/employees/${e}`,
          headers: { 'idempotency-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `soak ${i}` }),
        });
        return 1;
    }
  }

  /** Runs steps on `concurrency` workers until `count` more requests were sent. */
  async run(count: number): Promise<void> {
    let sent = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (sent < count) {
        const n = await this.step();
        sent += n;
      }
    }));
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

const mock = await startBenchServer(['mock']);
const rows: string[][] = [];
const mib = (n: number | undefined) => (n === undefined ? 'n/a' : `${(n / MB).toFixed(0)} MiB`);
try {
  const soak = new Soak(mock);
  await soak.prepare();
  const idle = rssOf(mock.pid);
  const started = performance.now();
  await soak.run(warmup);
  const warm = rssOf(mock.pid);
  await soak.run(total - warmup);
  const ms = performance.now() - started;
  const end = rssOf(mock.pid);
  await soak.close();
  const served = [...soak.statuses.values()].reduce((a, b) => a + b, 0);
  const fivexx = [...soak.statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
  const ratio = warm && end ? end / warm : undefined;
  rows.push(['requests (warm-up included)', String(served), `${(served / (ms / 1000)).toFixed(0)} req/s`]);
  rows.push(['RSS idle', mib(idle), '']);
  rows.push([`RSS after warm-up (${warmup} requests)`, mib(warm), '']);
  rows.push(['RSS at the end', mib(end), ratio === undefined ? '' : `${ratio.toFixed(2)}x the warm-up RSS (expected <= 1.5x)`]);
  rows.push(['peak RSS (VmHWM)', mib(mock.peakRss()), '']);
  rows.push(['answers >= 500', String(fivexx), fivexx ? 'UNEXPECTED' : '']);
  console.log(`\nSoak: ${served} mixed requests, ${concurrency} in flight, uploads of ${uploadBytes} bytes, mock in its own process\n`);
  printTable(['what', 'figure', 'note'], rows);
  console.log(`statuses: ${JSON.stringify(Object.fromEntries([...soak.statuses].sort((a, b) => a[0] - b[0])))}`);
} finally {
  await mock.stop();
}
