// The commands a report hands a person to reproduce a failure: the run of one check with the
// same seed (and fast-check path) against the same target — the settings file and the non-secret
// settings of the run go along, keys stay in $CONFORMANCE_API_KEY* — writing its report beside the
// one it replays, never over it; and — after a run against the bundled mock, which is gone once
// the run ends — the lines that start the same mock again: same seed, same port, same fault and
// options. Its keys were random and are never shown; fixed keys take their place, and the curl
// commands read them from the same $CONFORMANCE_API_KEY* variables.
import { isAbsolute, join, relative } from 'node:path';

/** The bundled mock as the run started it (flags of `conformance mock`). */
export interface MockStart {
  fault?: string;
  shape?: string;
  deprecate: readonly string[];
  readings: readonly string[];
}

export interface ReplayTarget {
  kind: string;
  baseUrl: string | null;
  seed: number | null;
  viaPrism?: boolean;
  /** Present when the target is the bundled mock started in-process. */
  mock?: MockStart;
  /** How the run was pointed at its target: a replay is pointed the same way. */
  settings?: ReplaySettings;
}

/** The settings a replay carries: the run's settings file and its other target settings, keys left out. */
export interface ReplaySettings {
  /** The file named by CONFORMANCE_CONFIG, as the person typed it or relative to the working directory. */
  config?: string;
  /** CONFORMANCE_* settings of the environment that choose or shape the target (no key, nothing per run). */
  environment: Record<string, string>;
  /** Where the replayed run wrote its report; the replay writes beside it. */
  reportDir?: string;
}

/** Settings a replay sets itself (--only, --seed, --path, --report-dir) or that are no business of the target. */
const PER_RUN = new Set([
  'CONFORMANCE_CONFIG',
  'CONFORMANCE_ONLY',
  'CONFORMANCE_EXCLUDE',
  'CONFORMANCE_SEED',
  'CONFORMANCE_REPLAY_PATH',
  'CONFORMANCE_REPORT_DIR',
  'CONFORMANCE_VERBOSE',
]);
/** Keys never travel in a command: they are read from the same variables when the command runs. */
const SECRET = /API_KEY|TOKEN|SECRET|PASSWORD/i;

/** The replay settings of a run's environment; `cwd` makes the paths short where they can be. */
export function replaySettings(env: NodeJS.ProcessEnv, reportDir: string | undefined, cwd = process.cwd()): ReplaySettings {
  const environment: Record<string, string> = {};
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (!name.startsWith('CONFORMANCE_') || PER_RUN.has(name) || SECRET.test(name) || value === undefined || value === '') continue;
    environment[name] = value;
  }
  const shown = (path: string) => {
    const r = relative(cwd, path);
    return r && !r.startsWith('..') && !isAbsolute(r) ? r : path;
  };
  return {
    ...(env.CONFORMANCE_CONFIG ? { config: shown(env.CONFORMANCE_CONFIG) } : {}),
    environment,
    ...(reportDir ? { reportDir: shown(reportDir) } : {}),
  };
}

/** Where a replay writes: beside the report it replays (a folder inside its folder), never over it. */
export const replayReportDir = (reportDir: string): string => join(reportDir, 'again');

/** Fixed keys for a restarted mock: throwaway values, the same on every report. */
export const REPLAY_KEYS = {
  CONFORMANCE_API_KEY: ['MOCK_API_KEY_TEAM_A', 'replay-team-a'],
  CONFORMANCE_API_KEY_OTHER_TEAM: ['MOCK_API_KEY_TEAM_B', 'replay-team-b'],
  CONFORMANCE_API_KEY_READ_ONLY: ['MOCK_API_KEY_READ_ONLY', 'replay-read-only'],
  CONFORMANCE_API_KEY_NO_API_ACCESS: ['MOCK_API_KEY_NO_API_ACCESS', 'replay-no-api-access'],
} as const;

const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

const restartable = (t: ReplayTarget) => t.kind === 'bundled-mock' && t.mock !== undefined && !t.viaPrism && t.baseUrl !== null;

function mockFlags(m: MockStart): string[] {
  return [
    ...(m.fault ? ['--fault', m.fault] : []),
    ...(m.shape ? ['--shape', m.shape] : []),
    ...(m.deprecate.length ? ['--deprecate', m.deprecate.join(',')] : []),
    ...m.readings.flatMap((r) => ['--reading', r]),
  ];
}

/** The shell lines that start the same mock in the background, or undefined for any other target. */
export function mockStartLines(t: ReplayTarget): string[] | undefined {
  if (!restartable(t) || t.seed === null) return undefined;
  const port = new URL(t.baseUrl!).port;
  const keys = Object.entries(REPLAY_KEYS);
  const flags = ['--port', port, '--seed', String(t.seed), ...mockFlags(t.mock!)].map(shellWord).join(' ');
  return [
    `export ${keys.map(([variable, [, value]]) => `${variable}=${value}`).join(' ')}`,
    `${keys.map(([variable, [mockVariable]]) => `${mockVariable}=$${variable}`).join(' ')} npm run mock -- ${flags} &`,
  ];
}

/**
 * `npm start -- …` running the checks of `ids` again with the run's seed (and a fast-check path),
 * against the run's target: its settings file and target settings go along, a bundled mock is
 * asked for outright (keys exported for the mock's curl lines would otherwise refuse the run), and
 * the report goes beside the replayed one.
 */
export function replayCommand(t: ReplayTarget, ids: readonly string[], path: string | null): string | undefined {
  if (t.seed === null || ids.length === 0) return undefined;
  const s = t.settings;
  const environment = { ...s?.environment };
  const mockNamed = Object.keys(environment).some((name) => name === 'CONFORMANCE_TARGET' || name.startsWith('CONFORMANCE_MOCK_'));
  if (s && t.kind === 'bundled-mock' && !s.config && !mockNamed) environment.CONFORMANCE_TARGET = 'bundled-mock';
  const args = [
    ...(s?.config ? ['--config', s.config] : []),
    '--only',
    ids.join(','),
    '--seed',
    String(t.seed),
    ...(path ? ['--path', path] : []),
    ...(s?.reportDir ? ['--report-dir', replayReportDir(s.reportDir)] : []),
  ];
  // A run started from flags alone (the mock's options) carries them only as flags when no environment was read.
  if (!s && restartable(t)) args.push(...mockFlags(t.mock!));
  const assignments = Object.entries(environment).map(([name, value]) => `${name}=${shellWord(value)}`);
  return [...assignments, 'npm start --', ...args.map(shellWord)].join(' ');
}
