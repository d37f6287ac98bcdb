// The README stays a user's entry that tells the truth: short enough to read, every file it links
// to there, every setting it names one the suite knows, every `npm run` script it shows defined.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { environmentOnlyNames, settingNames } from '../contract/config-source.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The project's documents a reader reaches from the README. */
const DOCUMENTS = ['README.md', 'ARCHITECTURE.md', 'suites/README.md', 'mock/README.md', 'contract/README.md', 'bench/README.md'] as const;

const settings = new Set<string>([...settingNames, ...environmentOnlyNames]);
const scripts = new Set(Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string>; }).scripts));

describe('README.md', () => {
  const readme = read('README.md');

  test('is under 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThan(300);
  });

  test('shows the two commands: the main job and the project tests', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
  });

  test.each(DOCUMENTS.filter((d) => existsSync(join(ROOT, d))))('%s: every relative link names a file that exists', (doc) => {
    const links = [...read(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    expect(links.filter((l) => !existsSync(join(ROOT, dirname(doc), l)))).toEqual([]);
  });

  test.each(DOCUMENTS.filter((d) => existsSync(join(ROOT, d))))('%s: every CONFORMANCE_* setting it names exists', (doc) => {
    // `CONFORMANCE_PATH_…` families are written with an ellipsis; a name cut there is a prefix
    // a line showing the did-you-mean answer to a misspelled name names it on purpose
    const lines = read(doc).split('\n').filter((l) => !l.includes('did you'));
    const named = lines.flatMap((l) => [...l.matchAll(/\bCONFORMANCE_[A-Z0-9_]*[A-Z0-9]\b(?!…)/g)].map((m) => m[0]));
    const unknown = [...new Set(named)].filter((n) => !settings.has(n) && ![...settings].some((s) => s.startsWith(`${n}_`)));
    expect(unknown).toEqual([]);
  });

  test('every `npm run` script it shows is defined in package.json', () => {
    const shown = [...readme.matchAll(/npm run ([a-z][a-z0-9:-]*)/g)].map((m) => m[1]!);
    expect([...new Set(shown)].filter((s) => !scripts.has(s))).toEqual([]);
  });
});
