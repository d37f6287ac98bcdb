// Arbitraries derived from the schemas produce values the schemas accept.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { arbitraryOf, assignmentPatch, employeeCreate, employeePatch, organizationCreate } from './arbitraries.js';
import { validate } from './index.js';

describe('schema-derived arbitraries', () => {
  test.each([
    ['employee-create', employeeCreate],
    ['employee-patch', employeePatch],
    ['assignment-patch', assignmentPatch],
    ['organization-create', organizationCreate],
    ['assignment-create', arbitraryOf('assignment-create')],
    ['organization-patch', arbitraryOf('organization-patch')],
  ] as const)('%s values validate against their schema', (name, arb) => {
    fc.assert(fc.property(arb, (value) => validate(name, value).valid), { numRuns: 200, seed: 1 });
  });

  test('required fields are always present', () => {
    fc.assert(fc.property(employeeCreate, (v) => typeof v.first_name === 'string'), { numRuns: 100, seed: 2 });
  });
});
