// A container image as the conformance target (CONFORMANCE_IMAGE), started with
// testcontainers. Settings (documented defaults):
//   CONFORMANCE_IMAGE        image to run (required)
//   CONFORMANCE_IMAGE_PORT   the port the image serves HTTP on (default 4010)
//   CONFORMANCE_IMAGE_ENV    extra environment for the container, `K=V;K=V` (default none)
// Keys: when CONFORMANCE_API_KEY is set, the caller's keys are used as given (an
// implementation's image configured through CONFORMANCE_IMAGE_ENV). Otherwise the
// image is taken to follow the bundled mock's convention: three random keys are
// generated here and passed as MOCK_API_KEY_TEAM_A / _TEAM_B / _READ_ONLY.
// The other settings (paths, sort fields) are read from the CONFORMANCE_*=value
// lines the image prints on start, unless the caller set them.
// The published port is bound on the host's 127.0.0.1 only, so the engine must be
// local (a unix socket, the default).
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface ContainerTarget {
  baseUrl: string;
  settings: Record<string, string>;
  /** Docker's id of the running container. */
  containerId: string;
  stop(): Promise<void>;
}

type Env = Record<string, string | undefined>;

export const DEFAULT_IMAGE_PORT = 4010;
const STARTUP_TIMEOUT_MS = 120_000;
/** How long to wait for the settings lines once the container answers HTTP. */
const SETTINGS_GRACE_MS = 2_000;
const READINESS_PATH = '/api/public/v1/projects';
/** Bound on a bundled-mock container's life: longer than any run (CI allows 90 minutes). */
const BUNDLED_MOCK_LIFETIME_SECONDS = 2 * 60 * 60;

export function parseImageEnv(value: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of (value ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    env[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return env;
}

/** `CONFORMANCE_X=value` lines (optionally `export`-prefixed or quoted) from a log. */
export function parseSettingsLog(log: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const match of log.matchAll(/^\s*(?:export\s+)?(CONFORMANCE_[A-Z0-9_]+)=(.*)$/gm)) {
    const name = match[1] as string;
    settings[name] = (match[2] as string).trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return settings;
}

function keysFor(env: Env): { settings: Record<string, string>; containerEnv: Record<string, string>; } {
  if (env.CONFORMANCE_API_KEY) return { settings: {}, containerEnv: {} };
  const key = () => `ck_${randomBytes(24).toString('base64url')}`;
  const teamA = key();
  const teamB = key();
  const readOnly = key();
  return {
    settings: {
      CONFORMANCE_API_KEY: teamA,
      CONFORMANCE_API_KEY_OTHER_TEAM: teamB,
      CONFORMANCE_API_KEY_READ_ONLY: readOnly,
    },
    containerEnv: {
      MOCK_API_KEY_TEAM_A: teamA,
      MOCK_API_KEY_TEAM_B: teamB,
      MOCK_API_KEY_READ_ONLY: readOnly,
      // A run killed before its teardown leaves no container behind for longer than this.
      MOCK_LIFETIME_SECONDS: String(BUNDLED_MOCK_LIFETIME_SECONDS),
    },
  };
}

function callerSettings(env: Env): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (/^CONFORMANCE_(API_KEY|PATH_|SORT_FIELDS)/.test(name) && value) picked[name] = value;
  }
  return picked;
}

export async function startContainerTarget(env: Env = process.env): Promise<ContainerTarget> {
  const image = env.CONFORMANCE_IMAGE;
  if (!image) throw new Error('CONFORMANCE_IMAGE is not set');
  const port = Number(env.CONFORMANCE_IMAGE_PORT ?? DEFAULT_IMAGE_PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`CONFORMANCE_IMAGE_PORT is not a port: ${env.CONFORMANCE_IMAGE_PORT}`);

  // Ryuk (the reaper) is pulled from a registry; containers are stopped by stop() instead.
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  // The port is published on the host's loopback only, so that is where it is reached.
  // (testcontainers otherwise takes the bridge gateway wherever /.dockerenv exists,
  // as on sandboxed machines, and waits on an address the binding does not serve.)
  process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  const { Wait } = await import('testcontainers');
  const { LoopbackContainer } = await import('./loopback-container.js');

  const keys = keysFor(env);
  let log = '';
  const starting = new LoopbackContainer(image)
    .withLoopbackPort(port)
    .withEnvironment({ ...keys.containerEnv, ...parseImageEnv(env.CONFORMANCE_IMAGE_ENV) })
    .withLogConsumer((stream: Readable) => {
      stream.on('data', (chunk: Buffer | string) => {
        log = (log + chunk.toString()).slice(-64_000);
      });
    })
    .withWaitStrategy(Wait.forHttp(READINESS_PATH, port).forStatusCodeMatching(() => true))
    .withStartupTimeout(STARTUP_TIMEOUT_MS);
  const container = await starting.start().catch((error: unknown) => {
    throw new Error(`container ${image} did not become ready: ${String(error)}\ncontainer log (tail):\n${log.slice(-2_000)}`);
  });

  const baseUrl = `http://127.0.0.1:${container.getMappedPort(port)}`;
  const deadline = Date.now() + SETTINGS_GRACE_MS;
  while (!/CONFORMANCE_PATH_/.test(log) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

  const fromLog = parseSettingsLog(log);
  delete fromLog.CONFORMANCE_BASE_URL; // the container's own view; the host sees the mapped port
  const settings = { ...fromLog, ...keys.settings, ...callerSettings(env), CONFORMANCE_BASE_URL: baseUrl };
  return {
    baseUrl,
    settings,
    containerId: container.getId(),
    stop: async () => {
      await container.stop({ timeout: 5_000, remove: true });
    },
  };
}
