// Benchmark servers as child processes: started one at a time, stopped by PID,
// with the peak resident set size read from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface BenchServer {
  url: string;
  pid: number;
  settings: Record<string, string>;
  /** Peak resident set size so far (VmHWM), in bytes; undefined where /proc is unavailable. */
  peakRss(): number | undefined;
  stop(): Promise<void>;
}

const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));
const START_TIMEOUT_MS = 30_000;

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

/** Runs serve.ts with node itself (not through npx), so the PID is the server's own. */
export async function startBenchServer(args: string[]): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVE, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.pid === undefined) throw new Error('benchmark server did not start');
  const pid = child.pid;
  const lines = createInterface({ input: child.stdout! });
  const first = new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`benchmark server ${args.join(' ')} exited (${code})`)));
    setTimeout(() => reject(new Error(`benchmark server ${args.join(' ')} did not start in time`)), START_TIMEOUT_MS);
  });
  let ready: { url: string; settings?: Record<string, string> };
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
