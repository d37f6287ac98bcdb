// The images of the repository's Dockerfile as users run them: the bundled mock's, through the
// container target and with the suites against it; the suite's, against the mock's image as an
// implementer's CI runs it against their service. Where no Docker engine answers (see
// .ci/docker-engine), every test here is skipped with the reason, never passed.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { type ContainerTarget, startContainerTarget } from '../../integrations/container.js';
import { buildImage, engineStatus, MOCK_IMAGE, SUITE_IMAGE } from '../../integrations/docker-engine.js';
import { runConformance } from './runner.js';

const engine = await engineStatus();
const skipReason = engine.ok ? undefined : engine.reason;
if (skipReason) console.warn(`container tests skipped: ${skipReason}`);

/** A small set that touches listing, reading, cursors, errors and auth. */
const REPRESENTATIVE = ['EP-PROJECTS-LIST', 'EP-PROJECTS-GET', 'LIST-CURSOR-UNDECODABLE', 'ISO-GET-MISSING-404', 'RES-PAGE-ENVELOPE'];

describe.sequential('the mock image through the container target', () => {
  let built = false;

  test('the image builds from the repository Dockerfile', { timeout: 600_000 }, async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    await buildImage('mock');
    built = true;
  });

  test('the container answers on 127.0.0.1 only, with the keys the harness generated', { timeout: 180_000 }, async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    expect(built, 'image build failed').toBe(true);
    let target: ContainerTarget | undefined;
    try {
      target = await startContainerTarget({ CONFORMANCE_IMAGE: MOCK_IMAGE });
      const { baseUrl, settings } = target;
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(settings.CONFORMANCE_API_KEY).toBeTruthy();
      expect(Object.keys(settings).some((name) => name.startsWith('CONFORMANCE_PATH_'))).toBe(true);

      const withKey = await fetch(`${baseUrl}/api/public/v1/projects?limit=1`, {
        headers: { authorization: `Bearer ${settings.CONFORMANCE_API_KEY}` },
      });
      expect(withKey.status).toBe(200);
      const withoutKey = await fetch(`${baseUrl}/api/public/v1/projects?limit=1`);
      expect(withoutKey.status).toBeGreaterThanOrEqual(400);

      const bindings = JSON.parse(
        execFileSync('docker', ['inspect', '--format', '{{json .HostConfig.PortBindings}}', target.containerId], { encoding: 'utf8' }),
      ) as Record<string, { HostIp: string; }[]>;
      expect(Object.values(bindings).flat().map((b) => b.HostIp)).toEqual(['127.0.0.1']);
    } finally {
      await target?.stop();
    }
  });

  test('the suites pass against the image (representative requirements)', { timeout: 420_000 }, async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    expect(built, 'image build failed').toBe(true);
    const run = await runConformance({ CONFORMANCE_IMAGE: MOCK_IMAGE, CONFORMANCE_ONLY: REPRESENTATIVE.join(',') }, 300_000);
    expect(run.requirements.length, `no conformance.json; output:\n${run.output}`).toBeGreaterThan(0);
    expect(run.targetKind, run.output.slice(-3_000)).toBe('container');
    const statuses = Object.fromEntries(run.requirements.filter((r) => REPRESENTATIVE.includes(r.id)).map((r) => [r.id, r.status]));
    expect(statuses).toEqual(Object.fromEntries(REPRESENTATIVE.map((id) => [id, 'passed'])));
    expect(run.summary?.failed, run.output).toBe(0);
    expect(run.exitCode).toBe(0);
  });
});

