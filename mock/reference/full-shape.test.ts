// The fullest shape decides which properties get a blank without compiling a schema with
// formats asserted (full-shape.ts `accepts`); the strict validator is the judge it must
// agree with, for every property of every schema.
import { describe, expect, it } from 'vitest';
import { schema, type SchemaName, schemaNames, validate } from '../../specs/index.js';
import { planOf } from './full-shape.js';

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

function strictlyAccepts(name: SchemaName, prop: string, _node: unknown, value: unknown): boolean {
  const errors = validate(name, { id: SAMPLE_ID, [prop]: value }, { formats: 'strict' }).errors;
  return !errors.some((e) => e.path === `/${prop}` || e.path.startsWith(`/${prop}/`));
}

const blanks = (name: SchemaName, judge?: typeof strictlyAccepts) => planOf(name, judge).map((p) => [p.name, p.blank ? JSON.stringify(p.blank()) : 'none']);

describe('blanks of the fullest shape', () => {
  const withProperties = schemaNames.filter((name) => (schema(name) as { properties?: object; }).properties !== undefined);

  it.each(withProperties)("are the strict validator's for %s", (name) => {
    expect(blanks(name)).toEqual(blanks(name, strictlyAccepts));
  });

  it('leave a date without a value out, and blank a nullable one with null', () => {
    const all = withProperties.flatMap((name) => planOf(name).map((p) => ({ name, prop: p.name, blank: p.blank?.() })));
    expect(all.some((p) => p.blank === '')).toBe(true);
    const dates = all.filter((p) => /_(at|date)$/.test(p.prop));
    expect(dates.length).toBeGreaterThan(0);
    expect(dates.every((p) => p.blank === undefined || p.blank === null)).toBe(true);
  });
});
