// Start-up time: from spawning the process to ready, several times each, interleaved:
//   - the mock:            `node build/run.mjs cli mock --port 0` (what `npm run mock` runs):
//                          ready when its last `export CONFORMANCE_…` line is printed; once with
//                          its code cache (every start after the first, build/common-js.mjs) and
//                          once without (the first start after a build)
//   - npm run mock:        the same through npm, whose own start is part of what users wait for
//   - Prism's mock:        `prism mock specs/openapi.json` (as integrations/prism.ts
//                          starts it): ready when it answers an HTTP request (polled every 10 ms)
// Each process runs in its own process group and is stopped with it.
// Prints a table; a benchmark, not a test.
// Settings (environment, documented defaults):
//   BENCH_STARTUP_RUNS=5     starts per command
//   BENCH_BASELINE=<dir>     also start the mock of another checkout (node --import tsx bin/cli.ts mock)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { builtEntry } from '../build/run.mjs';
import { freePort } from '../integrations/child-process.js';
import { printTable } from './table.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OPENAPI = join(ROOT, 'specs/openapi.json');
const PRISM_CLI = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const baseline = process.env.BENCH_BASELINE;
const TIMEOUT_MS = 60_000;
const READY_LINE = /^export CONFORMANCE_SORT_FIELDS=/m;

interface Command {
  name: string;
  ready: 'settings' | 'answers';
  argv(port: number): { command: string; args: string[]; cwd: string; };
  /** Run around each start (the cold start sets the code cache aside). */
  around?: <T>(start: () => Promise<T>) => Promise<T>;
}

function answers(url: string): Promise<boolean> {
  return request(url, { headersTimeout: 1_000, bodyTimeout: 1_000 }).then(
    async (res) => (await res.body.dump(), true),
    () => false,
  );
}

/** Milliseconds from spawn to ready. */
function timeStart(cmd: Command): Promise<number> {
  return cmd.around ? cmd.around(() => spawnUntilReady(cmd)) : spawnUntilReady(cmd);
}

async function spawnUntilReady(cmd: Command, keepMs = 0): Promise<number> {
  const port = await freePort();
  const { command, args, cwd } = cmd.argv(port);
  const started = performance.now();
  const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${cmd.name} was not ready in ${TIMEOUT_MS} ms:\n${output.slice(-2000)}`)), TIMEOUT_MS);
      const done = (ms: number) => {
        clearTimeout(timer);
        resolve(ms);
      };
      child.once('exit', (code) => reject(new Error(`${cmd.name} exited (${code}) before it was ready:\n${output.slice(-2000)}`)));
      child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      child.stdout!.on('data', (d: Buffer) => {
        output += d.toString();
        if (cmd.ready === 'settings' && READY_LINE.test(output)) done(performance.now() - started);
      });
      if (cmd.ready === 'answers') {
        const poll = async () => {
          if (child.exitCode !== null) return;
          if (await answers(`http://127.0.0.1:${port}/`)) done(performance.now() - started);
          else setTimeout(poll, 10);
        };
        void poll();
      }
    });
  } finally {
    if (keepMs > 0) await new Promise((resolve) => setTimeout(resolve, keepMs));
    child.removeAllListeners('exit');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

await builtEntry('cli'); // built here if needed, so that no start below includes a build
const manifest = JSON.parse(readFileSync(join(ROOT, 'dist/manifest.json'), 'utf8')) as { entries: { cli: { hash: string; }; }; };
const mockCache = join(ROOT, 'dist/cache', `cli-${manifest.entries.cli.hash}-mock.v8`);
const mockArgv = (port: number) => ({ command: process.execPath, args: [join(ROOT, 'build/run.mjs'), 'cli', 'mock', '--port', String(port)], cwd: ROOT });
/** Starts without the code cache: it is set aside meanwhile (a start that short writes none). */
const withoutCodeCache = async <T>(start: () => Promise<T>): Promise<T> => {
  const aside = `${mockCache}.aside`;
  if (existsSync(mockCache)) renameSync(mockCache, aside);
  try {
    return await start();
  } finally {
    if (existsSync(aside)) renameSync(aside, mockCache);
  }
};
const commands: Command[] = [
  { name: 'mock (node build/run.mjs cli mock)', ready: 'settings', argv: mockArgv },
  { name: 'mock, first start after a build (no code cache)', ready: 'settings', argv: mockArgv, around: withoutCodeCache },
  { name: 'npm run mock', ready: 'settings', argv: (port) => ({ command: 'npm', args: ['run', '--silent', 'mock', '--', '--port', String(port)], cwd: ROOT }) },
  {
    name: 'prism mock (same OpenAPI)',
    ready: 'answers',
    argv: (port) => ({ command: process.execPath, args: [PRISM_CLI, 'mock', OPENAPI, '-h', '127.0.0.1', '-p', String(port), '-v', 'warn'], cwd: ROOT }),
  },
];
if (baseline) {
  commands.push({
    name: `baseline mock (${baseline}, tsx bin/cli.ts mock)`,
    ready: 'settings',
    argv: (port) => ({ command: process.execPath, args: ['--import', 'tsx', 'bin/cli.ts', 'mock', '--port', String(port)], cwd: baseline }),
  });
}

// One start long enough to write the mock's code cache, as any first use does.
if (!existsSync(mockCache)) await spawnUntilReady(commands[0]!, 1_500);
const times = new Map<Command, number[]>(commands.map((c) => [c, []]));
// Interleaved, so a change in the machine's load falls on every command.
for (let i = 0; i < runs; i += 1) for (const cmd of commands) times.get(cmd)!.push(await timeStart(cmd));

const fmt = (ms: number) => ms.toFixed(0);
console.log(`\nStart-up, from spawn to ready, ${runs} starts each (interleaved); ms\n`);
printTable(
  ['command', 'ready when', 'min', 'median', 'max', 'all'],
  commands.map((c) => {
    const t = [...times.get(c)!].sort((a, b) => a - b);
    return [
      c.name,
      c.ready === 'settings' ? 'settings printed' : 'answers HTTP',
      fmt(t[0]!),
      fmt(t[Math.floor(t.length / 2)]!),
      fmt(t[t.length - 1]!),
      times.get(c)!.map(fmt).join(' '),
    ];
  }),
);
