// The same closed-loop measurement as load.ts, driven by wrk (Debian's `wrk`) when it is
// installed. A native generator matters on a 2-core machine: the undici loop spends a core
// parsing 67 KB bodies and caps every server near the same rate, hiding the difference
// between them. wrk is optional; without it the benchmark falls back to load.ts.
// With a sequence, wrk runs mix.lua over the sequence written as a Lua file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadOptions, LoadResult } from './load.js';
import { toLua } from './sequence.js';

const MIX_SCRIPT = fileURLToPath(new URL('./mix.lua', import.meta.url));

export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined;
}

/** wrk prints latencies as `812.00us`, `1.23ms` or `1.10s`. */
function toMs(text: string | undefined): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
  if (!m) return 0;
  const value = Number(m[1]);
  return m[2] === 'us' ? value / 1000 : m[2] === 's' ? value * 1000 : value;
}

export function measureWithWrk(options: LoadOptions): LoadResult {
  const seconds = Math.max(1, Math.round((options.durationMs ?? 5_000) / 1000));
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const work = options.sequence ? mkdtempSync(join(tmpdir(), 'bench-wrk-')) : undefined;
  let args = ['-t1', `-c${options.concurrency ?? 16}`, `-d${seconds}s`, '--latency', ...headerArgs, options.url];
  if (work && options.sequence) {
    const file = join(work, 'sequence.lua');
    writeFileSync(file, toLua(options.sequence));
    args = ['-t1', `-c${options.concurrency ?? 16}`, `-d${seconds}s`, '--latency', '-s', MIX_SCRIPT, new URL(options.url).origin, '--', file];
  }
  let out: string;
  try {
    const run = spawnSync('wrk', args, { encoding: 'utf8', timeout: (seconds + 30) * 1000, maxBuffer: 16 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`wrk failed (${run.status}): ${run.stderr || run.stdout}`);
    out = run.stdout;
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const unexpected = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return {
    requests,
    unexpected,
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p50Ms: toMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1]),
    p99Ms: toMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1]),
    status: unexpected === requests ? 0 : 200,
  };
}
