// The `conformance diff` command: arguments, exit codes, output formats, input errors and git revisions.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { diffHelp, runDiffWith } from './commands/diff.js';

const fixtures = fileURLToPath(new URL('../fixtures/diff/', import.meta.url));
const pair = (name: string) => [join(fixtures, name, 'old.json'), join(fixtures, name, 'new.json')];

async function run(argv: string[], cwd = process.cwd()) {
  let stdout = '';
  let stderr = '';
  const code = await runDiffWith(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), cwd });
  return { code, stdout, stderr };
}

describe('conformance diff', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'diff-cli-'));
    writeFileSync(join(dir, 'broken.json'), '{ "openapi": ');
    writeFileSync(join(dir, 'broken.yaml'), 'openapi: 3.1.0\ninfo: [1,\npaths: {}\n');
    writeFileSync(join(dir, 'swagger.json'), JSON.stringify({ swagger: '2.0', info: { version: '1.0.0' } }));
    writeFileSync(join(dir, 'ref-to-nothing.json'), readFileSync(join(fixtures, 'input-ref-unresolved', 'new.json')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('--help prints the usage and exits 0', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(diffHelp);
    expect(diffHelp).toMatch(/Exit codes/);
  });

  test.each([[[]], [['one.json']], [['a', 'b', 'c']], [['--bogus', 'a', 'b']], [['--format', 'xml', 'a', 'b']], [['--rev', 'HEAD', 'a', 'b']]])(
    'usage error %j exits 2 with DIFF_USAGE',
    async (argv) => {
      const r = await run(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/\[DIFF_USAGE\]/);
    },
  );

  test('unchanged document: exit 0, text says no changes', async () => {
    const r = await run(pair('no-change'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/No changes\./);
    expect(r.stdout).toMatch(/required bump: none; ok/);
  });

  test('breaking within the major: exit 1; one entry per edit, with location, affected operations and rule', async () => {
    const r = await run(pair('response-field-removed'));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Breaking \(1 change\)$/m);
    expect(r.stdout).toMatch(/\[response\.property\.removed\] property "note" removed/);
    expect(r.stdout).toContain('at /components/schemas/Item/properties/note');
    expect(r.stdout).toContain('affects 3 operations: GET /api/public/v1/items, POST /api/public/v1/items, GET /api/public/v1/items/{id}');
    expect(r.stdout).toMatch(/rule: §9 breaking: removing or renaming/);
    expect(r.stdout).toMatch(/x BREAKING_WITHIN_MAJOR/);
  });

  test('--format json gives the machine shape', async () => {
    const r = await run([...pair('request-validation-relaxed'), '--format', 'json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(['breaking', 'changes', 'version']);
    expect(out.breaking).toBe(false);
    expect(out.version).toMatchObject({ old: '1.0.0', new: '1.1.0', required: 'minor', ok: true, problems: [] });
    for (const c of out.changes) expect(Object.keys(c)).toEqual(expect.arrayContaining(['kind', 'classification', 'location', 'rule', 'message']));
  });

  test.each([
    ['missing.json', 'DIFF_FILE_UNREADABLE'],
    ['broken.json', 'DIFF_NOT_JSON'],
    ['broken.yaml', 'DIFF_NOT_YAML'],
    ['swagger.json', 'DIFF_NOT_OPENAPI_31'],
    ['ref-to-nothing.json', 'DIFF_REF_UNRESOLVED'],
  ])('input %s exits 2 with %s (json mode prints the error as data)', async (file, code) => {
    const text = await run([join(dir, file), pair('no-change')[1]!]);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain(`[${code}]`);
    const json = await run([join(dir, file), pair('no-change')[1]!, '--format', 'json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error.code).toBe(code);
  });

  describe('git revisions', () => {
    let repo: string;
    beforeAll(() => {
      repo = join(dir, 'repo');
      mkdirSync(join(repo, 'specs'), { recursive: true });
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, stdio: 'ignore' });
      git('init', '-q');
      writeFileSync(join(repo, 'specs', 'openapi.json'), readFileSync(pair('response-field-added')[0]!));
      git('add', '.');
      git('commit', '-q', '-m', 'v1.0.0');
      writeFileSync(join(repo, 'specs', 'openapi.json'), readFileSync(pair('response-field-added')[1]!));
    });

    test('--rev REV compares specs/openapi.json at REV with the working copy', async () => {
      const r = await run(['--rev', 'HEAD', '--format', 'json'], repo);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect([...new Set(JSON.parse(r.stdout).changes.map((c: { kind: string; }) => c.kind))]).toEqual(['response.property.added']);
    });

    test('git:REV and git:REV:PATH read the revision; from a subdirectory too', async () => {
      const r = await run(['git:HEAD', 'git:HEAD:specs/openapi.json'], join(repo, 'specs'));
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/git:HEAD:specs\/openapi\.json \(1\.0\.0\)/);
      expect(r.stdout).toMatch(/No changes\./);
    });

    test('an unknown revision exits 2 with DIFF_GIT_UNREADABLE', async () => {
      const r = await run(['--rev', 'no-such-rev'], repo);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('[DIFF_GIT_UNREADABLE]');
    });
  });
});
