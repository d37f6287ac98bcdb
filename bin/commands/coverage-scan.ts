import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

// Which checks cover which requirement, read statically from the suites'
// `check(['ID', ...], 'title', ...)` registrations: no suite is imported, no target needed.

export interface RegisteredCheck {
  requirements: string[];
  title: string;
  concern: string;
  file: string;
  line: number;
}

const REGISTRATION = /\bcheck\(\s*\[([^\]]*)\]\s*,\s*(['"`])((?:\\.|(?!\2)[^\\])*)\2/g;
const STRING = /(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

export function scanSource(source: string, file: string): RegisteredCheck[] {
  const concern = basename(file).replace(/\.test\.ts$/, '');
  return [...source.matchAll(REGISTRATION)].map((m) => ({
    requirements: [...(m[1] ?? '').matchAll(STRING)].map((s) => s[2] ?? ''),
    title: m[3] ?? '',
    concern,
    file,
    line: source.slice(0, m.index).split('\n').length,
  }));
}

/** Every registration in `<suitesDir>/*.test.ts`, files in name order. */
export function scanSuites(suitesDir: string): RegisteredCheck[] {
  const files = readdirSync(suitesDir).filter((f) => f.endsWith('.test.ts')).sort();
  return files.flatMap((f) => scanSource(readFileSync(join(suitesDir, f), 'utf8'), join(basename(suitesDir), f)));
}
