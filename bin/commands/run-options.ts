import { resolve } from 'node:path';
import { parseFlags } from '../args.js';

// `conformance run` flags → the CONFORMANCE_* settings of C4 (the harness reads only those).

export const runFlags = {
  config: { type: 'string' },
  only: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  path: { type: 'string' },
  check: { type: 'string' },
  verbose: { type: 'boolean' },
  seed: { type: 'string' },
  'read-only': { type: 'boolean' },
  'report-dir': { type: 'string' },
  fault: { type: 'string' },
  shape: { type: 'string' },
  deprecate: { type: 'string', multiple: true },
  population: { type: 'string' },
  'via-prism': { type: 'boolean' },
  target: { type: 'string' },
  image: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface RunPlan {
  /** Settings to add to the environment of the run. */
  env: Record<string, string>;
  only: string[];
  exclude: string[];
  /** Flags that only make sense against the bundled mock (checked once the target is known). */
  mockFlags: string[];
}

const list = (values: readonly string[] | undefined) => (values ?? []).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);

/** Parses the flags; a usage problem comes back as a message. */
export function planRun(argv: readonly string[], cwd: string): RunPlan | { error: string; } {
  const parsed = parseFlags(argv, runFlags);
  if (!parsed.ok) return { error: parsed.message };
  const v = parsed.values;
  if (parsed.positionals.length > 0) return { error: `unexpected argument '${parsed.positionals[0]}'` };
  const env: Record<string, string> = {};
  const mockFlags: string[] = [];
  if (v.config !== undefined) env.CONFORMANCE_CONFIG = resolve(cwd, v.config);
  const only = list(v.only).map((p) => p.toUpperCase());
  if (only.length > 0) env.CONFORMANCE_ONLY = only.join(',');
  const exclude = list(v.exclude).map((p) => p.toUpperCase());
  if (exclude.length > 0) env.CONFORMANCE_EXCLUDE = exclude.join(',');
  if (v.path !== undefined) {
    // a model-based failure's path carries the replay path of its commands after an @
    if (!/^\d+(:\d+)*(@[A-Za-z0-9+/]*:[A-Za-z0-9+/]*)?$/.test(v.path)) {
      return { error: `--path must be a fast-check path such as 3:1:0 (or 3:1@AB:C for a model-based run), got '${v.path}'` };
    }
    env.CONFORMANCE_REPLAY_PATH = v.path;
  }
  if (v.check !== undefined) env.CONFORMANCE_CHECK = v.check;
  if (v.verbose) env.CONFORMANCE_VERBOSE = '1';
  if (v.seed !== undefined) {
    if (!/^-?\d+$/.test(v.seed)) return { error: `--seed must be an integer, got '${v.seed}'` };
    env.CONFORMANCE_SEED = v.seed;
  }
  if (v['read-only']) env.CONFORMANCE_READ_ONLY = '1';
  if (v['report-dir'] !== undefined) env.CONFORMANCE_REPORT_DIR = resolve(cwd, v['report-dir']);
  if (v.fault !== undefined) {
    env.CONFORMANCE_MOCK_FAULT = v.fault;
    mockFlags.push('--fault');
  }
  if (v.shape !== undefined) {
    if (v.shape !== 'full' && v.shape !== 'legacy') return { error: `--shape must be full or legacy, got '${v.shape}'` };
    env.CONFORMANCE_MOCK_SHAPE = v.shape;
    mockFlags.push('--shape');
  }
  const deprecate = list(v.deprecate);
  if (deprecate.length > 0) {
    env.CONFORMANCE_MOCK_DEPRECATE = deprecate.join(',');
    mockFlags.push('--deprecate');
  }
  if (v.population !== undefined) {
    if (!/^\d+$/.test(v.population) || Number(v.population) < 1) return { error: `--population must be a positive integer, got '${v.population}'` };
    env.CONFORMANCE_MOCK_POPULATION = v.population;
    mockFlags.push('--population');
  }
  if (v['via-prism']) env.CONFORMANCE_VIA_PRISM = '1';
  if (v.target !== undefined) {
    if (v.target !== 'prism-mock' && v.target !== 'bundled-mock') return { error: `--target accepts prism-mock or bundled-mock, got '${v.target}'` };
    env.CONFORMANCE_TARGET = v.target;
  }
  if (v.image !== undefined) env.CONFORMANCE_IMAGE = v.image;
  return { env, only, exclude, mockFlags };
}
