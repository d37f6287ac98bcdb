import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../reports/types.js';

// The harness in a real vitest run, through check() and the conformance reporter: a shared setup
// step that fails blocks the checks that need it (and runs once), a check about the step still
// fails, an assertion naming its requirement fails only that one, warn() reaches the report, and
// a property failure replays from its path. No target is contacted: the checks send nothing.
const root = new URL('../..', import.meta.url).pathname;
const fixture = join(root, 'out', 'fixtures', `setup-fixture-${process.pid}`);
const h = (m: string) => JSON.stringify(join(root, 'suites', 'harness', m));

const globalSetup = `
export default function (project) {
  project.vitest.provide('conformanceRun', { specVersion: '1.6.0', target: { kind: 'deployment', baseUrl: 'http://127.0.0.1:9' }, seed: 42, startedAt: new Date().toISOString() });
  const settings = { baseUrl: 'http://127.0.0.1:9', keys: {}, paths: { organizationCreate: { method: 'POST', path: '/api/public/v1/organizations' } }, sortFields: {},
    shape: 'auto', readOnly: false, numRuns: 20, statefulRuns: 1, statefulSteps: 5, timeoutMs: 1000, concurrency: 1, maxRetries: 0, maxRetryAfterMs: 0, selection: { only: [], exclude: [] }, reportDir: '', mock: { deprecate: [] }, viaPrism: false };
  project.provide('conformanceTarget', { settings, runId: 'cfm-test', seed: 42, kind: 'deployment' });
}
`;

const config = (dir: string) => `
import { defineConfig } from 'vitest/config';
import { ConformanceReporter } from ${JSON.stringify(join(root, 'reports', 'reporter.ts'))};
export default defineConfig({ test: { root: ${JSON.stringify(fixture)}, include: ['*.check.ts'], globalSetup: ['global-setup.ts'],
  reporters: [new ConformanceReporter({ dir: ${JSON.stringify(dir)} })] } });
`;

const checks = `
import fc from 'fast-check';
import { ensure, fail } from ${h('judge/assert.ts')};
import { check } from ${h('check.ts')};
import { property } from ${h('property.ts')};
import { setup, shared } from ${h('setup.ts')};
let runs = 0;
const broken = shared('a broken fixture', async () => { runs += 1; fail('page of project does not match: /data/0/title must be string'); }, { subject: ['RES-PROJECT-SHAPE'] });
check(['LIST-LIMIT'], 'needs the fixture', async () => { await broken(); });
check(['LIST-SORT'], 'needs the fixture too', async () => { await setup('an outer step', () => broken()); });
check(['RES-PROJECT-SHAPE', 'EP-PROJECTS-GET'], 'is about what the fixture does', async () => { await broken(); });
check(['LIST-FILTER-PROJECT-ID', 'LIST-FILTER-EMPLOYEE-ID'], 'names the requirement of its assertion', async () => {
  ensure(false, 'project_id is ignored', undefined, { requirement: 'LIST-FILTER-PROJECT-ID' });
});
check(['GEN-BASE-PATH'], 'warns', async (c) => { c.warn('list.last-page', 'hasMore true followed by an empty last page'); c.reading('fixture.runs', String(runs)); });
check(['LIST-WALK-EVERY-RECORD-ONCE'], 'a property', async () => {
  await property(fc.record({ limit: fc.integer({ min: 1, max: 100 }) }), async (v) => { const limit = v.limit; v.limit = 0; ensure(limit < 10, 'limit ' + limit + ' too big'); });
});
`;

function run(dir: string, env: Record<string, string> = {}): { report: Report; stdout: string; } {
  writeFileSync(join(fixture, `vitest.config.mts`), config(dir));
  const r = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(fixture, 'vitest.config.mts')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  return { report: JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report, stdout: `${r.stdout}\n${r.stderr}` };
}

describe('setup steps, attribution, warnings and replay in a vitest run', () => {
  let first: ReturnType<typeof run>;
  const byId = (report: Report, id: string) => report.requirements.find((r) => r.id === id)!;

  beforeAll(() => {
    mkdirSync(fixture, { recursive: true });
    writeFileSync(join(fixture, 'global-setup.ts'), globalSetup);
    writeFileSync(join(fixture, 'sample.check.ts'), checks);
    first = run(join(fixture, 'report-1'));
  }, 90_000);

  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('blocks the checks that need a failed shared step, which runs once and is one root cause', () => {
    const { report } = first;
    expect(byId(report, 'LIST-LIMIT')).toMatchObject({ status: 'blocked', reason: 'blocked: setup step "a broken fixture" failed (C1)', causes: ['C1'] });
    expect(byId(report, 'LIST-SORT')).toMatchObject({ status: 'blocked', checks: [{ status: 'blocked', cause: 'C1' }] });
    expect(report.target.readings['fixture.runs']).toBe('1');
    expect(report.causes?.[0]).toMatchObject({
      id: 'C1',
      message: 'page of project does not match: /data/*/title must be string',
      setup: ['a broken fixture'],
    });
  });

  it('fails a check whose requirements the step exercises, on those requirements only', () => {
    const { report } = first;
    expect(byId(report, 'RES-PROJECT-SHAPE')).toMatchObject({ status: 'failed', failures: [{ setup: ['a broken fixture'] }] });
    expect(byId(report, 'EP-PROJECTS-GET')).toMatchObject({ status: 'blocked', reason: 'blocked: setup step "a broken fixture" failed (C1)' });
  });

  it('fails only the requirement an assertion names', () => {
    const { report } = first;
    expect(byId(report, 'LIST-FILTER-PROJECT-ID')).toMatchObject({ status: 'failed', failures: [{ message: 'project_id is ignored' }] });
    expect(byId(report, 'LIST-FILTER-EMPLOYEE-ID').status).toBe('blocked');
  });

  it('reports warnings, which do not fail the check', () => {
    const { report } = first;
    expect(byId(report, 'GEN-BASE-PATH').status).toBe('passed');
    expect(report.target.warnings).toEqual([{
      name: 'list.last-page',
      message: 'hasMore true followed by an empty last page',
      checks: ['warns [GEN-BASE-PATH]'],
      requirements: ['GEN-BASE-PATH'],
    }]);
    expect(first.stdout).toContain('1 warning');
  });

  it('names the shrunk input as generated, and --path replays exactly that input', () => {
    const failure = byId(first.report, 'LIST-WALK-EVERY-RECORD-ONCE').failures[0]!;
    expect(failure.counterexample).toEqual({ limit: 10 });
    // The message says what is wrong; the shrunk input, the seed and the path are the evidence below it.
    expect(failure.message).toBe('limit 10 too big');
    expect(failure).toMatchObject({ seed: 42, path: expect.stringMatching(/^[\d:]+$/) });
    expect(failure.replay).toContain(
      `npm start -- --only LIST-WALK-EVERY-RECORD-ONCE --check 'a property [LIST-WALK-EVERY-RECORD-ONCE]' --seed 42 --path ${failure.path}`,
    );
    const again = run(join(fixture, 'report-2'), { CONFORMANCE_REPLAY_PATH: failure.path! });
    const replayed = byId(again.report, 'LIST-WALK-EVERY-RECORD-ONCE').failures[0]!;
    expect(replayed).toMatchObject({ counterexample: { limit: 10 }, path: failure.path });
    expect(replayed.message).toBe('limit 10 too big');
  }, 90_000);
});
