// Whether a Docker engine answers here, and building the mock's image.
// `.ci/docker-engine` installs and starts the engine and builds the base image;
// where it could not, `engineStatus()` says why and the container tests skip.
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BASE_IMAGE = 'conformance-node-base:local';
export const MOCK_IMAGE = 'conformance-mock:local';
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

/** Builds the mock's image from the repository's Dockerfile; rejects with the build output tail. */
export function buildMockImage(tag = MOCK_IMAGE, timeoutMs = 300_000): Promise<void> {
  return new Promise((resolve, reject) => {
    // DOCKER_BUILDKIT=0: the classic builder ships with every engine and uses the local base image as is.
    const child = spawn('docker', ['build', '-q', '-t', tag, '.'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DOCKER_BUILDKIT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) {
        // The previous build of the tag is left dangling; it carries the Dockerfile's label.
        execFile('docker', ['image', 'prune', '-f', '--filter', 'label=conformance.image=mock'], () => resolve());
      } else reject(new Error(`docker build of ${tag} failed (exit ${code}):\n${output}`));
    });
  });
}
