// The commands a report hands a person to reproduce a failure: the run of one check with the
// same seed (and fast-check path) against the same target — the settings file and the non-secret
// settings of the run go along, keys stay in $CONFORMANCE_API_KEY* — writing its report beside the
// one it replays, never over it; and — after a run against the bundled mock, which is gone once
// the run ends — the lines that start the same mock again: same seed, same port, same fault and
// options. Its keys were random and are never shown; fixed keys take their place, and the curl
// commands read them from the same $CONFORMANCE_API_KEY* variables.
import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';

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
  /** How the suite was started: a replay is started the same way. Absent: from a clone. */
  invocation?: Invocation;
  /** The key settings the run had (names only): a container replay passes them on from the shell. */
  keys?: string[];
}

/**
 * How the suite was started: from a clone (`npm start`, `npm run cli -- run`), from the installed
 * package (`npx conformance run`), or as the suite's container image (`docker run <image>`, with
 * the bind mounts the container has, by their host path where /proc shows it).
 */
export type Invocation =
  | { kind: 'clone'; script: 'start' | 'cli'; }
  | { kind: 'package'; }
  | { kind: 'image'; image: string; mounts: { host: string; container: string; }[]; network?: string; };

/** Set in the suite's image (Dockerfile): the image's reference, for the replays it prints. */
export const IMAGE_VARIABLE = 'SUITE_IMAGE_REF';

/** The bind mounts of this container, from /proc/self/mountinfo: host path (the mount's root) and where it is mounted. */
export function containerMounts(mountinfo?: string): { host: string; container: string; }[] {
  let text = mountinfo;
  try {
    text ??= readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));
  return text.split('\n').flatMap((line) => {
    const [left, right] = line.split(' - ');
    const f = left?.split(' ') ?? [];
    const fsType = right?.split(' ')[0] ?? '';
    const [root, point] = [f[3], f[4]];
    if (!root || !point || root === '/' || ['proc', 'sysfs', 'tmpfs', 'devpts', 'mqueue', 'cgroup', 'cgroup2', 'overlay'].includes(fsType)) return [];
    // Docker's own files (resolv.conf, hostname, hosts) are bind mounts too.
    if (/^\/etc\/(resolv\.conf|hostname|hosts)$/.test(point) || root.includes('/containers/')) return [];
    return [{ host: unescape(root), container: unescape(point) }];
  });
}

/** How this process was started, from its environment and where the suite's code is. */
export function invocationOf(env: NodeJS.ProcessEnv, location: string, mounts: () => { host: string; container: string; }[] = containerMounts): Invocation {
  const image = env[IMAGE_VARIABLE];
  if (image) return { kind: 'image', image, mounts: mounts() };
  if (location.includes(`${sep}node_modules${sep}`)) return { kind: 'package' };
  return { kind: 'clone', script: env.npm_lifecycle_event === 'cli' ? 'cli' : 'start' };
}

/** Settings a replay sets itself (--only, --seed, --path, --report-dir) or that are no business of the target. */
const PER_RUN = new Set([
  'CONFORMANCE_CONFIG',
  'CONFORMANCE_ONLY',
  'CONFORMANCE_EXCLUDE',
  'CONFORMANCE_SEED',
  'CONFORMANCE_REPLAY_PATH',
  'CONFORMANCE_CHECK',
  'CONFORMANCE_REPORT_DIR',
  'CONFORMANCE_VERBOSE',
]);
/** Keys never travel in a command: they are read from the same variables when the command runs. */
const SECRET = /API_KEY|TOKEN|SECRET|PASSWORD/i;

/** The replay settings of a run's environment; `cwd` makes the paths short where they can be. */
export function replaySettings(env: NodeJS.ProcessEnv, reportDir: string | undefined, cwd = process.cwd(), invocation?: Invocation): ReplaySettings {
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
  const keys = Object.keys(env).filter((name) => /^CONFORMANCE_API_KEY/.test(name) && env[name]).sort();
  const inImage = invocation?.kind === 'image';
  return {
    // In a container the paths are the container's: they are given as such.
    ...(env.CONFORMANCE_CONFIG ? { config: inImage ? env.CONFORMANCE_CONFIG : shown(env.CONFORMANCE_CONFIG) } : {}),
    environment,
    ...(reportDir ? { reportDir: inImage ? reportDir : shown(reportDir) } : {}),
    ...(invocation && invocation.kind !== 'clone' ? { invocation } : invocation?.kind === 'clone' && invocation.script !== 'start' ? { invocation } : {}),
    ...(keys.length ? { keys } : {}),
  };
}

