// `conformance requirements check <document.md>`: the catalog against a changed API document.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edit, original } from '../specs/document/edits.js';
import { cli } from './cli-in-process.js';

describe('conformance requirements check', () => {
  let dir: string;
  const file = (name: string) => join(dir, name);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'requirements-check-'));
    writeFileSync(file('reworded.md'),
      edit(original, 'With the same `Idempotency-Key` and a different file, the response is 422.',
        'With the same `Idempotency-Key` and a different file, the response is 409.'));
    writeFileSync(file('added.md'), edit(original, 'Scope tokens have no wildcards.', 'Scope tokens have no wildcards. Keys never expire.'));
    writeFileSync(file('broken.md'), 'no title\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the unchanged document: exit 0, no drift', async () => {
    const r = await cli('requirements', 'check', 'specs/public-api-v1.md');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Every quote of the catalog is in the document.');
    expect(r.stdout).toMatch(/No drift\.\n$/);
  });

  it('a reworded quoted sentence: exit 1, the entry, its quote, the nearest sentence and what it checks', async () => {
    const r = await cli('requirements', 'check', file('reworded.md'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  UPLOAD-IDEM-DIFFERENT-FILE-422  §4 Upload rules, rule 3\n');
    expect(r.stdout).toContain('    quote:   "With the same `Idempotency-Key` and a different file, the response is 422."\n');
    expect(r.stdout).toMatch(/ {4}nearest: "With the same `Idempotency-Key` and a different file, the response is 409\." \(line 283, similarity 0\.\d+\)\n/);
    expect(r.stdout).toContain('    UPLOAD-IDEM-DIFFERENT-FILE-422 checks: ');
    expect(r.stdout).toMatch(/Normative sentences no entry quotes \(1, new relative to specs\/public-api-v1\.md\):\n {2}line 283 {2}§4 /);
  });

  it('a new normative sentence: exit 1, listed as unquoted; --json gives the machine shape', async () => {
    const r = await cli('requirements', 'check', file('added.md'), '--json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['document', 'baseline', 'all', 'missing', 'unquoted', 'drift']);
    expect(out).toMatchObject({
      baseline: 'specs/public-api-v1.md',
      all: false,
      missing: [],
      unquoted: [{ section: '5 Authentication', line: 292, text: 'Keys never expire.' }],
      drift: true,
    });
  });

  it("--all lists the unquoted normative sentences the catalog's document already has", async () => {
    const r = await cli('requirements', 'check', 'specs/public-api-v1.md', '--all');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Normative sentences no entry quotes \(\d+\):\n/);
    expect(r.stdout).toContain('§1 What the service does: The API is reachable over REST.');
  });

  it('usage and input errors exit 2', async () => {
    expect(await cli('requirements', 'check')).toMatchObject({ code: 2, stderr: expect.stringContaining('conformance requirements check: give one document') });
    expect(await cli('requirements', 'check', 'a.md', '--frobnicate')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("unknown option '--frobnicate'"),
    });
    expect(await cli('requirements', 'check', file('missing.md'))).toMatchObject({ code: 2, stderr: expect.stringContaining('[DOC_FILE_UNREADABLE]') });
    const json = await cli('requirements', 'check', file('broken.md'), '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error.code).toBe('DOC_NOT_API_DOCUMENT');
  });

  it('the help of `requirements` describes check', async () => {
    const r = await cli('requirements', 'check', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: conformance requirements check <document.md> [--json] [--all]');
  });
});
