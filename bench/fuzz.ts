// The fuzz benchmark: the reference mock under hostile clients, at length. Seeded random requests
// (mock/testing/hostile.ts, the generator of the bounded fuzz test mock/fuzz.test.ts: methods,
// paths, queries, headers, JSON and multipart bodies, file names, repeated and conflicting headers,
// heads over the limit, megabytes refused while they arrive) sent whole, slowly, stopped part-way,
// abandoned part-way or while the answer arrives, written whole before a byte is read, or kept
// alive and followed by another request or by bytes that are none, to one mock process with short
// timeouts. It counts, per seed: answers by class (501 apart: the answer RFC 9112 §6.1 asks for a
// transfer coding other than chunked, no failure), 5xx, error answers not in the §7 envelope, hangs
// (no answer within the bound), connections closed without an answer, resets, answers lost to what
// followed on the connection; and reads the mock's descriptors and memory from /proc before and
// after (once its closing connections have closed). It prints figures and never asserts them.
// Settings (environment, documented defaults):
//   BENCH_FUZZ_SEED=1              seed of the requests; several, comma-separated, run one after another
//   BENCH_FUZZ_REQUESTS=100000     requests per seed
//   BENCH_FUZZ_CONCURRENCY=32      requests in flight
//   BENCH_FUZZ_EXAMPLES=5          problems printed per seed, each with its index and request
//   BENCH_BASELINE=<checkout>      also the mock of another checkout (children.ts startCheckoutMock)
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { describeRequest, type FuzzTargets, type Problem, problemOf, runHostile } from '../mock/testing/hostile.js';
import { type BenchServer, startBenchServer, startCheckoutMock } from './children.js';
import { printTable } from './table.js';

const seeds = (process.env.BENCH_FUZZ_SEED ?? '1').split(',').map((s) => Number(s.trim()));
const count = Number(process.env.BENCH_FUZZ_REQUESTS ?? 100_000);
const concurrency = Number(process.env.BENCH_FUZZ_CONCURRENCY ?? 32);
const examples = Number(process.env.BENCH_FUZZ_EXAMPLES ?? 5);
const baseline = process.env.BENCH_BASELINE;
/** Short, so what a hostile client leaves unfinished ends quickly; the bound of a hang is well above them. */
const TIMEOUTS = { bodyTimeoutMs: 1_000, requestTimeoutMs: 3_000, downloadIdleTimeoutMs: 2_000 } as const;
const BOUND_MS = TIMEOUTS.requestTimeoutMs + 12_000;
const API = '/api/public/v1';
const MB = 1024 * 1024;

/** The mock process's descriptors (and those on blob files) and resident memory; undefined once it is gone. */
function processFigures(pid: number): { fds: number; blobs: number; rss: number; } | undefined {
  try {
    const fds = readdirSync(`/proc/${pid}/fd`);
    let blobs = 0;
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`).includes('/blobs/')) blobs++;
      } catch {
        // closed meanwhile
      }
    }
    const rss = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    return { fds: fds.length, blobs, rss };
  } catch {
    return undefined;
  }
}

async function targetsOf(mock: BenchServer): Promise<FuzzTargets> {
  const s = mock.settings;
  const get = async (path: string, key = s.CONFORMANCE_API_KEY!) =>
    ((await (await fetch(`${mock.url}${API}${path}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: Record<string, string>[]; }).data[0]!;
  const a = await get('/assignments?limit=1');
  const org = await get('/organizations?limit=1');
  const other = await get('/projects?limit=1', s.CONFORMANCE_API_KEY_OTHER_TEAM);
  return {
    keys: {
      team: s.CONFORMANCE_API_KEY!,
      other: s.CONFORMANCE_API_KEY_OTHER_TEAM!,
      readOnly: s.CONFORMANCE_API_KEY_READ_ONLY!,
      noApi: s.CONFORMANCE_API_KEY_NO_API_ACCESS!,
    },
    ids: [a.id!, a.employee_id!, a.project_id!, org.id!, other.id!],
    projectId: a.project_id!,
    attachments: [],
  };
}

interface Figures {
  server: string;
  seed: number;
  sent: number;
  ms: number;
  classes: Record<string, number>;
  problems: Record<Problem, number>;
  before: ReturnType<typeof processFigures>;
  after: ReturnType<typeof processFigures>;
  exited: boolean;
}

