import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The command line run as a person runs it: a child process (tsx bin/cli.ts), for bin/*.test.ts.
// Its environment holds only what the test gives, never this process's CONFORMANCE_* settings.

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');

/** This process's environment without the settings of a run, and with `settings`. */
export function childEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'TEST') env[k] = v;
  }
  return { ...env, ...settings };
}

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `conformance <args>` in a child, killed after `timeoutMs`; `stdout()` reads what it printed so far. */
export function spawnCli(args: readonly string[], settings: Record<string, string>, o: { detached?: boolean; timeoutMs?: number; } = {}) {
  const child = spawn(tsx, ['bin/cli.ts', ...args], { cwd: root, env: childEnv(settings), stdio: ['ignore', 'pipe', 'pipe'], detached: o.detached ?? false });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 120_000);
  const exited = new Promise<Exited>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    })
  );
  return { pid: child.pid!, stdout: () => stdout, exited, kill: (sig: NodeJS.Signals) => child.kill(sig) };
}

/** The model-based check's name, as reports name it (its title and its requirements), from the built registrations. */
export function modelBasedCheck(): string {
  const file = fileURLToPath(new URL('../dist/registrations.json', import.meta.url));
  const { registrations } = JSON.parse(readFileSync(file, 'utf8')) as { registrations: { title: string; requirements: string[]; }[]; };
  const r = registrations.find((x) => x.title.startsWith('model-based:'))!;
  return `${r.title} [${r.requirements.join(', ')}]`;
}
