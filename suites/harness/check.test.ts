// The checks as the fault sweep collects them (suites/self/sweep.ts) are the run's: each file's
// checks under the file's concern, as the run and the report name it (`auth`, not `auth.check.ts`),
// with the requirement ids the registrations read from the source.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { concernOf } from '../../contract/check.js';
import { collectChecks } from './check.js';
import { suiteRegistrations } from './registration/registrations.js';

const suitesDir = fileURLToPath(new URL('..', import.meta.url));
const files = readdirSync(suitesDir).filter((f) => f.endsWith('.check.ts')).sort();

describe('collectChecks', () => {
  test('names each check by the concern of its file, and declares no vitest test', async () => {
    const checks = await collectChecks(files.map((f) => join(suitesDir, f)));
    expect(new Set(checks.map((c) => c.concern))).toEqual(new Set(files.map(concernOf)));
    expect(checks.find((c) => c.concern.includes('.'))).toBeUndefined();
    const registrations = await suiteRegistrations(suitesDir);
    // A registration in a loop declares one check per turn: compared as sets.
    const declared = (list: readonly { concern: string; requirements: string[]; }[]) => new Set(list.map((c) => `${c.concern}: ${c.requirements.join(', ')}`));
    expect(declared(checks)).toEqual(declared(registrations));
  }, 30_000);
});
