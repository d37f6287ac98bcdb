// YAML input: a document named .yaml or .yml (a file, a $ref target or git:REV:PATH) is read as YAML
// and compares exactly like its JSON rendering; a YAML syntax error is DIFF_NOT_YAML naming the line
// and column, and a JSON one DIFF_NOT_JSON, likewise.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { DiffInputError, loadDocument } from '../specs/diff/index.js';
import { runDiffWith } from './commands/diff.js';

const fixtures = fileURLToPath(new URL('../fixtures/diff/', import.meta.url));
const vector = (name: string, side: 'old' | 'new') => JSON.parse(readFileSync(join(fixtures, name, `${side}.json`), 'utf8'));

function errorOf(load: () => unknown): DiffInputError {
  try {
    load();
  } catch (error) {
    if (error instanceof DiffInputError) return error;
    throw error;
  }
  throw new Error('expected a DiffInputError');
}

async function run(argv: string[], cwd = process.cwd()) {
  let stdout = '';
  let stderr = '';
  const code = await runDiffWith(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), cwd });
  return { code, stdout, stderr };
}

describe('YAML documents', () => {
  let dir: string;
  const at = (name: string) => join(dir, name);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'diff-yaml-'));
    writeFileSync(at('old.yaml'), stringify(vector('path-parameter-type-changed', 'old')));
    writeFileSync(at('new.yml'), stringify(vector('path-parameter-type-changed', 'new')));
    writeFileSync(at('tabs.yaml'), 'openapi: 3.1.0\ninfo:\n  version: 1.0.0\n  title: [unclosed\npaths: {}\n');
    writeFileSync(at('trailing.json'), '{\n  "openapi": "3.1.0",\n}\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('.yaml and .yml files compare exactly like their JSON', async () => {
    const json = await run([
      join(fixtures, 'path-parameter-type-changed', 'old.json'),
      join(fixtures, 'path-parameter-type-changed', 'new.json'),
      '--format',
      'json',
    ]);
    const yaml = await run([at('old.yaml'), at('new.yml'), '--format', 'json']);
    expect(yaml.stderr).toBe('');
    expect(yaml.code).toBe(1);
    expect(yaml.stdout).toBe(json.stdout);
  });

  test('a YAML document against the same document in JSON: no changes', async () => {
    const r = await run([at('old.yaml'), join(fixtures, 'path-parameter-type-changed', 'old.json')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/No changes\./);
  });

  test('a YAML syntax error: DIFF_NOT_YAML naming line and column', async () => {
    const text = await run([at('tabs.yaml'), at('new.yml')]);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/\[DIFF_NOT_YAML\] .*tabs\.yaml is not valid YAML at line 5, column 1: /);
    const json = await run([at('tabs.yaml'), at('new.yml'), '--format', 'json']);
    expect(JSON.parse(json.stdout).error.code).toBe('DIFF_NOT_YAML');
    expect(errorOf(() => loadDocument(at('tabs.yaml'))).toJSON()).toMatchObject({ code: 'DIFF_NOT_YAML', line: 5, column: 1 });
  });

  test('a JSON syntax error names line and column too', () => {
    const error = errorOf(() => loadDocument(at('trailing.json')));
    expect(error.toJSON()).toMatchObject({ code: 'DIFF_NOT_JSON', line: 3, column: 1 });
    expect(error.message).toMatch(/trailing\.json is not JSON at line 3, column 1: /);
  });

  test('git:REV:PATH with a .yaml path reads YAML from the revision', async () => {
    const repo = at('repo');
    mkdirSync(join(repo, 'api'), { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, stdio: 'ignore' });
    git('init', '-q');
    writeFileSync(join(repo, 'api', 'openapi.yaml'), readFileSync(at('old.yaml')));
    git('add', '.');
    git('commit', '-q', '-m', 'old');
    writeFileSync(join(repo, 'api', 'openapi.yaml'), readFileSync(at('new.yml')));
    const r = await run(['git:HEAD:api/openapi.yaml', 'api/openapi.yaml'], repo);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^1 breaking, 0 non-breaking, 0 documentation-only change\(s\)$/m);
  });
});
