// The one static reader of check registrations: `check(['ID', ...], 'title', ...)` calls in
// suites/*.check.ts, read without importing a suite or needing a target. The run's file
// selection (suites/conformance.config.ts), the coverage test and `conformance requirements`
// all read registrations through it, so they cannot disagree.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { concernOf } from '../../contract/check.js';

export interface Registration {
  requirements: string[];
  /** The title as written (a template literal keeps its `${...}` parts). */
  title: string;
  concern: string;
  /** Relative to the project root, e.g. suites/cursors.check.ts. */
  file: string;
  line: number;
}

const STRING = /(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
const REGISTRATION = /\bcheck\(\s*\[([^\]]*)\]\s*,\s*(['"`])((?:\\.|(?!\2)[^\\])*)\2/g;
/** `const NAME = ['A', 'B']` of the same file, which a registration may spread (`...NAME`). */
const CONSTANT = /const\s+([A-Z_]+)\s*=\s*\[([^\]]*)\]/g;
const SPREAD = /\.\.\.([A-Z_]+)/g;

const strings = (text: string) => [...text.matchAll(STRING)].map((m) => m[2] ?? '');

export function registrationsIn(file: string, source: string): Registration[] {
  const constants = new Map([...source.matchAll(CONSTANT)].map((m) => [m[1]!, strings(m[2]!)] as const));
  return [...source.matchAll(REGISTRATION)].map((m) => {
    const list = m[1] ?? '';
    const spread = [...list.matchAll(SPREAD)].flatMap((s) => constants.get(s[1]!) ?? [`<unknown constant ${s[1]}>`]);
    return {
      requirements: [...strings(list.replace(SPREAD, '')), ...spread],
      title: m[3] ?? '',
      concern: concernOf(file),
      file,
      line: source.slice(0, m.index).split('\n').length,
    };
  });
}

/** Every registration of `<suitesDir>/*.check.ts`, files in name order. */
export function suiteRegistrations(suitesDir: string): Registration[] {
  const folder = basename(suitesDir);
  return readdirSync(suitesDir)
    .filter((f) => f.endsWith('.check.ts'))
    .sort()
    .flatMap((f) => registrationsIn(`${folder}/${f}`, readFileSync(join(suitesDir, f), 'utf8')));
}
