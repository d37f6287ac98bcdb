// Runs the conformance suites as a child process (exactly as a user would) and reads the report.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The settings of every self-test run, and of the mutation benchmark's runs (bench/mutation/):
 * a fixed seed, and one operation deprecated so that the deprecation checks have something to check.
 */
export const selfTestSettings = { CONFORMANCE_MOCK_DEPRECATE: 'listCvs', CONFORMANCE_SEED: '20240601' } as const satisfies Record<string, string>;

export interface RunOutcome {
  exitCode: number | null;
  requirements: { id: string; status: string; causes?: string[]; }[];
  /** The report's root causes (conformance.json causes). */
  causes?: { id: string; message: string; failed: string[]; blocked: string[]; seenIn?: string[]; failure: { excerpt?: string; }; }[];
  /** Every check of the run by name, with its status (passed, failed, skipped). */
  checks: Map<string, string>;
  summary?: { passed: number; failed: number; skipped: number; };
  /** The readings the checks observed (conformance.json target.readings). */
  readings?: Record<string, string>;
  /** Names of the warnings the checks raised (conformance.json target.warnings). */
  warnings?: string[];
  /** The kind of target the run resolved (conformance.json target.kind), e.g. bundled-mock or container. */
  targetKind?: string;
  output: string;
}

/** The parent's environment without anything that would leak into the child's run. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('CONFORMANCE_') || k.startsWith('VITEST') || k === 'NODE_OPTIONS' || k === 'TEST') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export async function runConformance(settings: Record<string, string>, timeoutMs = 120_000): Promise<RunOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-self-'));
  try {
    const child = spawn(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'suites/conformance.config.ts'], {
      cwd: root,
      env: cleanEnv({ ...settings, CONFORMANCE_REPORT_DIR: dir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-20_000);
    });
    child.stderr.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-20_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    let report: {
      requirements?: { id: string; status: string; causes?: string[]; checks?: { name: string; status: string; }[]; }[];
      causes?: RunOutcome['causes'];
      summary?: RunOutcome['summary'];
      target?: { kind?: string; readings?: Record<string, string>; warnings?: { name: string; }[]; };
    } = {};
    try {
      report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    } catch {
      report = {};
    }
    const checks = new Map((report.requirements ?? []).flatMap((r) => r.checks ?? []).map((c) => [c.name, c.status] as const));
    return {
      exitCode,
      requirements: report.requirements ?? [],
      ...(report.causes ? { causes: report.causes } : {}),
      checks,
      summary: report.summary,
      readings: report.target?.readings,
      warnings: report.target?.warnings?.map((w) => w.name),
      targetKind: report.target?.kind,
      output,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs fn over items, at most `limit` at a time, keeping the order of results. */
export async function pooled<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Runs the checks each fault's requirements select against a mock with that fault, in one process
 * (suites/self/sweep.ts); `spec` is a fault name, with `@legacy` for the legacy shape.
 */
export async function runFaultSweep(specs: readonly string[], settings: Record<string, string>, timeoutMs = 600_000): Promise<Map<string, RunOutcome>> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-sweep-'));
  const out = join(dir, 'sweep.json');
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'suites/self/sweep.ts'), out, ...specs], {
      cwd: root,
      env: cleanEnv(settings),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (d: Buffer) => {
      output = (output + d.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    let outcomes: { fault: string; requirements: { id: string; status: string; }[]; checks: [string, string][]; error?: string; }[] = [];
    try {
      outcomes = JSON.parse(readFileSync(out, 'utf8'));
    } catch {
      outcomes = [];
    }
    return new Map(specs.map((spec) => {
      const o = outcomes.find((x) => x.fault === spec);
      return [spec, { exitCode, requirements: o?.requirements ?? [], checks: new Map(o?.checks ?? []), output: o?.error ?? (o ? '' : output) }];
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
