// The bundled mock as a container image, run through the container target, and the suites
// against it as a user runs them. Where no Docker engine answers (see .ci/docker-engine), every
// test here is skipped with the reason, never passed.
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { type ContainerTarget, startContainerTarget } from '../../integrations/container.js';
import { buildMockImage, engineStatus, MOCK_IMAGE } from '../../integrations/docker-engine.js';
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
    await buildMockImage();
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
