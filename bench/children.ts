// Benchmark servers as child processes: started one at a time, stopped by PID,
// with the peak resident set size read from /proc.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { builtEntry } from '../build/run.mjs';

export interface BenchServer {
  url: string;
  pid: number;
  settings: Record<string, string>;
  /** Peak resident set size so far (VmHWM), in bytes; undefined where /proc is unavailable. */
  peakRss(): number | undefined;
  stop(): Promise<void>;
}

/** Generous: a population of 50,000 per list takes seconds to generate. */
const START_TIMEOUT_MS = 120_000;

export function peakRssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Runs serve.ts, as built in dist/, with node itself (not through npx), so the PID is the server's own. */
export async function startBenchServer(args: string[]): Promise<BenchServer> {
  return startChild([await builtEntry('bench-serve'), ...args], args.join(' '));
}

/**
 * The mock of another checkout of this project (BENCH_BASELINE, e.g. `git archive main | tar -x
 * -C /tmp/base` with node_modules linked), started through its own sources with tsx, so any
 * version that has start() can be measured beside this one.
 */
export function startCheckoutMock(dir: string, options: Record<string, unknown> = {}): Promise<BenchServer> {
  const index = pathToFileURL(join(dir, 'mock/index.ts')).href;
  const script = `const { start } = await import(${JSON.stringify(index)});
const mock = await start({ port: 0, ...${JSON.stringify(options)} });
process.once('SIGTERM', () => void mock.close().then(() => process.exit(0)));
process.stdout.write(JSON.stringify({ url: mock.url, settings: mock.settings }) + '\\n');`;
  return startChild(['--import', 'tsx', '--input-type=module', '--eval', script], `baseline ${dir}`, dir);
}

async function startChild(args: string[], label: string, cwd?: string): Promise<BenchServer> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], ...(cwd ? { cwd } : {}) });
  if (child.pid === undefined) throw new Error('benchmark server did not start');
  const pid = child.pid;
  const lines = createInterface({ input: child.stdout! });
  const first = new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`benchmark server ${label} exited (${code})`)));
    setTimeout(() => reject(new Error(`benchmark server ${label} did not start in time`)), START_TIMEOUT_MS).unref();
  });
  let ready: { url: string; settings?: Record<string, string>; };
  try {
    ready = JSON.parse(await first);
  } catch (error) {
    await stop(child);
    throw error;
  }
  lines.on('line', () => undefined); // keep draining stdout
  return {
    url: ready.url,
    pid,
    settings: ready.settings ?? {},
    peakRss: () => peakRssOf(pid),
    stop: () => stop(child),
  };
}
