// `npm run bench:scale`: the whole suite against the mock at several population sizes (projects,
// organizations and assignments per team), to show whether the run's cost depends on the size of
// the deployment. The mock runs in a process of its own, started (and its data built) before the
// clock starts, and the suite is pointed at it as at any deployment — what QA does with staging.
// Prints, per size, the wall time of `conformance run`, the requests it sent (conformance.json
// `requests`), the requirement summary, and the growth factor from the smallest size to each.
// A figure, never an assertion: the goal is growth at most 1.5×.
//
//   npm run bench:scale                      # 37, 5000 and 50000 projects per team
//   npm run bench:scale -- 37 500            # other sizes
//   CONFORMANCE_SEED=1 npm run bench:scale   # same checks, same data, every size
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable } from './table.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const sizes = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
const populations = sizes.length > 0 ? sizes : [37, 5_000, 50_000];
const seed = process.env.CONFORMANCE_SEED ?? '20240601';

/** seconds: the whole `conformance run` command; checks: the run itself (conformance.json durationMs). */
interface Row {
  population: number;
  exitCode: number | null;
  seconds: number;
  checks?: number;
  requests?: number;
  summary: string;
  stopped?: string;
}

/** The mock with `population` records per list and team, in its own process; resolves with its CONFORMANCE_* settings. */
async function startMock(population: number): Promise<{ settings: Record<string, string>; stop(): void; }> {
  const child = spawn(process.execPath, [join(root, 'build/run.mjs'), 'cli', 'mock', '--port', '0', '--seed', '1', '--population', String(population)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const settings: Record<string, string> = {};
  let buffered = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the mock exited (${code}) before it printed its settings`)));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      for (const m of buffered.matchAll(/^export (CONFORMANCE_[A-Z_]+)='((?:[^']|'\\'')*)'$/gm)) settings[m[1]!] = m[2]!.replace(/'\\''/g, "'");
      if (settings.CONFORMANCE_BASE_URL && settings.CONFORMANCE_SORT_FIELDS) resolve();
    });
  });
  return { settings, stop: () => child.kill('SIGTERM') };
}

async function runAt(population: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-scale-'));
  const mock = await startMock(population);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CONFORMANCE_')) env[k] = v;
  Object.assign(env, mock.settings, { CONFORMANCE_SEED: seed, CONFORMANCE_RUN_TIMEOUT: process.env.CONFORMANCE_RUN_TIMEOUT ?? '2h' });
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [join(root, 'build/run.mjs'), 'cli', 'run', '--report-dir', dir], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4_000);
  });
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  mock.stop();
  try {
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as {
      requests?: number;
      durationMs?: number;
      summary: { passed: number; failed: number; skipped: number; };
      stopped?: { message: string; };
      requirements: { id: string; status: string; }[];
    };
    const failed = report.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
    const s = report.summary;
    return {
      population,
      exitCode,
      seconds,
      requests: report.requests,
      ...(report.durationMs !== undefined ? { checks: report.durationMs / 1000 } : {}),
      summary: `${s.passed} passed, ${s.failed} failed${
        failed.length ? ` (${failed.slice(0, 4).join(', ')}${failed.length > 4 ? ', …' : ''})` : ''
      }, ${s.skipped} skipped`,
      ...(report.stopped ? { stopped: report.stopped.message } : {}),
    };
  } catch {
    return { population, exitCode, seconds, summary: `no report (${stderr.trim().split('\n').at(-1) ?? 'no output'})` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const population of populations) {
  process.stderr.write(`running the suite against the mock with ${population} projects per team…\n`);
  rows.push(await runAt(population));
}
const base = rows[0]!;
const factor = (a: number | undefined, b: number | undefined) => (a !== undefined && b ? `${(a / b).toFixed(2)}×` : 'n/a');
console.log(`\nThe suite against the mock as a deployment, by population (seed ${seed}); growth relative to ${base.population} (goal: at most 1.5×)\n`);
printTable(
  ['projects per team', 'wall time', 'growth', 'the run', 'growth', 'requests', 'growth', 'exit', 'requirements'],
  rows.map((
    r,
  ) => [
    String(r.population),
    `${r.seconds.toFixed(1)} s`,
    factor(r.seconds, base.seconds),
    r.checks === undefined ? 'n/a' : `${r.checks.toFixed(1)} s`,
    factor(r.checks, base.checks),
    String(r.requests ?? 'n/a'),
    factor(r.requests, base.requests),
    String(r.exitCode),
    r.summary,
  ]),
);
for (const r of rows) if (r.stopped) console.log(`  ${r.population}: the run stopped early: ${r.stopped}`);
const last = rows.at(-1)!;
console.log(
  `\nGrowth from ${base.population} to ${last.population} projects per team: wall time ${factor(last.seconds, base.seconds)}, the run ${
    factor(last.checks, base.checks)
  }, requests ${factor(last.requests, base.requests)}.`,
);
