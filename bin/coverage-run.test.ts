// The coverage table of a run, as a person runs it (tsx bin/cli.ts run, a child process) against
// the bundled mock: conformance.json holds every cell the table plans for the target, each with
// what the run did with it and a reason on every cell not checked; with --only, the cells of the
// checks left out say so; the terminal counts them in one line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cellId, DIMENSIONS } from '../contract/check.js';
import type { Report } from '../reports/types.js';
import { spawnCli } from './cli-child.js';

async function run(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string; report: Report; }> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-coverage-'));
  try {
    const { code, stdout, stderr } = await spawnCli(['run', '--report-dir', dir, ...args], {}, { timeoutMs: 170_000 }).exited;
    return { code, stdout, stderr, report: JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the coverage table of a run against the bundled mock', () => {
  test('every planned cell once, checked or with the reason it was not', async () => {
    const { code, stdout, stderr, report } = await run([]);
    expect(code, stdout.slice(-3000) + stderr).toBe(0);
    const coverage = report.coverage!;
    expect(coverage.dimensions.map((d) => d.name)).toEqual([...DIMENSIONS]);
    expect(new Set(coverage.cells.map(cellId)).size).toBe(coverage.cells.length);
    expect(coverage.counts.total).toBe(coverage.cells.length);
    expect(coverage.cells.filter((c) => c.outcome !== 'checked' && !c.reason?.text)).toEqual([]);
    // on the reference, every cell a check runs is checked: the rest the table or the check reasons
    expect(coverage.cells.filter((c) => c.outcome === 'failed' || c.outcome === 'not-run')).toEqual([]);
    expect(coverage.cells.filter((c) => c.reason?.kind === 'not-reached' || c.reason?.kind === 'no-check')).toEqual([]);
    expect(coverage.cells.filter((c) => c.outcome === 'checked' && !c.check)).toEqual([]);
    expect(coverage.counts.checked).toBeGreaterThan(coverage.counts.total / 2);
    const c = coverage.counts;
    expect(stdout).toContain(
      `  coverage: ${c.checked.toLocaleString('en-US')} of ${
        c.total.toLocaleString('en-US')
      } cells checked · 0 failed · ${c.skipped} skipped · ${c.notApplicable} not applicable · 0 not run`,
    );
  }, 180_000);

  test("--only: the cells of the checks it leaves out say so, the selected check's are checked", async () => {
    const { code, stdout, stderr, report } = await run(['--only', 'LIST-CURSOR-OTHER-ORDER']);
    expect(code, stdout.slice(-3000) + stderr).toBe(0);
    const coverage = report.coverage!;
    const cursors = coverage.cells.filter((c) => c.dimension === 'cursors');
    expect(cursors.length).toBeGreaterThan(0);
    expect(cursors.filter((c) => c.outcome !== 'checked')).toEqual([]);
    const fields = coverage.cells.filter((c) => c.dimension === 'fields' && !['not-applicable', 'skipped'].includes(c.outcome));
    expect(fields.length).toBeGreaterThan(0);
    for (const cell of fields) {
      expect(cell).toMatchObject({
        outcome: 'not-run',
        reason: { kind: 'not-selected', text: expect.stringMatching(/^its check was (not selected|excluded)/) },
      });
    }
  }, 180_000);
});
