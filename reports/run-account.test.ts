// The report's account of the run: run id, read-only, leftovers, touched records, requests, and a
// run that stopped early (its unfinished checks are errors, never failures, and it is never green).
import { describe, expect, it } from 'vitest';
import { accountFor } from '../contract/journal.js';
import { buildReport } from './build-report.js';
import { fakeChecks, fakeInput } from './fake-run.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { validateReport } from './schema.js';
import type { CheckResult } from './types.js';

const accounting = () =>
  accountFor([
    { e: 'created', kind: 'organization', id: 'org-1', auth: 'team', deletable: false },
    { e: 'created', kind: 'assignment', id: 'asg-1', auth: 'team', deletable: true },
    { e: 'created', kind: 'assignment', id: 'asg-2', auth: 'otherTeam', deletable: true },
    { e: 'deleted', id: 'asg-1' },
    { e: 'left', kind: 'assignment', id: 'asg-2', why: 'not deleted: DELETE answered 500' },
    { e: 'created', kind: 'file', id: 'file-1', auth: 'team', deletable: true },
    { e: 'created', kind: 'capture', id: 'cap-1', auth: 'team', deletable: false },
    { e: 'created', kind: 'capture', id: 'cap-1', auth: 'team', deletable: false },
    { e: 'touched', resource: 'projects', id: 'p-1', auth: 'team', scratch: false },
    { e: 'restored', resource: 'projects', id: 'p-1', back: true, differences: [] },
    { e: 'touched', resource: 'projects', id: 'p-2', auth: 'team', scratch: true },
    { e: 'restored', resource: 'projects', id: 'p-2', back: false, differences: ['stage_changed_at'] },
    { e: 'touched', resource: 'projects', id: 'p-3', auth: 'team', scratch: false },
    { e: 'requests', file: 'a', count: 10 },
    { e: 'requests', file: 'b', count: 5 },
  ]);

describe('the run account in the report', () => {
  it('folds the journal: leftovers per collection with ids and why, touched records with their restore, requests', () => {
    const a = accounting();
    expect(a.leftovers).toEqual({
      organizations: { count: 1, ids: ['org-1'], why: ['the API offers no way to delete it'] },
      assignments: { count: 1, ids: ['asg-2'], why: ['not deleted: DELETE answered 500'] },
      files: { count: 1, ids: ['file-1'], why: ['not deleted: the run ended before its cleanup'] },
      // a repeated capture answers the same item: one record left, counted once
      captures: { count: 1, ids: ['cap-1'], why: ['the API offers no way to delete it'] },
    });
    expect(a.touched.map((t) => [t.id, t.restored, t.differences])).toEqual([['p-1', true, []], ['p-2', false, ['stage_changed_at']], ['p-3', null, []]]);
    expect(a.requests).toBe(15);
  });

  it('writes runId, readOnly, requests, leftovers and touched into a schema-valid report', () => {
    const input = fakeInput();
    const report = buildReport({ ...input, context: { ...input.context, runId: 'cfm-1-abc', readOnly: true }, accounting });
    expect(report).toMatchObject({ runId: 'cfm-1-abc', readOnly: true, requests: 15 });
    expect(report.leftovers?.organizations?.ids).toEqual(['org-1']);
    expect(report.touched).toHaveLength(3);
    expect(report.stopped).toBeUndefined();
    expect(validateReport(report)).toEqual({ valid: true, errors: [] });
    const html = renderHtml(report);
    expect(html).toContain('id="run-account"');
    expect(html).toContain('cfm-1-abc');
    expect(html).toContain('Left on the target: 4 records (organizations 1, assignments 1, files 1, captures 1)');
  });

  it('a run that stopped: a run error, checks that never ran are errors in junit, not failures', () => {
    const input = fakeInput();
    const checks: CheckResult[] = [
      ...fakeChecks(),
      {
        name: 'checks never started [LIST-PAGE-ENVELOPE]',
        moduleId: 'suites/pagination.check.ts',
        state: 'skipped',
        note: 'The test run was aborted by the user.',
        errors: [],
        durationMs: 0,
        meta: { requirements: ['LIST-PAGE-ENVELOPE'], concern: 'pagination' },
      },
      {
        name: 'stopped mid-way [UPLOAD-LIMIT]',
        moduleId: 'suites/uploads.check.ts',
        state: 'skipped',
        errors: [],
        durationMs: 3,
        meta: {
          requirements: ['UPLOAD-LIMIT'],
          concern: 'uploads',
          skipReason: 'not run: x',
          notRun: 'the target stopped answering: 5 requests in a row got no response',
        },
      },
    ];
    const report = buildReport({
      ...input,
      checks,
      context: { ...input.context, stopped: { cause: 'deadline', message: 'the run took longer than CONFORMANCE_RUN_TIMEOUT (30m)' } },
    });
    expect(report.stopped).toEqual({ cause: 'deadline', message: 'the run took longer than CONFORMANCE_RUN_TIMEOUT (30m)' });
    expect(report.errors).toContainEqual({ source: 'run', message: 'the run reached its deadline: the run took longer than CONFORMANCE_RUN_TIMEOUT (30m)' });
    expect(validateReport(report).valid).toBe(true);
    const notRun = report.requirements.flatMap((r) => r.checks).filter((c) => c.notRun);
    expect(notRun.map((c) => c.name).sort()).toEqual(['checks never started [LIST-PAGE-ENVELOPE]', 'stopped mid-way [UPLOAD-LIMIT]']);
    // a check skipped for its own reason is not an error of the run
    expect(report.requirements.find((r) => r.id === 'AUTH-BEARER-REQUIRED')!.checks[0]!.notRun).toBeUndefined();
    const junit = renderJunit(report);
    expect(junit).toContain('<error message="not run: the target stopped answering: 5 requests in a row got no response" type="NotRun"/>');
    expect(junit).toContain('<testsuite name="run" tests="1" failures="0" errors="1"');
    expect(junit).toMatch(/<testsuites name="conformance" tests="\d+" failures="\d+" errors="3"/);
  });

  it('the stop the workers journaled (the target fell silent) counts when the main process saw none', () => {
    const input = fakeInput();
    const report = buildReport({
      ...input,
      accounting: () => accountFor([{ e: 'stopped', cause: 'target-unresponsive', message: 'the target stopped answering' }]),
    });
    expect(report.stopped?.cause).toBe('target-unresponsive');
    expect(report.errors).toContainEqual({ source: 'run', message: 'the run stopped early: the target stopped answering' });
  });

  it('an account that cannot be read is a run error, not a crash', () => {
    const input = fakeInput();
    const report = buildReport({
      ...input,
      accounting: () => {
        throw new Error('disk gone');
      },
    });
    expect(report.errors).toContainEqual({ source: 'run', message: "the run's account could not be read: disk gone" });
  });
});
