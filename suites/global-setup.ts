// Resolves the target before any check runs: validates the settings (all errors at once, before
// any request), starts the bundled mock / container / Prism when asked, runs the preflight (is the
// target there, are the keys right), fixes and prints the seed, writes the run context (held by the
// run's vitest, contract/run.ts: the reporter and `conformance run` read it) and hands the settings
// to the test workers. A target that does not start, or fails the preflight, is recorded in the run
// context (the report says so) and ends the run.
import { randomBytes, randomInt } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';
import { requireConfig } from '../contract/config.js';
import { runContext, type RunHolder, stopRun, type TargetKind, updateRunContext } from '../contract/run.js';
import type { Settings } from '../contract/settings.js';
import { specVersion } from '../specs/version.js';
import { targetTable } from './harness/plan/table.js';
import { bundledScratchProjects, preflight, preflightLine } from './harness/preflight.js';
import type { ProvidedTarget } from './harness/run/target.js';

const OPENAPI = new URL('../specs/openapi.json', import.meta.url).pathname;

type Stop = () => Promise<void>;
interface Resolved {
  kind: TargetKind;
  env: Record<string, string>;
  stop: Stop;
}

/** An error vitest prints as its message only: the run context already says what happened. */
function quiet(message: string): Error {
  const e = new Error(message);
  e.stack = message;
  return e;
}

const firstLine = (s: string) => s.split('\n')[0] ?? s;

export default async function setup(project: TestProject): Promise<Stop> {
  const initial = requireConfig(process.env);
  const seed = initial.seed ?? randomInt(0, 2 ** 31 - 1);
  const runId = `cfm-${seed.toString(36)}-${randomBytes(3).toString('hex')}`;
  const journal = join(tmpdir(), `conformance-${runId}.jsonl`);
  const intended: TargetKind = initial.target === 'prism-mock' ? 'prism-mock' : initial.image ? 'container' : initial.baseUrl ? 'deployment' : 'bundled-mock';
  // The run's vitest holds the run context; a stop recorded before the setup ran (a signal) stays.
  const run = project.vitest;
  updateRunContext(run, {
    specVersion,
    seed,
    runId,
    readOnly: initial.readOnly,
    target: { kind: intended, baseUrl: initial.baseUrl ?? '' },
    startedAt: new Date().toISOString(),
    journal,
  });
  let resolved: Resolved;
  try {
    resolved = await resolveTarget(initial, seed);
  } catch (e) {
    const detail = firstLine((e as Error).message).replace(/^container \S+ did not become ready: (Error: )?/, '');
    const message = `${intended === 'container' ? `container ${initial.image}` : `the ${intended} target`} could not be started: ${detail}`;
    stopRun(run, { cause: 'target-not-started', message });
    throw quiet(message);
  }
  const stops: Stop[] = [resolved.stop];
  const stopAll = async () => {
    for (const stop of stops) await stop().catch((e: unknown) => console.warn(`[conformance] teardown: ${String(e)}`));
  };
  try {
    const settings = requireConfig(mergeEnv(resolved.env)) as Settings & { baseUrl: string; };
    settings.seed = seed;
    const scratch = await checkTarget(run, resolved, settings);
    if (scratch.length > 0 && settings.scratchProjects.length === 0) settings.scratchProjects = scratch;
    const stopped = runContext(run)?.stopped;
    if (stopped) throw quiet(stopped.message); // interrupted while starting
    if (settings.viaPrism) {
      const { startPrismProxy } = await import('../integrations/prism.js');
      const proxy = await startPrismProxy({ upstream: settings.baseUrl, openapiPath: OPENAPI });
      stops.unshift(proxy.stop);
      settings.baseUrl = proxy.url;
    }
    const shape = settings.shape !== 'auto' ? settings.shape : resolved.kind === 'bundled-mock' ? (settings.mock.shape ?? 'full') : undefined;
    updateRunContext(run, {
      target: {
        kind: resolved.kind,
        baseUrl: settings.baseUrl,
        ...(shape ? { shape } : {}),
        viaPrism: settings.viaPrism,
        ...(settings.mock.fault && resolved.kind === 'bundled-mock' ? { mockFault: settings.mock.fault } : {}),
      },
      settings: resolved.env,
      // the table the checks plan with (the same settings), so the cells of a check that never runs are reported too
      coverage: targetTable(settings),
    });
    const provided: ProvidedTarget = { settings, runId, seed, kind: resolved.kind, journal };
    project.provide('conformanceTarget', provided);
    console.log(
      `[conformance] seed ${seed} (reproduce with CONFORMANCE_SEED=${seed}); target ${resolved.kind} ${settings.baseUrl}${
        settings.viaPrism ? ' via Prism' : ''
      }; run id ${runId}${settings.readOnly ? '; read-only' : ''}`,
    );
  } catch (e) {
    await stopAll();
    throw e;
  }
  // The test worker starts once this returns, and this process would wait for it meanwhile.
  setImmediate(() => void prepareSuites(project).catch(() => undefined));
  return async () => {
    await stopAll();
    rmSync(journal, { force: true });
  };
}

