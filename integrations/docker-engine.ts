// Whether a Docker engine answers here, and building the images of the repository's Dockerfile.
// `.ci/docker-engine` installs and starts the engine and builds the base image;
// where it could not, `engineStatus()` says why and the container tests skip.
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BASE_IMAGE = 'conformance-node-base:local';
export const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));

export type EngineStatus = { ok: true; version: string; } | { ok: false; reason: string; };

function run(command: string, args: string[], timeoutMs: number): Promise<{ code: number; out: string; }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, cwd: PROJECT_ROOT }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      // A missing command has no output of its own: say what happened instead.
      const out = `${stdout}${stderr}`.trim() || (error ? error.message : '');
      resolve({ code, out });
    });
  });
}

export async function engineStatus(): Promise<EngineStatus> {
  const info = await run('docker', ['info', '--format', '{{.ServerVersion}}'], 15_000);
  if (info.code !== 0) {
    const why = info.out.split('\n').find((line) => line.trim()) ?? `exit code ${info.code}`;
    return { ok: false, reason: `no Docker engine (docker info: ${why}); run .ci/docker-engine to install and start one` };
  }
  const base = await run('docker', ['image', 'inspect', BASE_IMAGE], 15_000);
  if (base.code !== 0) {
    return { ok: false, reason: `base image ${BASE_IMAGE} missing; run integrations/build-base-image.sh` };
  }
  return { ok: true, version: info.out };
}

/** The images of the repository's Dockerfile, by stage: the package both others are made of, the suite, the mock. */
export const IMAGES = {
  package: 'conformance-package:local',
  suite: 'conformance-suite:local',
  mock: 'conformance-mock:local',
} as const;
export type ImageTarget = keyof typeof IMAGES;
export const MOCK_IMAGE = IMAGES.mock;
export const SUITE_IMAGE = IMAGES.suite;

/** Runs a command in the project; rejects with the tail of its output. */
function build(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${output}`));
    });
  });
}

/**
 * Builds one image of the repository's Dockerfile (`docker build --target <stage>`), after bringing
 * the base image up to date (integrations/build-base-image.sh: nothing to do when it is current).
 * The package stage is tagged too, so that the other image's build finds it in the cache and a
 * rebuild leaves only superseded images dangling, which are then removed (by the stages' labels).
 */
export async function buildImage(target: Exclude<ImageTarget, 'package'>, timeoutMs = 300_000): Promise<void> {
  await build('bash', ['integrations/build-base-image.sh'], process.env, timeoutMs);
  // DOCKER_BUILDKIT=0: the classic builder ships with every engine and uses the local base image as is.
  const env = { ...process.env, DOCKER_BUILDKIT: '0' };
  for (const stage of ['package', target] as const) {
    await build('docker', ['build', '-q', '--target', stage, '-t', IMAGES[stage], '.'], env, timeoutMs);
    await run('docker', ['image', 'prune', '-f', '--filter', `label=conformance.image=${stage}`], 60_000);
  }
}
