// Every check names known requirement ids, and every testable requirement of the server has a
// check. Requirements on clients are honoured by the suite's own schemas and proven by the project
// test specs/client-tolerance.test.ts; those about the API description by `conformance diff`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { coverage, requirements } from '../../specs/requirements.js';
import { idListsIn } from './registration/registration-reader.js';
import { suiteRegistrations } from './registration/registrations.js';

const suitesDir = fileURLToPath(new URL('..', import.meta.url));
// Read as the run reads them (suites/conformance.config.ts) and `conformance requirements` lists them.
const registrations = await suiteRegistrations(suitesDir);
/** `[`, then each id or spread on its own line, then `]` on its own line. */
const ONE_PER_LINE = /^\n(?:[ \t]*(?:'[A-Z0-9-]+'|\.\.\.[A-Z_]+),\n)+[ \t]*$/;

describe('suite coverage of the requirement catalog', () => {
  test('the suites register checks', () => {
    expect(registrations.length).toBeGreaterThan(40);
    expect(new Set(registrations.map((r) => r.file)).size).toBeGreaterThanOrEqual(12);
  });

  test('every check names at least one id, and only ids of the catalog', () => {
    expect(registrations.filter((r) => r.requirements.length === 0)).toEqual([]);
    const { unknown } = coverage(registrations.flatMap((r) => r.requirements));
    expect(unknown).toEqual([]);
  });

  test('every testable server requirement has a check', () => {
    const { uncovered } = coverage(registrations.flatMap((r) => r.requirements), { subjects: ['server'] });
    expect(uncovered).toEqual([]);
  });

  test('every client requirement is proven by a project test that names it', () => {
    const proof = readFileSync(new URL('../../specs/client-tolerance.test.ts', import.meta.url), 'utf8');
    const clientIds = requirements.filter((r) => r.subject === 'client' && r.level !== 'not-testable').map((r) => r.id);
    expect(clientIds.length).toBeGreaterThan(0);
    expect(clientIds.filter((id) => !proof.includes(`[${id}]`))).toEqual([]);
  });

  // One id a line: a change of what a check covers is one line of a diff, and the ids read like test262's frontmatter.
  test('every registration lists its ids one per line', () => {
    const crammed = readdirSync(suitesDir)
      .filter((f) => f.endsWith('.check.ts'))
      .flatMap((f) =>
        idListsIn(f, readFileSync(join(suitesDir, f), 'utf8')).filter((ids) => !ONE_PER_LINE.test(ids)).map((ids) => `${f}: [${ids.replace(/\s+/g, ' ')}]`)
      );
    expect(crammed).toEqual([]);
  });
});
