import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReport } from '../reports/build-report.js';
import { fakeChecks, fakeInput } from '../reports/fake-run.js';
import type { Report } from '../reports/types.js';
import { cli } from './cli-in-process.js';
import { compareReports } from './commands/report-compare.js';

const dir = mkdtempSync(join(tmpdir(), 'conformance-report-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

const good = buildReport(fakeInput());
// The same run after the failing checks were fixed.
const fixed = buildReport(fakeInput({ checks: fakeChecks().map((c) => ({ ...c, state: c.state === 'failed' ? 'passed' as const : c.state })) }));

describe('compareReports', () => {
  it('passed → failed and a vanished requirement are regressions', () => {
    const shrunk: Report = { ...good, requirements: good.requirements.filter((r) => r.id !== 'UPLOAD-LIMIT') };
    const c = compareReports(fixed, shrunk);
    expect(c.changes.filter((x) => x.kind === 'regression').map((x) => `${x.id}:${x.before}>${x.after}`).sort())
      .toEqual([
        'ISO-GET-OTHER-TEAM-404:passed>failed',
        'LIST-CURSOR-UNDECODABLE:passed>failed',
        'LIST-FILTER-EMPLOYEE-ID:skipped>blocked',
        'LIST-FILTER-PROJECT-ID:skipped>failed',
        'LIST-LIMIT:skipped>blocked',
        'RES-PROJECT-SHAPE:skipped>failed',
        'UPLOAD-LIMIT:passed>absent',
        'VER-CURSOR-400:passed>failed',
      ]);
  });

  it('a must or implied requirement skipped before and failed or blocked now is a regression, with its cause', () => {
    const c = compareReports(fixed, good);
    const shape = c.changes.find((x) => x.id === 'RES-PROJECT-SHAPE')!;
    expect(shape).toMatchObject({ before: 'skipped', after: 'failed', kind: 'regression', cause: expect.stringMatching(/^C\d+$/) });
    expect(c.causes.map((x) => x.id)).toContain(shape.cause);
  });

  it('an incomplete second run fails the gate even without a regression, unless allowed', () => {
    const interrupted: Report = {
      ...fixed,
      stopped: { cause: 'interrupted', message: 'interrupted by SIGINT' },
      errors: [{ source: 'run', message: 'the run was interrupted: interrupted by SIGINT' }],
    };
    const c = compareReports(fixed, interrupted);
    expect(c.summary.regressions).toBe(0);
    expect(c.incomplete.after).toBe('interrupted by SIGINT');
    expect(c.fails).toBe(true);
    expect(compareReports(fixed, interrupted, { allowIncomplete: true }).fails).toBe(false);
    // an incomplete first run is said, but the gate is about the second
    expect(compareReports(interrupted, fixed).fails).toBe(false);
  });

  it('passed → skipped is a change, a regression only when strict', () => {
    const skipped: Report = {
      ...good,
      requirements: good.requirements.map((r) => (r.id === 'UPLOAD-LIMIT' ? { ...r, status: 'skipped', reason: 'not selected' } : r)),
    };
    expect(compareReports(good, skipped).changes).toEqual([{ id: 'UPLOAD-LIMIT', level: 'must', before: 'passed', after: 'skipped', kind: 'change' }]);
    expect(compareReports(good, skipped, { strict: true }).summary.regressions).toBe(1);
  });
});

describe('conformance report diff', () => {
  const a = write('good.json', good);
  const b = write('fixed.json', fixed);

  it('exits 1 on a regression and names it under its cause', async () => {
    const r = await cli('report', 'diff', b, a);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      / {2}C\d+ {2}expected status 400, got 200[^\n]*\n\s+LIST-CURSOR-UNDECODABLE\s+must\s+passed → failed\n\s+VER-CURSOR-400\s+must\s+passed → failed/,
    );
    expect(r.stdout).toContain('7 regression(s)');
  });

  it('exits 1 for an interrupted second run, 0 with --allow-incomplete', async () => {
    const interrupted = write('interrupted.json', {
      ...fixed,
      stopped: { cause: 'interrupted', message: 'interrupted by SIGINT' },
      errors: [{ source: 'run', message: 'the run was interrupted: interrupted by SIGINT' }],
    });
    const r = await cli('report', 'diff', b, interrupted);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('is of an incomplete run: interrupted by SIGINT');
    expect(r.stdout).toContain('0 regression(s)');
    expect((await cli('report', 'diff', b, interrupted, '--allow-incomplete')).code).toBe(0);
  });

  it('exits 0 on an improvement', async () => {
    const r = await cli('report', 'diff', a, b);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('0 regression(s), 3 improvement(s)');
  });

  it('prints JSON with --json', async () => {
    const r = await cli('report', 'diff', a, b, '--json');
    expect(JSON.parse(r.stdout)).toMatchObject({ summary: { regressions: 0, improvements: 3 } });
  });

  it('reads a report written before the coverage table existed, on either side', async () => {
    expect(good.coverage?.cells.length).toBeGreaterThan(0);
    const { coverage: _coverage, ...older } = good;
    const old = write('older.json', older);
    const r = await cli('report', 'diff', old, b);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('0 regression(s), 3 improvement(s)');
    expect((await cli('report', 'diff', b, old)).stdout).toContain('7 regression(s)');
  });

  it('exits 2 on a missing, unparsable or invalid report', async () => {
    expect(await cli('report', 'diff', a, join(dir, 'missing.json'))).toMatchObject({ code: 2, stderr: expect.stringContaining('ENOENT') });
    expect(await cli('report', 'diff', a, write('broken.json', '{"nope'))).toMatchObject({ code: 2 });
    const invalid = await cli('report', 'diff', write('invalid.json', { ...good, summary: undefined, requirements: 'x' }), b);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('is not a conformance report');
  });

  it('exits 2 without two files or with an unknown subcommand', async () => {
    expect((await cli('report', 'diff', a)).code).toBe(2);
    expect((await cli('report')).code).toBe(2);
    expect(await cli('report', 'merge')).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown subcommand 'merge'") });
  });
});