async function fuzz(server: string, mock: BenchServer, seed: number): Promise<Figures> {
  const targets = await targetsOf(mock);
  const before = processFigures(mock.pid);
  const classes: Record<string, number> = {};
  const problems: Record<Problem, number> = { '5xx': 0, 'non-envelope': 0, hang: 0, closed: 0, reset: 0, lost: 0 };
  const shown: string[] = [];
  let sent = 0;
  let exited = false;
  let exitedAt: number | undefined;
  const started = performance.now();
  let lastReport = started;
  await runHostile(mock.url, targets, { seed, count, concurrency, boundMs: BOUND_MS, timing: { maxGapMs: TIMEOUTS.bodyTimeoutMs / 4 } }, (r, o, index) => {
    // Refused: nobody listens any more (the server crashed); the rest would only count that.
    if (o.kind === 'reset' && o.code === 'ECONNREFUSED') {
      exited = true;
      exitedAt ??= index;
      return 'stop';
    }
    sent++;
    const cls = o.kind !== 'answered' ? o.kind : o.status === 501 ? '501' : `${Math.floor(o.status / 100)}xx`;
    classes[cls] = (classes[cls] ?? 0) + 1;
    const p = problemOf(r, o);
    if (p) {
      problems[p.problem]++;
      if (shown.length < examples) shown.push(`  #${index} ${p.problem}: ${p.why.slice(0, 300)}\n    ${describeRequest(r).slice(0, 600)}`);
    }
    const now = performance.now();
    if (now - lastReport > 30_000) {
      lastReport = now;
      exited ||= processFigures(mock.pid) === undefined;
      process.stderr.write(`  ${server}, seed ${seed}: ${sent} of ${count} requests, ${JSON.stringify(problems)}${exited ? ', the server has exited' : ''}\n`);
    }
  });
  const ms = performance.now() - started;
  // Connections closing in stages end within their bounds; then the process is read again.
  let after = processFigures(mock.pid);
  for (let waited = 0; after && before && after.fds > before.fds && waited < 15_000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    after = processFigures(mock.pid);
  }
  exited ||= after === undefined;
  if (exitedAt !== undefined) process.stderr.write(`${server}, seed ${seed}: the server stopped listening at request #${exitedAt}\n`);
  if (shown.length) process.stderr.write(`${server}, seed ${seed}, first problems:\n${shown.join('\n')}\n`);
  return { server, seed, sent, ms, classes, problems, before, after, exited: exited || exitedAt !== undefined };
}

async function measure(server: string, startMock: () => Promise<BenchServer>): Promise<Figures[]> {
  const out: Figures[] = [];
  for (const seed of seeds) {
    const mock = await startMock();
    try {
      out.push(await fuzz(server, mock, seed));
    } finally {
      await mock.stop();
    }
  }
  return out;
}

const figures = [
  ...(await measure('reference mock', () => startBenchServer(['mock-with', JSON.stringify(TIMEOUTS)]))),
  ...(baseline ? await measure(`baseline (${baseline})`, () => startCheckoutMock(baseline, TIMEOUTS)) : []),
];

const n = (v: number | undefined) => (v === undefined ? 'n/a' : v.toLocaleString('en-US'));
const mib = (v: number | undefined) => (v === undefined ? 'n/a' : `${(v / MB).toFixed(0)} MiB`);
console.log(
  `\nFuzz: ${count.toLocaleString('en-US')} hostile requests per seed, ${concurrency} in flight, to one mock process `
    + `(body timeout ${TIMEOUTS.bodyTimeoutMs} ms, request ${TIMEOUTS.requestTimeoutMs} ms, download idle ${TIMEOUTS.downloadIdleTimeoutMs} ms; a hang: no answer in ${BOUND_MS} ms)\n`,
);
printTable(
  [
    'server',
    'seed',
    'sent',
    'req/s',
    '2xx',
    '4xx',
    '501 (a coding)',
    'aborted',
    '5xx',
    'non-envelope',
    'hangs',
    'closed unanswered',
    'resets',
    'lost answers',
    'fds before → after',
    'blob fds after',
    'RSS before → after',
  ],
  figures.map((f) => [
    f.server + (f.exited ? ' (crashed)' : ''),
    String(f.seed),
    n(f.sent),
    n(Math.round(f.sent / (f.ms / 1000))),
    n(f.classes['2xx'] ?? 0),
    n(f.classes['4xx'] ?? 0),
    n(f.classes['501'] ?? 0),
    n(f.classes.aborted ?? 0),
    n(f.problems['5xx']),
    n(f.problems['non-envelope']),
    n(f.problems.hang),
    n(f.problems.closed),
    n(f.problems.reset),
    n(f.problems.lost),
    `${n(f.before?.fds)} → ${n(f.after?.fds)}`,
    n(f.after?.blobs),
    `${mib(f.before?.rss)} → ${mib(f.after?.rss)}`,
  ]),
);
