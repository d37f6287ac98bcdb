import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANTED_KEY } from './fake-run.js';
import { validateReport } from './schema.js';
import type { Report } from './types.js';

// The reporter inside a real vitest run: a fixture project under out/fixtures/ (git-ignored,
// outside every include) with checks in each state, run by a child vitest.
const root = new URL('..', import.meta.url).pathname;
const fixture = join(root, 'out', 'fixtures', `reporter-fixture-${process.pid}`);
const outDir = join(fixture, 'report');

const config = `
import { defineConfig } from 'vitest/config';
import { ConformanceReporter } from '../../../reports/reporter.ts';
import { fakeCatalog } from '../../../reports/fake-run.ts';
const here = new URL('.', import.meta.url).pathname;
const conformanceRun = { specVersion: '1.6.0', target: { kind: 'deployment', baseUrl: 'http://127.0.0.1:9' }, seed: 5, startedAt: new Date().toISOString() };
const catalog = { entries: fakeCatalog, specVersion: '1.6.0', match: (p) => fakeCatalog.map((r) => r.id).filter((id) => p.some((x) => new RegExp('^' + x.replace(/\\*/g, '.*') + '$').test(id))) };
export default defineConfig({ test: { root: here, include: ['*.check.ts'], provide: { conformanceRun }, reporters: [new ConformanceReporter({ dir: ${
  JSON.stringify(outDir)
}, catalog })] } });
`;

const checks = `
import { test } from 'vitest';
const m = (requirements, extra = {}) => ({ requirements, concern: 'sample', ...extra });
test('page envelope [LIST-PAGE-ENVELOPE]', ({ task }) => { task.meta.conformance = m(['LIST-PAGE-ENVELOPE'], { readings: { 'page.size': '20' } }); });
test('upload limit [UPLOAD-LIMIT]', ({ task }) => {
  task.meta.conformance = m(['UPLOAD-LIMIT'], { failure: { message: 'expected 413 with key ' + process.env.CONFORMANCE_API_KEY, curl: 'curl -H "Authorization: Bearer $CONFORMANCE_API_KEY" http://127.0.0.1:9/x', seed: 3, path: '0:1' } });
  throw new Error('expected 413 with key ' + process.env.CONFORMANCE_API_KEY);
});
test('bearer [AUTH-BEARER-REQUIRED]', (ctx) => { ctx.task.meta.conformance = m(['AUTH-BEARER-REQUIRED'], { skipReason: 'needs a key' }); ctx.skip('needs a key'); });
test.skip('isolation [ISO-GET-OTHER-TEAM-404]', { meta: { conformance: m(['ISO-GET-OTHER-TEAM-404']) } }, () => {});
`;

describe('ConformanceReporter in a vitest run', () => {
  let report: Report;
  let stdout = '';

  beforeAll(() => {
    mkdirSync(fixture, { recursive: true });
    writeFileSync(join(fixture, 'vitest.config.mts'), config);
    writeFileSync(join(fixture, 'sample.check.ts'), checks);
    const run = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(fixture, 'vitest.config.mts')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, CONFORMANCE_API_KEY: PLANTED_KEY, CONFORMANCE_ONLY: 'LIST-*,UPLOAD-*,AUTH-*,ISO-*', NO_COLOR: '1' },
    });
    stdout = `${run.stdout}\n${run.stderr}`;
    report = JSON.parse(readFileSync(join(outDir, 'conformance.json'), 'utf8')) as Report;
  }, 90_000);

  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('writes a schema-valid report with every catalog requirement', () => {
    expect(validateReport(report).errors).toEqual([]);
    expect(report.requirements).toHaveLength(14);
    expect(report.target).toMatchObject({ kind: 'deployment', baseUrl: 'http://127.0.0.1:9', readings: { 'page.size': '20' } });
    expect(report.seed).toBe(5);
  });

  it('reads status, skip notes, failure evidence and durations from vitest', () => {
    const r = Object.fromEntries(report.requirements.map((x) => [x.id, x]));
    expect(r['LIST-PAGE-ENVELOPE']?.status).toBe('passed');
    expect(r['UPLOAD-LIMIT']).toMatchObject({ status: 'failed', failures: [{ seed: 3, path: '0:1', message: 'expected 413 with key $CONFORMANCE_API_KEY' }] });
    expect(r['AUTH-BEARER-REQUIRED']).toMatchObject({ status: 'skipped', reason: 'needs a key' });
    expect(r['ISO-GET-OTHER-TEAM-404']).toMatchObject({ status: 'skipped', checks: [{ concern: 'sample', status: 'skipped' }] });
    expect(r['VER-CURSOR-400']).toMatchObject({ status: 'skipped', reason: 'not selected' });
    expect(r['UPLOAD-LIMIT']?.checks[0]?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('leaves the key in no file and says once where the report is', () => {
    for (const f of readdirSync(outDir)) expect(readFileSync(join(outDir, f), 'utf8'), f).not.toContain(PLANTED_KEY);
    expect(stdout.split(`Reports: ${join(outDir, 'index.html')}`)).toHaveLength(2);
    expect(stdout).not.toContain(PLANTED_KEY);
  });

  it('prints progress and one summary of requirements, without stack traces or colour when not on a terminal', () => {
    expect(stdout).toMatch(/conformance \d+\/\d+ requirements checked/);
    expect(stdout).toContain('1 failed');
    expect(stdout).toContain('expected 413 with key $CONFORMANCE_API_KEY');
    expect(stdout).not.toMatch(/Test Files|\bat .*sample\.check\.ts/);
    expect(stdout).not.toContain('\u001b[');
  });
});
