import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { fakeChecks, fakeInput, fakePlan } from './fake-run.js';
import { validateReport } from './schema.js';
import type { CheckResult, CoverageCell, Report } from './types.js';

const cellsOf = (report: Report) => report.coverage!.cells;
const find = (report: Report, dimension: string, subject: string, aspect: string): CoverageCell =>
  cellsOf(report).find((c) => c.dimension === dimension && c.subject === subject && c.aspect === aspect)!;
const [undecodable, anotherSort, , noKey] = fakeChecks().map((c) => c.name);

describe('the coverage table of the report', () => {
  const report = buildReport(fakeInput());

  it('holds every planned cell, in the order planned, and a reason on every cell not checked', () => {
    expect(cellsOf(report).map((c) => [c.dimension, c.subject, c.aspect])).toEqual(fakePlan.map((p) => [p.dimension, p.subject, p.aspect]));
    expect(cellsOf(report).filter((c) => c.outcome !== 'checked' && !c.reason?.text)).toEqual([]);
    expect(cellsOf(report).filter((c) => c.outcome === 'checked' && c.reason)).toEqual([]);
    expect(validateReport(report).errors).toEqual([]);
  });

  it("a cell's outcome comes from its check's mark and how the check ended", () => {
    expect(find(report, 'fields', 'createProject', 'title filled')).toEqual({
      dimension: 'fields',
      subject: 'createProject',
      aspect: 'title filled',
      outcome: 'checked',
      check: anotherSort,
    });
    expect(find(report, 'walks', 'GET /cvs', 'sort=default order=asc')).toMatchObject({
      outcome: 'skipped',
      reason: { kind: 'check-skipped', text: 'GET /cvs has a single page' },
    });
    expect(find(report, 'fields', 'createProject', 'billing_type value hourly')).toMatchObject({ outcome: 'skipped', reason: { kind: 'not-reached' } });
    // run by a check that failed, and not reached by it
    const failedCause = report.requirements.find((r) => r.id === 'LIST-CURSOR-UNDECODABLE')!.causes![0];
    expect(find(report, 'cursors', 'GET /projects', 'from sort=default order=asc to sort=default order=desc')).toMatchObject({
      outcome: 'failed',
      reason: { kind: 'check-failed', text: `run; its check failed (root cause ${failedCause})` },
      check: undecodable,
    });
    expect(find(report, 'cursors', 'GET /projects', 'from sort=default order=desc to sort=default order=asc')).toMatchObject({
      outcome: 'not-run',
      reason: { kind: 'check-failed', text: expect.stringContaining('its check failed before reaching it') },
    });
    expect(find(report, 'walks', 'GET /projects', 'sort=default order=default')).toMatchObject({
      outcome: 'not-run',
      reason: { kind: 'check-blocked', text: expect.stringMatching(/^its check was blocked: setup step "a project of team A" failed \(root cause C\d+\)$/) },
    });
    // a check skipped as a whole: its reason
    expect(find(report, 'refusals', 'createProject', 'read-only')).toMatchObject({
      outcome: 'skipped',
      reason: { kind: 'check-skipped', text: 'needs CONFORMANCE_API_KEY_READ_ONLY' },
      check: noKey,
    });
    expect(find(report, 'refusals', 'createProject', 'no-key')).toMatchObject({ outcome: 'not-run', reason: { kind: 'no-check' } });
  });

  it("the table's own reasons: a missing setting is a skip, the rest not applicable", () => {
    expect(find(report, 'fields', 'createProject', 'id filled')).toEqual({
      dimension: 'fields',
      subject: 'createProject',
      aspect: 'id filled',
      outcome: 'not-applicable',
      reason: { kind: 'not-shown', text: 'an id the server assigns' },
    });
    expect(find(report, 'fields', 'updateProject', 'stage filled')).toMatchObject({ outcome: 'skipped', reason: { kind: 'setting' }, check: anotherSort });
  });

  it('counts per table, in the order reports show them, and in all', () => {
    expect(report.coverage!.dimensions.map((d) => d.name)).toEqual(['fields', 'refusals', 'walks', 'cursors']);
    expect(report.coverage!.dimensions.find((d) => d.name === 'walks')!.counts).toEqual({
      checked: 2,
      failed: 0,
      skipped: 1,
      notApplicable: 1,
      notRun: 1,
      total: 5,
    });
    expect(report.coverage!.counts).toEqual({ checked: 4, failed: 1, skipped: 4, notApplicable: 2, notRun: 3, total: 14 });
  });

  it("a deselected check's cells say so, whether its file was loaded or not", () => {
    const deselected = (c: CheckResult): CheckResult =>
      c.name !== anotherSort ? c : {
        ...c,
        state: 'skipped',
        meta: {
          requirements: ['LIST-CURSOR-UNDECODABLE'],
          concern: 'cursors',
          skipReason: 'excluded by CONFORMANCE_EXCLUDE',
          cells: fakePlan.filter((p) => p.check === c.name.replace(/ \[.*$/, '')).map((p) => ({
            dimension: p.dimension,
            subject: p.subject,
            aspect: p.aspect,
            outcome: 'skipped',
            reason: 'excluded by CONFORMANCE_EXCLUDE',
          })),
        },
      };
    const input = fakeInput({ isSelected: (id) => id !== 'LIST-CURSOR-UNDECODABLE' });
    const r = buildReport({ ...input, checks: input.checks.map(deselected) });
    expect(find(r, 'fields', 'createProject', 'title filled')).toMatchObject({
      outcome: 'not-run',
      reason: { kind: 'not-selected', text: 'its check was excluded by CONFORMANCE_EXCLUDE' },
    });
    // its file never loaded: the run was narrowed
    expect(find(r, 'refusals', 'createProject', 'no-key')).toMatchObject({
      outcome: 'not-run',
      reason: { kind: 'not-selected', text: 'its check was not selected (--only / --exclude)' },
    });
    // a reasoned cell stays what the table says
    expect(find(r, 'fields', 'createProject', 'id filled').outcome).toBe('not-applicable');
    expect(validateReport(r).errors).toEqual([]);
  });

  it('a run that stopped: the cells of the checks it never ran say why', () => {
    const input = fakeInput();
    const stopped = { cause: 'deadline' as const, message: 'the run took longer than CONFORMANCE_RUN_TIMEOUT (6s)' };
    const pending = (
      c: CheckResult,
    ): CheckResult => (c.name === anotherSort ? { ...c, state: 'pending', meta: { requirements: ['LIST-CURSOR-UNDECODABLE'] } } : c);
    const r = buildReport({ ...input, checks: input.checks.map(pending), context: { ...input.context, stopped } });
    expect(find(r, 'walks', 'GET /projects', 'sort=default order=asc')).toMatchObject({
      outcome: 'not-run',
      reason: { kind: 'stopped', text: `not run: ${stopped.message}` },
    });
    expect(find(r, 'refusals', 'createProject', 'no-key')).toMatchObject({ outcome: 'not-run', reason: { kind: 'stopped' } });
    // a check the stop cut short: what it had run is not checked either
    const cut = (c: CheckResult): CheckResult =>
      c.name === anotherSort
        ? { ...c, state: 'skipped', meta: { ...(c.meta as object), notRun: stopped.message, skipReason: `not run: ${stopped.message}` } }
        : c;
    const s = buildReport({ ...input, checks: input.checks.map(cut), context: { ...input.context, stopped } });
    expect(find(s, 'fields', 'createProject', 'title filled')).toMatchObject({ outcome: 'not-run', reason: { kind: 'stopped' } });
  });

  it('a run without a planned table (it never resolved its target) has no coverage section', () => {
    const input = fakeInput();
    const { coverage: _coverage, ...context } = input.context!;
    expect(buildReport({ ...input, context }).coverage).toBeUndefined();
  });
});
