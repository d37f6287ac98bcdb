// Arbitraries derived from the schemas produce values the schemas accept.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  arbitraryOf,
  assignmentPatch,
  employeeCreate,
  employeePatch,
  fillable,
  filledOf,
  humanText,
  organizationCreate,
  sampleOf,
  TEXT_PIECES,
  valueOf,
  wrongTypeOf,
} from './arbitraries.js';
import { validate } from './index.js';
import { operations } from './surface.js';

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

describe("values of the surface's request fields", () => {
  const fieldsOf = (op: string) => operations().find((o) => o.op === op)!.fields;

  test('humanText holds accents, CJK, emoji and a combining mark, and a token a search finds', () => {
    for (const text of fc.sample(humanText, { seed: 7, numRuns: 20 })) {
      expect(text).toMatch(/^k[0-9a-f]{7} /);
      for (const kind of Object.keys(TEXT_PIECES) as (keyof typeof TEXT_PIECES)[]) expect(TEXT_PIECES[kind].some((p) => text.includes(p)), kind).toBe(true);
    }
  });

  test('a filled body has every field but references, server ids and arrays of unshown elements, and is valid', () => {
    for (
      const [op, schemaName] of [['createEmployee', 'employee-create'], ['createOrganization', 'organization-create'], [
        'updateProject',
        'project-patch',
      ]] as const
    ) {
      const body = sampleOf(filledOf(fieldsOf(op)), 11);
      expect(Object.keys(body).sort(), op).toEqual(fieldsOf(op).filter(fillable).map((f) => f.name).sort());
      expect(validate(schemaName, body).errors, op).toEqual([]);
    }
    const address = (sampleOf(filledOf(fieldsOf('createOrganization')), 3).addresses as Record<string, unknown>[])[0]!;
    expect(address).not.toHaveProperty('id');
    expect(address).toHaveProperty('buyer_identifier');
  });

  test('a value of another type is never valid for the field', () => {
    for (const f of fieldsOf('updateEmployee')) {
      expect(validate('employee-patch', { [f.name]: wrongTypeOf(f) }).valid, f.name).toBe(false);
      expect(validate('employee-patch', { [f.name]: sampleOf(valueOf(f), 5) }).valid, f.name).toBe(true);
    }
  });
});
