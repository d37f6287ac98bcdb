import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { fakeInput, PLANTED_KEY } from './fake-run.js';
import { redactDeep, redactString, secretsFrom } from './redact.js';
import { writeReport } from './write.js';

describe('secretsFrom', () => {
  it('takes key-like settings and names the replacement after the variable', () => {
    const secrets = secretsFrom({
      CONFORMANCE_API_KEY: 'aaaaaaaaaa',
      CONFORMANCE_API_KEY_OTHER_TEAM: 'bbbbbbbbbb',
      CONFORMANCE_BASE_URL: 'http://x',
      PATH: '/usr/bin',
    });
    expect(secrets).toEqual([
      { value: 'aaaaaaaaaa', replacement: '$CONFORMANCE_API_KEY' },
      { value: 'bbbbbbbbbb', replacement: '$CONFORMANCE_API_KEY_OTHER_TEAM' },
    ]);
  });

  it('ignores values too short to be keys', () => {
    expect(secretsFrom({ CONFORMANCE_API_KEY: 'abc' })).toEqual([]);
  });
});

describe('redaction', () => {
  const secrets = [{ value: 'key-1234567', replacement: '$A' }, { value: 'key-1234567-long', replacement: '$B' }];

  it('replaces a longer key whole before a key it contains', () => {
    expect(redactString('x key-1234567-long y key-1234567', secrets)).toBe('x $B y $A');
  });

  it('reaches nested strings and property names', () => {
    expect(redactDeep({ a: ['key-1234567'], 'key-1234567': { b: 1 } }, secrets)).toEqual({ a: ['$A'], $A: { b: 1 } });
  });
});

describe('no key in any written file', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('removes a key planted in a header, a body, an error message and a check name', async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-redact-'));
    const input = fakeInput();
    const checks = input.checks.map((c, i) => (i === 1 ? { ...c, name: `${c.name} ${PLANTED_KEY}` } : c));
    const report = buildReport({ ...input, checks });
    expect(JSON.stringify(report)).toContain(PLANTED_KEY); // the fake really carries it
    await writeReport(dir, report, secretsFrom(input.context?.settings));
    const files = await readdir(dir);
    // the reproduction script of each cause is a written file too
    expect(files.sort()).toEqual(['conformance.json', 'index.html', 'junit.xml', 'reproduce-run-C1.sh', 'reproduce-run-C2.sh']);
    for (const f of files) {
      const text = await readFile(join(dir, f), 'utf8');
      expect(text, f).not.toContain(PLANTED_KEY);
      expect(text, f).toContain('$CONFORMANCE_API_KEY');
    }
  });
});
