// Runs the conformance suites in a child process (as `npm start` would, through
// suites/conformance.config.ts) and reads the conformance.json it writes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './docker-engine.js';

export interface ReportSummary {
  target: { kind: string; baseUrl: string };
  summary: { passed: number; failed: number; skipped: number; notTestable: number };
  requirements: { id: string; status: string; reason?: string; failures?: { message?: string }[] }[];
}

export interface SuiteRun {
  exitCode: number | null;
  output: string;
  report: ReportSummary | undefined;
}

/** Target settings of the calling environment that would override the run's own target. */
const TARGET_VARIABLES = /^CONFORMANCE_(BASE_URL|API_KEY|CONFIG|IMAGE|TARGET|VIA_PRISM|MOCK_|PATH_|SORT_FIELDS|ONLY|REPORT_DIR)/;

export async function runSuites(env: Record<string, string>, timeoutMs = 300_000): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !TARGET_VARIABLES.test(name)));
  // VITEST* variables of this (outer) test run would make the inner run think it is a worker.
  for (const name of Object.keys(base)) if (name.startsWith('VITEST') || name === 'TEST') delete base[name];
  const vitest = join(PROJECT_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', '--config', 'suites/conformance.config.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...base, ...env, CONFORMANCE_REPORT_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), timeoutMs);
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  let report: ReportSummary | undefined;
  try {
    report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ReportSummary;
  } catch {
    report = undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { exitCode, output, report };
}
