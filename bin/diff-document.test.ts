// `conformance diff` on two API documents (Markdown): edit pairs of the real document written to files,
// the same output formats and exit codes as for OpenAPI documents.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { edit, original, release } from '../specs/document/edits.js';
import { diffHelp, runDiffWith } from './commands/diff.js';

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runDiffWith(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), cwd: process.cwd() });
  return { code, stdout, stderr };
}

describe('conformance diff <old.md> <new.md>', () => {
  let dir: string;
  const file = (name: string) => join(dir, name);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'document-diff-'));
    writeFileSync(file('old.md'), original);
    writeFileSync(file('added.md'),
      release(edit(original, '| probability | number | |\n', '| probability | number | |\n| priority | integer | |\n'), '1.7.0', 'Adds `priority`.'));
    writeFileSync(file('removed.md'), release(edit(original, '| probability | number | |\n', ''), '1.7.0', 'Drops `probability`.'));
    writeFileSync(file('no-bump.md'), edit(original, '| 25 MB |', '| 50 MB |'));
    writeFileSync(file('broken.md'), edit(original, '| probability | number | |', '| probability | number |'));
    writeFileSync(file('openapi.json'), '{}');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the help names the Markdown reading', () => {
    expect(diffHelp).toMatch(/When both documents are Markdown/);
    expect(diffHelp).toContain('DOC_TABLE_MALFORMED');
  });

  test('unchanged: exit 0, no changes', async () => {
    const r = await run(file('old.md'), 'specs/public-api-v1.md');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/No changes\.\n/);
    expect(r.stdout).toMatch(/required bump: none; ok\n$/);
  });

  test('an added optional field with a MINOR bump and its changelog row: exit 0', async () => {
    const r = await run(file('old.md'), file('added.md'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[response.property.added] field "priority" added (integer)');
    expect(r.stdout).toContain('Version: 1.6.0 -> 1.7.0; required bump: minor; ok');
  });

  test('a removed field within the major: exit 1, text grouped with location and rule', async () => {
    const r = await run(file('old.md'), file('removed.md'));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Breaking \(1 change\)$/m);
    expect(r.stdout).toContain('at §2 Project/probability');
    expect(r.stdout).toMatch(/x BREAKING_WITHIN_MAJOR/);
  });

  test('a change without a version bump: exit 1; --format json gives the machine shape', async () => {
    const r = await run(file('old.md'), file('no-bump.md'), '--format', 'json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['changes', 'version', 'breaking']);
    expect(out.changes).toEqual([
      expect.objectContaining({ kind: 'request.constraint.relaxed', classification: 'non-breaking', location: '§8 Limits/Upload size' }),
    ]);
    expect(out.version.problems.map((p: { code: string; }) => p.code)).toEqual(['VERSION_NOT_RAISED']);
  });

  test('git revisions: git:REV:PATH.md, and --rev with a Markdown document', async () => {
    expect((await run('git:HEAD:specs/public-api-v1.md', 'specs/public-api-v1.md')).code).toBe(0);
    const r = await run('--rev', 'HEAD', 'specs/public-api-v1.md');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^git:HEAD:specs\/public-api-v1\.md \(1\.6\.0\) -> specs\/public-api-v1\.md \(1\.6\.0\)/);
  });

  test.each([
    [['old.md', 'openapi.json'], 'DIFF_USAGE'],
    [['old.md', 'missing.md'], 'DOC_FILE_UNREADABLE'],
    [['old.md', 'broken.md'], 'DOC_TABLE_MALFORMED'],
  ])('%j exits 2 with %s, as data in json mode', async (names, code) => {
    const [a, b] = names.map(file) as [string, string];
    const text = await run(a, b);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain(`[${code}]`);
    const json = await run(a, b, '--format', 'json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error.code).toBe(code);
  });

  test('--rev with a document outside the repository is a usage error', async () => {
    const r = await run('--rev', 'HEAD', file('old.md'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\[DIFF_USAGE\] --rev: .* is outside the repository/);
  });
});
