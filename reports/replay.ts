// The commands a report hands a person to reproduce a failure: the run of one check with the
// same seed (and fast-check path), and — after a run against the bundled mock, which is gone
// once the run ends — the lines that start the same mock again: same seed, same port, same
// fault and options. Its keys were random and are never shown; fixed keys take their place, and
// the curl commands read them from the same $CONFORMANCE_API_KEY* variables.

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
}

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

/** `npm start -- …` running the checks of `ids` again with the run's seed (and a fast-check path). */
export function replayCommand(t: ReplayTarget, ids: readonly string[], path: string | null): string | undefined {
  if (t.seed === null || ids.length === 0) return undefined;
  const args = ['--only', ids.join(','), '--seed', String(t.seed), ...(path ? ['--path', path] : [])];
  if (restartable(t)) args.push(...mockFlags(t.mock!));
  return `npm start -- ${args.map(shellWord).join(' ')}`;
}
