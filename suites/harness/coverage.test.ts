// Every check names known requirement ids, and every testable requirement of the server and the
// client has a check (requirements about the API description are checked by `conformance diff`).
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { coverage } from '../../specs/requirements.js';
import { registrationsIn, suiteRegistrations } from './registrations.js';

const suitesDir = fileURLToPath(new URL('..', import.meta.url));
const registrations = suiteRegistrations(suitesDir);

describe('suite coverage of the requirement catalog', () => {
  test('the suites register checks', () => {
    expect(registrations.length).toBeGreaterThan(40);
    expect(new Set(registrations.map((r) => r.file)).size).toBeGreaterThanOrEqual(12);
  });

  test('every check names at least one id, and only ids of the catalog', () => {
    expect(registrations.filter((r) => r.ids.length === 0)).toEqual([]);
    const { unknown } = coverage(registrations.flatMap((r) => r.ids));
    expect(unknown).toEqual([]);
  });

  test('every testable server and client requirement has a check', () => {
    const { uncovered } = coverage(registrations.flatMap((r) => r.ids), { subjects: ['server', 'client'] });
    expect(uncovered).toEqual([]);
  });

  test('the scan resolves spreads of id constants', () => {
    const source = "const IDS = ['B-ONE', 'B-TWO'];\ncheck(['A-ONE', ...IDS], 'title', async () => {});";
    expect(registrationsIn('x.test.ts', source)).toEqual([{ file: 'x.test.ts', ids: ['A-ONE', 'B-ONE', 'B-TWO'] }]);
  });
});
