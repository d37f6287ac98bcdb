// Upload figures of the reference mock, each run in a fresh mock process:
//   - one 25 MB attachment uploaded, then downloaded; times and byte identity
//   - peak RSS (VmHWM) of the mock process under 8 concurrent 25 MB uploads
// 25 MB is taken as 25,000,000 bytes, within every reading of the document's limit.
// Prints a table; a benchmark, not a test.
// Settings (environment, documented defaults):
//   BENCH_UPLOAD_BYTES=25000000   size of each upload
//   BENCH_UPLOAD_CONCURRENCY=8    concurrent uploads for the peak RSS figure
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { type BenchServer, startBenchServer } from './children.js';
import { printTable } from './table.js';

const API = '/api/public/v1';
const size = Number(process.env.BENCH_UPLOAD_BYTES ?? 25_000_000);
const concurrency = Number(process.env.BENCH_UPLOAD_CONCURRENCY ?? 8);
const MB = 1024 * 1024;

function multipart(fields: Record<string, string>, file: Buffer): { contentType: string; body: Buffer[]; length: number; } {
  const boundary = `bench${randomBytes(12).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const head = Buffer.from(
    `${parts.join('')}--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="bench.bin"\r\n`
      + 'content-type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: [head, file, tail], length: head.length + file.length + tail.length };
}

function headersFor(mock: BenchServer): Record<string, string> {
  return { authorization: `Bearer ${mock.settings.CONFORMANCE_API_KEY ?? ''}`, accept: 'application/json' };
}

async function aProjectId(mock: BenchServer): Promise<string> {
  const res = await request(`${mock.url}${API}/projects?limit=1`, { headers: headersFor(mock) });
  const page = (await res.body.json()) as { data?: { id: string; }[]; };
  const id = page.data?.[0]?.id;
  if (!id) throw new Error(`no project to attach to (GET /projects answered ${res.statusCode})`);
  return id;
}

async function upload(mock: BenchServer, projectId: string, file: Buffer): Promise<{ id: string; ms: number; }> {
  const mp = multipart({ entity_type: 'project', entity_id: projectId }, file);
  const started = performance.now();
  const res = await request(`${mock.url}${API}/attachments`, {
    method: 'POST',
    headers: { ...headersFor(mock), 'content-type': mp.contentType, 'content-length': String(mp.length) },
    body: Readable.from(mp.body),
  });
  const text = await res.body.text();
  const ms = performance.now() - started;
  if (res.statusCode >= 300) throw new Error(`upload answered ${res.statusCode}: ${text.slice(0, 300)}`);
  return { id: (JSON.parse(text) as { id: string; }).id, ms };
}

function downloadPath(mock: BenchServer, id: string): string {
  // The setting reads `GET /attachments/{id}/download` (method, then path).
  const setting = mock.settings.CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD ?? 'GET /attachments/{id}/download';
  const path = (setting.split(/\s+/).pop() ?? setting).replace(/\{id\}|:id/, id);
  return path.startsWith('/api/') ? path : API + path;
}

async function download(mock: BenchServer, id: string): Promise<{ sha256: string; bytes: number; ms: number; }> {
  const started = performance.now();
  const res = await request(`${mock.url}${downloadPath(mock, id)}`, { headers: { authorization: headersFor(mock).authorization } });
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of res.body) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  if (res.statusCode !== 200) throw new Error(`download answered ${res.statusCode}`);
  return { sha256: hash.digest('hex'), bytes, ms: performance.now() - started };
}

const file = randomBytes(size);
const fileHash = createHash('sha256').update(file).digest('hex');
const rows: string[][] = [];

const single = await startBenchServer(['mock']);
try {
  const projectId = await aProjectId(single);
  const up = await upload(single, projectId, file);
  const down = await download(single, up.id);
  const identical = down.sha256 === fileHash && down.bytes === size;
  rows.push(['upload, 1 x 25 MB', `${up.ms.toFixed(0)} ms`, `${((size / MB) / (up.ms / 1000)).toFixed(0)} MiB/s`, '']);
  rows.push([
    'download, 1 x 25 MB',
    `${down.ms.toFixed(0)} ms`,
    `${((size / MB) / (down.ms / 1000)).toFixed(0)} MiB/s`,
    identical ? 'byte-identical' : 'BYTES DIFFER',
  ]);
  rows.push(['round trip', `${(up.ms + down.ms).toFixed(0)} ms`, '', '']);
} finally {
  await single.stop();
}

const loaded = await startBenchServer(['mock']);
try {
  const projectId = await aProjectId(loaded);
  const idle = loaded.peakRss();
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, () => upload(loaded, projectId, file)));
  const ms = performance.now() - started;
  const peak = loaded.peakRss();
  const mib = (n: number | undefined) => (n === undefined ? 'n/a' : `${(n / MB).toFixed(0)} MiB`);
  rows.push([
    `${concurrency} concurrent uploads x 25 MB`,
    `${ms.toFixed(0)} ms`,
    `${((concurrency * size) / MB / (ms / 1000)).toFixed(0)} MiB/s`,
    `peak RSS ${mib(peak)} (before: ${mib(idle)}; expected < 200 MiB)`,
  ]);
} finally {
  await loaded.stop();
}

console.log(`\nUploads to POST ${API}/attachments of ${size} bytes each, mock in its own process\n`);
printTable(['what', 'time', 'rate', 'note'], rows);
