import { describe, expect, it } from 'vitest';
import { buildReport, NO_CHECK, NOT_SELECTED } from './build-report.js';
import { fakeChecks, fakeInput } from './fake-run.js';

const byId = (report: ReturnType<typeof buildReport>, id: string) => {
  const r = report.requirements.find((x) => x.id === id);
  if (!r) throw new Error(`no ${id}`);
  return r;
};

describe('buildReport', () => {
  const report = buildReport(fakeInput());

  it('lists every catalog requirement, in catalog order', () => {
    expect(report.requirements.map((r) => r.id)).toEqual(fakeInput().catalog.map((r) => r.id));
  });

  it('fails a requirement when any of its checks failed, even if another passed', () => {
    const r = byId(report, 'LIST-CURSOR-UNDECODABLE');
    expect(r.status).toBe('failed');
    expect(r.checks.map((c) => c.status).sort()).toEqual(['failed', 'passed']);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({ seed: 42, path: '3:1:0', response: { status: 200 } });
  });

  it('attributes a check naming two requirements to both', () => {
    expect(byId(report, 'VER-CURSOR-400').status).toBe('failed');
  });

  it('passes a requirement with a passed check and no failure', () => {
    expect(byId(report, 'LIST-PAGE-ENVELOPE').status).toBe('passed');
  });

  it('skips with the check skip reason, or says no check was selected', () => {
    expect(byId(report, 'AUTH-BEARER-REQUIRED')).toMatchObject({ status: 'skipped', reason: 'needs CONFORMANCE_API_KEY_READ_ONLY' });
    const spec = byId(report, 'VER-BREAKING-ENVELOPES');
    expect(spec.status).toBe('skipped');
    expect(spec.reason).toMatch(/conformance diff/);
    const none = buildReport(fakeInput({ checks: [] }));
    expect(byId(none, 'UPLOAD-LIMIT')).toMatchObject({ status: 'skipped', reason: NO_CHECK });
  });

  it('marks not-testable requirements as such whatever their checks', () => {
    expect(byId(report, 'EVENTS-NOT-SHOWN').status).toBe('not-testable');
  });

  it('reads the concern from the module when the meta holds only the declared ids', () => {
    const r = byId(report, 'ISO-GET-OTHER-TEAM-404');
    expect(r.status).toBe('failed');
    expect(r.checks[0]?.concern).toBe('isolation');
    expect(r.failures[0]?.message).toMatch(/expected 200 to be 404/);
    expect(r.failures[0]?.request).toBeNull();
  });

  it('counts the summary over requirements', () => {
    expect(report.summary).toEqual({ passed: 3, failed: 5, blocked: 2, skipped: 2, notTestable: 2, total: 14 });
  });

  it('merges readings of all checks, keeping every distinct value', () => {
    expect(report.target.readings).toEqual({ 'cursor.encoding': 'opaque base64url', 'page.default-size': '20 | 25' });
  });

  it('skips requirements outside CONFORMANCE_ONLY with "not selected"', () => {
    const checks = fakeChecks().map((c) => (c.name.includes('UPLOAD-LIMIT') ? { ...c, state: 'skipped' as const, durationMs: 0 } : c));
    const r = buildReport(fakeInput({ checks, only: ['LIST-*'], isSelected: (id) => id.startsWith('LIST-') }));
    expect(byId(r, 'UPLOAD-LIMIT')).toMatchObject({ status: 'skipped', reason: NOT_SELECTED });
    expect(byId(r, 'UPLOAD-LIMIT').checks[0]?.reason).toBe(NOT_SELECTED);
    expect(byId(r, 'VER-BREAKING-ENVELOPES').reason).toBe(NOT_SELECTED);
    expect(r.only).toEqual(['LIST-*']);
  });

  it('reports a check still pending (interrupted run) as skipped', () => {
    const checks = fakeChecks().map((c) => (c.name.includes('UPLOAD-LIMIT') ? { ...c, state: 'pending' as const } : c));
    expect(byId(buildReport(fakeInput({ checks })), 'UPLOAD-LIMIT')).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/not run/) });
  });

  it('records checks naming unknown requirements as run errors', () => {
    const checks = [{
      name: 'x [NOPE-NOT-THERE]',
      moduleId: 'suites/x.check.ts',
      state: 'passed' as const,
      errors: [],
      durationMs: 1,
      meta: { requirements: ['NOPE-NOT-THERE'] },
    }];
    expect(buildReport(fakeInput({ checks })).errors).toEqual([
      { source: 'suites/x.check.ts', message: 'check "x [NOPE-NOT-THERE]" names unknown requirement NOPE-NOT-THERE' },
    ]);
  });

  it('reports a check blocked by a shared setup step as blocked, pointing at its root cause', () => {
    const r = byId(report, 'LIST-LIMIT');
    expect(r).toMatchObject({ status: 'blocked', failures: [], reason: expect.stringContaining('setup step "a project of team A" failed') });
    expect(r.checks[0]).toMatchObject({ status: 'blocked', cause: r.causes?.[0] });
  });

  it('groups failures with the same message into one root cause, the failing check and the blocked one together', () => {
    const cause = report.causes?.find((c) => c.failed.includes('RES-PROJECT-SHAPE'));
    expect(cause).toMatchObject({
      message: 'page of project does not match the page envelope: /data/*/title must be string',
      setup: ['a project of team A'],
      failed: ['RES-PROJECT-SHAPE'],
      blocked: ['LIST-LIMIT'],
      checks: { failed: [expect.stringContaining('GET /projects')], blocked: [expect.stringContaining('LIST-LIMIT')] },
    });
    expect(cause?.failure.response?.status).toBe(200);
    expect(report.causes?.map((c) => c.id)).toEqual(['C1', 'C2', 'C3', 'C4']);
  });

  it("fails only the requirement a failing assertion names; the check's other requirement was not reached", () => {
    expect(byId(report, 'LIST-FILTER-PROJECT-ID')).toMatchObject({ status: 'failed', failures: [{ message: expect.stringContaining('project_id') }] });
    expect(byId(report, 'LIST-FILTER-EMPLOYEE-ID')).toMatchObject({
      status: 'blocked',
      failures: [],
      reason: expect.stringMatching(/not reached: .* failed first on LIST-FILTER-PROJECT-ID/),
    });
  });

  it('reports a failure naming a requirement its check is not tagged with as a defect of the check', () => {
    const checks = fakeChecks().map((c) =>
      c.name.startsWith('undecodable cursor')
        ? { ...c, meta: { ...(c.meta as object), failure: { message: 'wrong', requirements: ['LIST-CURSOR-UNDECODABLE'], strays: ['LIST-PAGE-ENVELOPE'] } } }
        : c
    );
    const r = buildReport(fakeInput({ checks }));
    expect(r.errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/failed on requirement LIST-PAGE-ENVELOPE, which it is not tagged with/));
    expect(byId(r, 'LIST-CURSOR-UNDECODABLE').status).toBe('failed');
    expect(byId(r, 'VER-CURSOR-400').status).toBe('blocked');
    expect(byId(r, 'LIST-PAGE-ENVELOPE').status).toBe('passed');
  });

  it('keeps warnings with the checks and requirements that raised them', () => {
    expect(report.target.warnings).toEqual([{
      name: 'list.last-page',
      message: 'hasMore true followed by an empty last page',
      checks: ['the base path answers [GEN-BASE-PATH]'],
      requirements: ['GEN-BASE-PATH'],
    }]);
  });

  it('gives each failure the command that runs its check again with the seed and the fast-check path', () => {
    const mock = { fault: 'field-mistyped', deprecate: ['listCvs'], readings: [] };
    const r = buildReport(fakeInput({ mock }));
    expect(byId(r, 'LIST-CURSOR-UNDECODABLE').failures[0]?.replay).toBe(
      'npm start -- --only LIST-CURSOR-UNDECODABLE,VER-CURSOR-400 --seed 7 --path 3:1:0 --fault field-mistyped --deprecate listCvs',
    );
    expect(r.reproduce?.mock[1]).toMatch(
      /^MOCK_API_KEY_TEAM_A=\$CONFORMANCE_API_KEY .* npm run mock -- --port 4010 --seed 7 --fault field-mistyped --deprecate listCvs &$/,
    );
    expect(r.reproduce?.mock[0]).toContain('export CONFORMANCE_API_KEY=replay-team-a');
    const deployment = buildReport(
      fakeInput({ mock, context: { ...fakeInput().context, target: { kind: 'deployment', baseUrl: 'https://staging.example.test' } } }),
    );
    expect(deployment.reproduce).toBeUndefined();
    expect(byId(deployment, 'RES-PROJECT-SHAPE').failures[0]?.replay).toBe('npm start -- --only RES-PROJECT-SHAPE --seed 7');
  });

  it('fills what it can without a run context', () => {
    const r = buildReport(fakeInput({ context: undefined, seed: 99 }));
    expect(r.target).toMatchObject({ kind: 'unknown', baseUrl: null, shape: null });
    expect(r).toMatchObject({ specVersion: 'unknown', seed: 99, startedAt: '2026-01-02T03:04:00.000Z', durationMs: 1234 });
  });
});