/** `docker run --rm` of the suite image (arguments before and after the image), its exit code and output. */
function runSuiteImage(dockerArgs: string[], runArgs: string[] = [], timeoutMs = 300_000, onOutput?: (text: string) => void) {
  return new Promise<{ exitCode: number | null; output: string; }>((resolve) => {
    const child = spawn('docker', ['run', '--rm', ...dockerArgs, SUITE_IMAGE, ...runArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (d: Buffer) => {
      output = (output + d.toString()).slice(-20_000);
      onOutput?.(output);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}

/** A folder for the run's reports that the image's user (not the caller) may write. */
function reportFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-image-out-'));
  chmodSync(dir, 0o777);
  return dir;
}

const readReport = (path: string) =>
  JSON.parse(readFileSync(path, 'utf8')) as {
    summary: { failed: number; passed: number; };
    target: { kind: string; };
    requirements: { id: string; status: string; }[];
  };

// The suite as implementers run it in CI: the image on the host's network, pointed at a service
// published on the host's loopback (here the mock's image), reports in a mounted folder.
describe.sequential('the suite image against the mock image', () => {
  let built = false;
  let mock: ContainerTarget | undefined;
  const folders: string[] = [];
  afterAll(async () => {
    await mock?.stop();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });
  /** The mock image's address and keys, as CONFORMANCE_* arguments of `docker run`. */
  const targetEnv = () => Object.entries(mock!.settings).flatMap(([name, value]) => ['-e', `${name}=${value}`]);

  test('the suite image builds from the repository Dockerfile', { timeout: 600_000 }, async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    await buildImage('suite');
    built = true;
    const user = execFileSync('docker', ['image', 'inspect', '--format', '{{.Config.User}}', SUITE_IMAGE], { encoding: 'utf8' }).trim();
    expect(user).not.toMatch(/^(|0|root)$/);
  });

  test('a run against the mock image passes and writes its reports to the mounted folder', { timeout: 420_000 }, async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    expect(built, 'image build failed').toBe(true);
    mock = await startContainerTarget({ CONFORMANCE_IMAGE: MOCK_IMAGE });
    const out = reportFolder();
    folders.push(out);
    const run = await runSuiteImage(['--network', 'host', '-v', `${out}:/out`, ...targetEnv()]);
    expect(run.exitCode, run.output.slice(-3_000)).toBe(0);
    const report = readReport(join(out, 'conformance.json'));
    expect(report.target.kind).toBe('deployment');
    expect(report.summary.failed).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(0);
    expect(readdirSync(out).sort()).toEqual(['conformance.json', 'index.html', 'junit.xml']);
  });

  test('settings from a mounted file; a failed requirement exits 1', { timeout: 300_000 }, async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    expect(built, 'image build failed').toBe(true);
    // The image's own bundled mock, with a fault: every setting, the report folder included, from the file.
    const out = reportFolder();
    folders.push(out);
    writeFileSync(
      join(out, 'settings.json'),
      JSON.stringify({ CONFORMANCE_ONLY: 'LIST-CURSOR-UNDECODABLE', CONFORMANCE_MOCK_FAULT: 'cursor-tampered-5xx', CONFORMANCE_REPORT_DIR: '/out/from-file' }),
    );
    const run = await runSuiteImage(['-v', `${out}:/out`, '-e', 'CONFORMANCE_CONFIG=/out/settings.json']);
    expect(run.exitCode, run.output.slice(-3_000)).toBe(1);
    const report = readReport(join(out, 'from-file', 'conformance.json'));
    expect(report.target.kind).toBe('bundled-mock');
    expect(report.requirements.find((r) => r.id === 'LIST-CURSOR-UNDECODABLE')?.status).toBe('failed');
  });

  test('a misconfiguration exits 2 before any request', { timeout: 120_000 }, async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    expect(built, 'image build failed').toBe(true);
    const run = await runSuiteImage(['--network', 'host', '-e', 'CONFORMANCE_BASE_URL=http://127.0.0.1:9']);
    expect(run.exitCode, run.output).toBe(2);
    // one line naming the setting, its code last (contract/config.ts configErrorLine)
    expect(run.output).toMatch(/^conformance run: CONFORMANCE_API_KEY: .*\[missing_setting\]$/m);
  });

  test('docker stop interrupts the run: it cleans up, writes the report and exits 130', { timeout: 300_000 }, async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    expect(built && mock !== undefined, 'image build or mock start failed').toBe(true);
    const out = reportFolder();
    folders.push(out);
    const name = `conformance-suite-stop-${process.pid}`;
    let stopping: Promise<unknown> | undefined;
    const run = await runSuiteImage(['--name', name, '--network', 'host', '-v', `${out}:/out`, ...targetEnv()], [], 300_000, (output) => {
      // Once the first suite file has finished: checks have run and records may need cleaning up.
      if (!stopping && /requirements checked/.test(output)) {
        stopping = new Promise((resolve) => execFile('docker', ['stop', '--time', '60', name], resolve));
      }
    });
    await stopping;
    expect(run.exitCode, run.output.slice(-3_000)).toBe(130);
    expect(run.output).toMatch(/interrupted by SIGTERM/);
    expect(readReport(join(out, 'conformance.json')).summary).toBeDefined();
  });
});
