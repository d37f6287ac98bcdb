// §9 rules for clients, which the suite itself is: "REST clients must ignore unknown fields",
// "clients must tolerate unknown values" of enums, and new error codes are non-breaking.
// The suite honours them through the schemas it validates every response with, so they are
// proven here, over every response schema and its valid fixtures, rather than against a target
// (no server can make the suite break them; closing a schema can).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { schema, type SchemaName, schemaNames, validate } from './index.js';

const validDir = fileURLToPath(new URL('../fixtures/schemas/valid/', import.meta.url));
const isRequestBody = (name: string) => /-(create|patch)$/.test(name);
const responseSchemas = schemaNames.filter((n) => !isRequestBody(n));

function fixturesOf(name: SchemaName): { file: string; value: Record<string, unknown>; }[] {
  return readdirSync(join(validDir, name)).map((file) => ({
    file,
    value: JSON.parse(readFileSync(join(validDir, name, file), 'utf8')) as Record<string, unknown>,
  }));
}

/** Properties whose schema lists example values: the document's "value seen", an open set. */
function openEnumProperties(name: SchemaName): string[] {
  const props = (schema(name) as { properties?: Record<string, { examples?: unknown[]; type?: unknown; }>; }).properties ?? {};
  return Object.entries(props).filter(([, p]) => Array.isArray(p.examples) && p.type === 'string').map(([k]) => k);
}

describe('the suite tolerates what §9 says clients must tolerate', () => {
  test.each(responseSchemas)('[RES-UNKNOWN-FIELDS-TOLERATED] %s: a valid response with unknown fields added still validates', (name) => {
    for (const { file, value } of fixturesOf(name)) {
      const extended = { ...value, x_future_field: { nested: [1, 'two'] }, x_future_flag: true };
      const result = validate(name, extended);
      expect(result.valid, `${name}/${file}: ${JSON.stringify(result.errors)}`).toBe(true);
    }
  });

  test.each(responseSchemas.filter((n) => openEnumProperties(n).length > 0))(
    '[VER-UNKNOWN-ENUM-TOLERATED] %s: unseen values of enumerated fields still validate',
    (name) => {
      for (const { file, value } of fixturesOf(name)) {
        const changed = Object.fromEntries(openEnumProperties(name).map((p) => [p, `x-unseen-${p}`]));
        const result = validate(name, { ...value, ...changed });
        expect(result.valid, `${name}/${file}: ${JSON.stringify(result.errors)}`).toBe(true);
      }
    },
  );

  test('[VER-UNKNOWN-ENUM-TOLERATED] the open enumerated fields are found (the test above is not empty)', () => {
    expect(openEnumProperties('project')).toEqual(expect.arrayContaining(['rate_type', 'source', 'waiting_on', 'work_mode']));
    expect(openEnumProperties('stage')).toEqual(expect.arrayContaining(['kind', 'color']));
  });

  test.each(['error', 'error-short'] as const)('[VER-NONBREAKING-NEW-ERROR-CODES] %s: an error code never seen before still validates', (name) => {
    expect(validate(name, { error: { code: 'x_new_code_in_a_later_minor', message: 'm' } }).valid).toBe(true);
  });
});
