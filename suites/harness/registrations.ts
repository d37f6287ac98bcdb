// The requirement ids each suite file's checks name, read statically from `check([...], ...)`
// calls (string literals and spreads of `const NAME = [...]` arrays of the same file).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Registration { file: string; ids: string[] }

const literals = (text: string) => [...text.matchAll(/'([^']+)'/g)].map((m) => m[1]!);

export function registrationsIn(file: string, source: string): Registration[] {
  const constants = new Map<string, string[]>();
  for (const m of source.matchAll(/const\s+([A-Z_]+)\s*=\s*\[([^\]]*)\]/g)) constants.set(m[1]!, literals(m[2]!));
  const found: Registration[] = [];
  for (const m of source.matchAll(/\bcheck\(\s*\[([^\]]*)\]/g)) {
    const body = m[1]!;
    const spreads = [...body.matchAll(/\.\.\.([A-Z_]+)/g)].flatMap((s) => constants.get(s[1]!) ?? [`<unknown constant ${s[1]}>`]);
    found.push({ file, ids: [...literals(body.replace(/\.\.\.[A-Z_]+/g, '')), ...spreads] });
  }
  return found;
}

/** Every check registration of suites/*.check.ts. */
export function suiteRegistrations(suitesDir: string): Registration[] {
  return readdirSync(suitesDir)
    .filter((f) => f.endsWith('.check.ts'))
    .flatMap((f) => registrationsIn(f, readFileSync(join(suitesDir, f), 'utf8')));
}
