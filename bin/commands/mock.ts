// The `mock` command: starts the reference mock in the foreground, prints the
// CONFORMANCE_* settings as `export NAME=value` lines, and stops on SIGINT/SIGTERM.
import { failureModes, faults, isFaultName, type MockOptions, MockOptionsError, parseReadings, ReadingError, readings, start } from '../../mock/index.js';
import { parseFlags, unknownValue, usageError } from '../args.js';

export const mockHelp = `Usage: conformance mock [options]

Starts the reference mock of the Public API v1 on 127.0.0.1 and prints the
CONFORMANCE_* settings that point the suite at it.

Options:
  --port N           port to listen on (default 4010; 0 picks a free port)
  --host HOST        only 127.0.0.1 is allowed (default 127.0.0.1)
  --shape S          full | legacy: project/organization shape (default full)
  --fault NAME       switch on one non-conformance (see --list-faults)
  --reading N=V      serve another conforming reading of an open point (repeatable; see --list-readings)
  --deprecate LIST   comma-separated operationIds or 'METHOD /path' to mark deprecated
  --seed N           seed number of the fixture data (default 1)
  --population N     N projects, organizations and assignments per team, one employee per ten
                     (default: the small seed of 55 projects per team)
  --data-dir DIR     directory of the encrypted blob store (default: a temp dir removed at exit)
  --extra-fields     add unknown fields to every resource (clients must ignore them)
  --request-timeout MS  longest time to receive a whole request, head and body (default 120000);
                     then 408 request_timeout
  --body-timeout MS  longest pause between two chunks of a request body (default 30000);
                     then 408 request_timeout
  --download-idle-timeout MS  longest a download waits for its client to read (default 30000);
                     then the download ends and the connection closes
  --list-faults      print each fault with the requirement ids it violates, then exit
  --list-readings    print each reading with its values (default first) and why it conforms, then exit
  --help             print this help

Keys come from MOCK_API_KEY_TEAM_A, MOCK_API_KEY_TEAM_B, MOCK_API_KEY_READ_ONLY and
MOCK_API_KEY_NO_API_ACCESS when set; otherwise they are random per start.
`;

class UsageError extends Error {}

