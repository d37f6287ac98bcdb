// Resolves the target before any check runs: validates the settings (all errors at once, before
// any request), starts the bundled mock / container / Prism when asked, fixes and prints the
// seed, sets the run context for the reporter and hands the settings to the test workers.
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';
import { requireConfig } from './harness/config.js';
import { setRunContext, type TargetKind } from './harness/run-context.js';
import type { Settings } from './harness/settings.js';
import type { ProvidedTarget } from './harness/target.js';

const OPENAPI = new URL('../specs/openapi.json', import.meta.url).pathname;
const specVersion = (JSON.parse(readFileSync(new URL('../specs/requirements.json', import.meta.url), 'utf8')) as { specVersion: string }).specVersion;

type Stop = () => Promise<void>;
interface Resolved { kind: TargetKind; env: Record<string, string>; stop: Stop }

export default async function setup(project: TestProject): Promise<Stop> {
  const initial = requireConfig(process.env);
  const seed = initial.seed ?? randomInt(0, 2 ** 31 - 1);
  const resolved = await resolveTarget(initial, seed);
  const stops: Stop[] = [resolved.stop];
  try {
    const settings = requireConfig(mergeEnv(resolved.env)) as Settings & { baseUrl: string };
    settings.seed = seed;
    if (settings.viaPrism) {
      const prism = (await import('./harness/integrations/prism.js')) as { startPrismProxy(o: { upstream: string; openapiPath: string }): Promise<{ url: string; stop: Stop }> };
      const proxy = await prism.startPrismProxy({ upstream: settings.baseUrl, openapiPath: OPENAPI });
      stops.unshift(proxy.stop);
      settings.baseUrl = proxy.url;
    }
    const runId = `cfm-${seed.toString(36)}-${randomBytes(3).toString('hex')}`;
    const shape = settings.shape !== 'auto' ? settings.shape : resolved.kind === 'bundled-mock' ? (settings.mock.shape ?? 'full') : undefined;
    setRunContext({
      specVersion,
      target: { kind: resolved.kind, baseUrl: settings.baseUrl, ...(shape ? { shape } : {}), viaPrism: settings.viaPrism, ...(settings.mock.fault && resolved.kind === 'bundled-mock' ? { mockFault: settings.mock.fault } : {}) },
      seed,
      startedAt: new Date().toISOString(),
      settings: resolved.env,
    });
    const provided: ProvidedTarget = { settings, runId, seed, kind: resolved.kind };
    project.provide('conformanceTarget', provided);
    console.log(`[conformance] seed ${seed} (reproduce with CONFORMANCE_SEED=${seed}); target ${resolved.kind} ${settings.baseUrl}${settings.viaPrism ? ' via Prism' : ''}; run id ${runId}`);
  } catch (e) {
    for (const stop of stops) await stop().catch(() => undefined);
    throw e;
  }
  return async () => {
    for (const stop of stops) await stop().catch((e: unknown) => console.warn(`[conformance] teardown: ${String(e)}`));
  };
}

/** The target's own settings win for the address and keys; the user's settings win for everything else. */
function mergeEnv(targetEnv: Record<string, string>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  // Once started, a container or Prism mock is just a base URL; the settings that chose it would now conflict with it.
  delete merged.CONFORMANCE_IMAGE;
  delete merged.CONFORMANCE_TARGET;
  for (const [name, value] of Object.entries(targetEnv)) {
    const targetOwned = name === 'CONFORMANCE_BASE_URL' || name.startsWith('CONFORMANCE_API_KEY');
    if (targetOwned || !process.env[name]) merged[name] = value;
  }
  return merged;
}

async function resolveTarget(s: Settings, seed: number): Promise<Resolved> {
  if (s.target === 'prism-mock') {
    const prism = (await import('./harness/integrations/prism.js')) as { startPrismMock(o: { openapiPath: string }): Promise<{ url: string; stop: Stop }> };
    const mock = await prism.startPrismMock({ openapiPath: OPENAPI });
    // Prism's mock checks only that a bearer header is present; any two distinct tokens do.
    return { kind: 'prism-mock', stop: mock.stop, env: { CONFORMANCE_BASE_URL: mock.url, CONFORMANCE_API_KEY: 'prism-mock-team-a', CONFORMANCE_API_KEY_OTHER_TEAM: 'prism-mock-team-b' } };
  }
  if (s.image) {
    const container = (await import('./harness/integrations/container.js')) as { startContainerTarget(env: NodeJS.ProcessEnv): Promise<{ baseUrl: string; settings: Record<string, string>; stop: Stop }> };
    const c = await container.startContainerTarget(process.env);
    return { kind: 'container', stop: c.stop, env: { ...c.settings, CONFORMANCE_BASE_URL: c.baseUrl } };
  }
  if (!s.baseUrl) {
    // The only place the harness touches the mock: the bundled target, as built in dist/ (rebuilt first when stale).
    const { builtEntry } = await import('../build/run.mjs');
    const { start, parseReadings } = (await import(/* @vite-ignore */ pathToFileURL(await builtEntry('mock')).href)) as { start(o: object): Promise<{ url: string; settings: Record<string, string>; close: Stop }>; parseReadings(s: string): object };
    // CONFORMANCE_MOCK_READINGS=name=value,... : conforming alternatives the bundled mock serves (mock/readings.ts).
    const readings = process.env.CONFORMANCE_MOCK_READINGS ? { readings: parseReadings(process.env.CONFORMANCE_MOCK_READINGS) } : {};
    const mock = await start({ seed, ...(s.mock.shape ? { shape: s.mock.shape } : {}), ...(s.mock.fault ? { fault: s.mock.fault } : {}), ...(s.mock.deprecate.length ? { deprecate: s.mock.deprecate } : {}), ...readings });
    return { kind: 'bundled-mock', stop: mock.close, env: mock.settings };
  }
  return { kind: 'deployment', stop: async () => undefined, env: {} };
}