/**
 * Transforms the suite files, in the order they will run, while the test worker starts: the worker
 * then finds each one ready. Transformed when the worker asked for it, between two files, each
 * file held up the run far longer than its transform took here beforehand (this process also
 * serves the bundled mock's requests meanwhile).
 */
async function prepareSuites(project: TestProject): Promise<void> {
  const ssr = project.vite.environments.ssr;
  if (!ssr) return;
  const { testFiles } = await project.globTestFiles();
  const Sequencer = project.vitest.config.sequence.sequencer;
  const ordered = await new Sequencer(project.vitest).sort(testFiles.map((file) => project.createSpecification(file)));
  // A file that does not transform fails when the worker imports it, and is reported then.
  for (const spec of ordered) await ssr.transformRequest(spec.moduleId).catch(() => undefined);
}

/**
 * The preflight of a started target (a deployment's already ran in `conformance run`, before the
 * suites started). Returns the projects the bundled mock sets aside for testing.
 */
async function checkTarget(run: RunHolder, resolved: Resolved, s: Settings & { baseUrl: string; }): Promise<string[]> {
  if (resolved.kind === 'prism-mock') return []; // stateless examples: nothing to preflight
  if (resolved.kind === 'deployment' && runContext(run)?.preflighted === s.baseUrl) return [];
  const ownKeys = resolved.kind === 'deployment' || (resolved.kind === 'container' && !!process.env.CONFORMANCE_API_KEY);
  const r = await preflight({
    baseUrl: s.baseUrl,
    keys: s.keys,
    timeoutMs: s.preflightTimeoutMs,
    checkTeams: ownKeys,
    strict: ownKeys,
    scratchProjects: s.scratchProjects,
  });
  if (!r.ok) {
    stopRun(run, { cause: 'preflight', code: r.code, message: preflightLine(r) });
    throw quiet(preflightLine(r));
  }
  for (const note of r.notes) console.log(`[conformance] preflight: ${note}`);
  return resolved.kind === 'bundled-mock' ? bundledScratchProjects(r.firstProjects) : [];
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
    const { startPrismMock } = await import('../integrations/prism.js');
    const mock = await startPrismMock({ openapiPath: OPENAPI });
    // Prism's mock checks only that a bearer header is present; any two distinct tokens do.
    return {
      kind: 'prism-mock',
      stop: mock.stop,
      env: { CONFORMANCE_BASE_URL: mock.url, CONFORMANCE_API_KEY: 'prism-mock-team-a', CONFORMANCE_API_KEY_OTHER_TEAM: 'prism-mock-team-b' },
    };
  }
  if (s.image) {
    const { startContainerTarget } = await import('../integrations/container.js');
    const c = await startContainerTarget(process.env);
    return { kind: 'container', stop: c.stop, env: { ...c.settings, CONFORMANCE_BASE_URL: c.baseUrl } };
  }
  if (!s.baseUrl) {
    // The only place the harness touches the mock: the bundled target, as built in dist/ (rebuilt first when stale).
    const { builtEntry } = await import('../build/run.mjs');
    // The build of mock/index.ts: typed from its source, which the compiler checks.
    const { start, parseReadings } = (await import(/* @vite-ignore */ pathToFileURL(await builtEntry('mock')).href)) as typeof import('../mock/index.js');
    // CONFORMANCE_MOCK_READINGS=name=value,... : conforming alternatives the bundled mock serves (mock/reference/readings.ts).
    const readings = process.env.CONFORMANCE_MOCK_READINGS ? { readings: parseReadings(process.env.CONFORMANCE_MOCK_READINGS) } : {};
    // CONFORMANCE_MOCK_DIRECT_READS=off: every request through the reference pipeline, none answered by
    // the speed layer (mock/fast/); the mutation benchmark (bench/mutation/) tests the reference so.
    const directReads = process.env.CONFORMANCE_MOCK_DIRECT_READS === 'off' ? { directReads: false } : {};
    const mock = await start({
      seed,
      ...(s.mock.shape ? { shape: s.mock.shape } : {}),
      ...(s.mock.fault ? { fault: s.mock.fault } : {}),
      ...(s.mock.deprecate.length ? { deprecate: s.mock.deprecate } : {}),
      ...(s.mock.population ? { population: s.mock.population } : {}),
      ...readings,
      ...directReads,
    });
    return { kind: 'bundled-mock', stop: mock.close, env: mock.settings };
  }
  return { kind: 'deployment', stop: async () => undefined, env: {} };
}