/** A replay's folder: `again-<cause>`, one per cause. */
const AGAIN = /^again(-|$)/;

/**
 * Where a replay writes: a folder of its own per cause inside the report's folder, never over it;
 * the replays of a replay go beside it (`out/again-C1` → `out/again-C2`), not inside it.
 */
export const replayReportDir = (reportDir: string, cause?: string): string => {
  const name = cause ? `again-${cause}` : 'again';
  return AGAIN.test(basename(reportDir)) ? join(dirname(reportDir), name) : join(reportDir, name);
};

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
    `${keys.map(([variable, [mockVariable]]) => `${mockVariable}=$${variable}`).join(' ')} ${
      t.settings?.invocation && t.settings.invocation.kind !== 'clone' ? 'npx conformance mock' : 'npm run mock --'
    } ${flags} &`,
  ];
}

/** The words that start the suite the way the replayed run was started. */
function starter(t: ReplayTarget, environment: Record<string, string>): { words: string[]; assignments: boolean; } {
  const inv = t.settings?.invocation;
  if (inv?.kind === 'package') return { words: ['npx', 'conformance', 'run'], assignments: true };
  if (inv?.kind === 'clone' && inv.script === 'cli') return { words: ['npm', 'run', 'cli', '--', 'run'], assignments: true };
  if (inv?.kind !== 'image') return { words: ['npm', 'start', '--'], assignments: true };
  const loopback = t.baseUrl !== null && /^https?:\/\/(127\.|localhost|\[::1\])/.test(t.baseUrl);
  const reportDir = t.settings?.reportDir;
  const words = [
    'docker',
    'run',
    '--rm',
    ...(loopback ? ['--network', 'host'] : []),
    ...inv.mounts.flatMap((m) => ['-v', `${m.host}:${m.container}`]),
    // a report folder no mount shows (its host path unknown here) is mounted from the working directory
    ...(reportDir && !inv.mounts.some((m) => reportDir === m.container || reportDir.startsWith(`${m.container}/`)) ? ['-v', `"$PWD/out":${reportDir}`] : []),
    ...(t.settings?.keys ?? ['CONFORMANCE_API_KEY', 'CONFORMANCE_API_KEY_OTHER_TEAM']).flatMap((k) => ['-e', k]),
    ...Object.entries(environment).flatMap(([name, value]) => ['-e', `${name}=${value}`]),
    inv.image,
  ];
  return { words, assignments: false };
}

/**
 * The command running the checks of `ids` again with the run's seed (and a fast-check path),
 * started as the replayed run was (`npm start --` from a clone, `npx conformance run` from the
 * package, `docker run` of the same image with its mounts and settings), against the run's
 * target: its settings file and target settings go along, a bundled mock is asked for outright
 * (keys exported for the mock's curl lines would otherwise refuse the run), and the report goes
 * to a folder of the cause's own beside the replayed one.
 */
export function replayCommand(t: ReplayTarget, ids: readonly string[], path: string | null, cause?: string, check?: string): string | undefined {
  if (t.seed === null || ids.length === 0) return undefined;
  const s = t.settings;
  const environment = { ...s?.environment };
  const mockNamed = Object.keys(environment).some((name) => name === 'CONFORMANCE_TARGET' || name.startsWith('CONFORMANCE_MOCK_'));
  if (s && t.kind === 'bundled-mock' && !s.config && !mockNamed) environment.CONFORMANCE_TARGET = 'bundled-mock';
  const args = [
    ...(s?.config ? ['--config', s.config] : []),
    '--only',
    ids.join(','),
    ...(check ? ['--check', check] : []),
    '--seed',
    String(t.seed),
    ...(path ? ['--path', path] : []),
    ...(s?.reportDir ? ['--report-dir', replayReportDir(s.reportDir, cause)] : []),
  ];
  // A run started from flags alone (the mock's options) carries them only as flags when no environment was read.
  if (!s && restartable(t)) args.push(...mockFlags(t.mock!));
  const start = starter(t, environment);
  const assignments = start.assignments ? Object.entries(environment).map(([name, value]) => `${name}=${shellWord(value)}`) : [];
  return [...assignments, ...start.words.map((w) => (w.startsWith('"') ? w : shellWord(w))), ...args.map(shellWord)].join(' ');
}
