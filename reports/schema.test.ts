import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { fakeInput } from './fake-run.js';
import { reportSchemaPath, validateReport } from './schema.js';
import { renderReport, ReportWriteError } from './write.js';

describe('specs/report.schema.json', () => {
  it('is a 2020-12 schema', () => {
    expect(JSON.parse(readFileSync(reportSchemaPath, 'utf8')).$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('accepts reports built from fake runs, with and without a run context', () => {
    for (const input of [fakeInput(), fakeInput({ context: undefined }), fakeInput({ checks: [] }), fakeInput({ only: ['LIST-*'] })]) {
      const result = validateReport(buildReport(input));
      expect(result.errors).toEqual([]);
    }
  });

  it('rejects a failed requirement without failures, an unknown status and a missing summary', () => {
    const report = buildReport(fakeInput());
    const broken = structuredClone(report);
    const failed = broken.requirements.find((r) => r.status === 'failed');
    if (failed) failed.failures = [];
    expect(validateReport(broken).valid).toBe(false);
    expect(validateReport({ ...report, requirements: [{ ...report.requirements[0], status: 'green' }] }).valid).toBe(false);
    const { summary: _summary, ...noSummary } = report;
    expect(validateReport(noSummary).valid).toBe(false);
  });

  it('refuses loudly to render a report that does not match', () => {
    const report = buildReport(fakeInput());
    const bad = { ...report, seed: 'seven' } as unknown as typeof report;
    expect(() => renderReport(bad, [])).toThrow(ReportWriteError);
    expect(() => renderReport(bad, [])).toThrow(/\/seed: must be integer,null|\/seed/);
  });
});
