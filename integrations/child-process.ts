// Child processes that serve HTTP on 127.0.0.1: started, awaited until they
// answer, and stopped by their own PID. Shared by the Prism integration and the
// benchmark scripts.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { request } from 'undici';

export interface ServingProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface ServeOptions {
  command: string;
  args: string[];
  /** URL answered once the process is ready (any status counts). */
  readyUrl: string;
  /** Base URL handed back to the caller. */
  url: string;
  env?: NodeJS.ProcessEnv;
  /** Bound on start-up; default 30 s. */
  readyTimeoutMs?: number;
  /** Bound on a graceful stop before SIGKILL; default 5 s. */
  stopTimeoutMs?: number;
  label: string;
}

/** A port free on 127.0.0.1 at the time of asking (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await request(url, { headersTimeout: 2_000, bodyTimeout: 2_000 });
    await response.body.dump();
    return true;
  } catch {
    return false;
  }
}

export async function stopChild(child: ChildProcess, timeoutMs = 5_000): Promise<void> {
  if (exited(child) || child.pid === undefined) return;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGTERM');
  const graceful = await Promise.race([done.then(() => true), delay(timeoutMs).then(() => false)]);
  if (!graceful && !exited(child)) {
    process.kill(child.pid, 'SIGKILL');
    await done;
  }
}

/** Spawns the process and resolves once `readyUrl` answers; rejects with its output tail otherwise. */
export async function serve(options: ServeOptions): Promise<ServingProcess> {
  const child = spawn(options.command, options.args, {
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = () => stopChild(child, options.stopTimeoutMs);

  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (!(await answers(options.readyUrl))) {
    if (exited(child)) {
      throw new Error(`${options.label} exited (code ${child.exitCode}) before answering:\n${output}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.label} did not answer ${options.readyUrl} in time:\n${output}`);
    }
    await delay(150);
  }
  if (child.pid === undefined) throw new Error(`${options.label} has no PID`);
  return { url: options.url, pid: child.pid, stop };
}