/** The mock's flags, parsed by the command line's one parser (bin/args.ts); defaults as in the help. */
export const mockFlags = {
  port: { type: 'string', default: '4010' },
  host: { type: 'string', default: '127.0.0.1' },
  shape: { type: 'string', default: 'full' },
  fault: { type: 'string' },
  reading: { type: 'string', multiple: true },
  deprecate: { type: 'string' },
  seed: { type: 'string', default: '1' },
  population: { type: 'string' },
  'data-dir': { type: 'string' },
  'extra-fields': { type: 'boolean', default: false },
  'request-timeout': { type: 'string' },
  'body-timeout': { type: 'string' },
  'download-idle-timeout': { type: 'string' },
  'list-faults': { type: 'boolean', default: false },
  'list-readings': { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

function toOptions(argv: string[], env: NodeJS.ProcessEnv): MockOptions & { listFaults: boolean; listReadings: boolean; help: boolean; } {
  const parsed = parseFlags(argv, mockFlags, false);
  if (!parsed.ok) throw new UsageError(parsed.message);
  const { values } = parsed;
  const int = (name: string, v: string) => {
    if (!/^[0-9]+$/.test(v)) throw new UsageError(`--${name} must be a non-negative integer (got ${JSON.stringify(v)})`);
    return Number(v);
  };
  if (values.host !== '127.0.0.1') throw new UsageError(`--host must be 127.0.0.1 (got ${JSON.stringify(values.host)})`);
  if (values.shape !== 'full' && values.shape !== 'legacy') throw new UsageError(`--shape must be full or legacy (got ${JSON.stringify(values.shape)})`);
  if (values.fault !== undefined && !isFaultName(values.fault)) {
    throw new UsageError(`${unknownValue('fault', values.fault, faults.map((f) => f.name))}; list them with --list-faults`);
  }
  let chosen: MockOptions['readings'];
  try {
    chosen = parseReadings(values.reading ?? []);
  } catch (err) {
    if (err instanceof ReadingError) throw new UsageError(`--reading: ${err.message} (see --list-readings)`);
    throw err;
  }
  const port = int('port', values.port);
  if (port > 65535) throw new UsageError('--port must be at most 65535');
  return {
    port,
    host: '127.0.0.1',
    shape: values.shape,
    fault: values.fault,
    deprecate: values.deprecate ? values.deprecate.split(',').map((s) => s.trim()).filter(Boolean) : [],
    seed: int('seed', values.seed),
    ...(values.population !== undefined ? { population: int('population', values.population) } : {}),
    ...(values['request-timeout'] !== undefined ? { requestTimeoutMs: int('request-timeout', values['request-timeout']) } : {}),
    ...(values['body-timeout'] !== undefined ? { bodyTimeoutMs: int('body-timeout', values['body-timeout']) } : {}),
    ...(values['download-idle-timeout'] !== undefined ? { downloadIdleTimeoutMs: int('download-idle-timeout', values['download-idle-timeout']) } : {}),
    dataDir: values['data-dir'],
    extraFields: values['extra-fields'],
    readings: chosen,
    keys: {
      teamA: env.MOCK_API_KEY_TEAM_A || undefined,
      teamB: env.MOCK_API_KEY_TEAM_B || undefined,
      readOnly: env.MOCK_API_KEY_READ_ONLY || undefined,
      noApiAccess: env.MOCK_API_KEY_NO_API_ACCESS || undefined,
    },
    listFaults: values['list-faults'],
    listReadings: values['list-readings'],
    help: values.help,
  };
}

/** `export NAME='value'` with the value single-quoted for POSIX shells. */
export const exportLine = (name: string, value: string): string => `export ${name}='${value.replace(/'/g, `'\\''`)}'`;

export function faultsListing(): string {
  const width = Math.max(...faults.map((f) => f.name.length));
  const line = (f: { name: string; requirements: readonly string[]; description: string; }) =>
    `${f.name.padEnd(width)}  ${f.requirements.join(', ')}\n${' '.repeat(width + 2)}${f.description}`;
  const modes = failureModes();
  return [
    ...faults.map(line),
    `\nfailure modes (${modes.length}: mode:<category>:<mode>:<element>; measured by npm run failure-modes, not proven one by one)`,
    ...modes.map(line),
  ].join('\n');
}

export function readingsListing(): string {
  return readings.map((r) => `${r.name}=${r.values.join('|')}\n  ${r.why}`).join('\n');
}

/** Runs the mock until SIGINT/SIGTERM; resolves with the exit code (2 for usage errors). */
export async function runMock(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let opts: ReturnType<typeof toOptions>;
  try {
    opts = toOptions(argv, env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return usageError('mock', err.message, 'mock');
  }
  if (opts.help) {
    process.stdout.write(mockHelp);
    return 0;
  }
  if (opts.listFaults) {
    process.stdout.write(`${faultsListing()}\n`);
    return 0;
  }
  if (opts.listReadings) {
    process.stdout.write(`${readingsListing()}\n`);
    return 0;
  }
  const { listFaults: _l, listReadings: _r, help: _h, ...options } = opts;
  let mock: Awaited<ReturnType<typeof start>>;
  try {
    mock = await start(options);
  } catch (err) {
    const usage = err instanceof MockOptionsError || /^Unknown fault|no operation matches/.test((err as Error).message);
    process.stderr.write(`mock: ${(err as Error).message}\n`);
    return usage ? 2 : 1;
  }
  process.stdout.write(
    `# Reference mock listening on ${mock.url} (shape ${options.shape}${options.fault ? `, fault ${options.fault}` : ''}${
      Object.keys(options.readings ?? {}).length ? `, readings ${Object.entries(options.readings!).map(([k, v]) => `${k}=${v}`).join(',')}` : ''
    })\n`,
  );
  for (const [k, v] of Object.entries(mock.settings)) process.stdout.write(`${exportLine(k, v)}\n`);
  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stderr.write(`mock: ${signal}, stopping\n`);
      mock.close().then(() => resolve(0), () => resolve(1));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
