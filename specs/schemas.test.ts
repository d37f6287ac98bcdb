import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { generateTypes, TYPES_PATH } from './gen-types.js';
import { isSchemaName, schema, schemaId, type SchemaName, schemaNames, validate, validatePage } from './index.js';

// fixtures/schemas/{valid,invalid}/<name>/*.json: <name> is a schema name, or
// page-of-<item> for a page envelope whose items are <item>.
const FIXTURES = new URL('../fixtures/schemas/', import.meta.url);
type Kind = 'valid' | 'invalid';

function fixtures(kind: Kind): { target: string; file: string; value: unknown; }[] {
  const dir = new URL(`${kind}/`, FIXTURES);
  return readdirSync(dir).flatMap((target) =>
    readdirSync(new URL(`${target}/`, dir))
      .filter((f) => f.endsWith('.json'))
      .map((file) => ({
        target,
        file,
        value: JSON.parse(readFileSync(new URL(`${target}/${file}`, dir), 'utf8')) as unknown,
      }))
  );
}

function check(target: string, value: unknown, formats: 'lenient' | 'strict' = 'lenient') {
  const item = target.startsWith('page-of-') ? target.slice('page-of-'.length) : undefined;
  if (item !== undefined) {
    if (!isSchemaName(item)) throw new Error(`unknown page item schema: ${target}`);
    return validatePage(item, value, { formats });
  }
  if (!isSchemaName(target)) throw new Error(`fixture directory is not a schema name: ${target}`);
  return validate(target, value, { formats });
}

const valid = fixtures('valid');
const invalid = fixtures('invalid');
const count = (list: typeof valid, target: string) => list.filter((f) => f.target === target).length;

describe('schema documents', () => {
  test.each(schemaNames)('%s compiles and carries its $id and title', (name) => {
    const doc = schema(name) as { $id?: string; $schema?: string; title?: string; };
    expect(doc.$id).toBe(schemaId(name));
    expect(doc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(typeof doc.title).toBe('string');
    expect(validate(name, undefined).valid).toBe(false);
  });

  test('no schema closes an object (responses allow unknown fields, bodies ignore them)', () => {
    for (const name of schemaNames) expect(JSON.stringify(schema(name)), name).not.toContain('"additionalProperties":false');
  });

  test('the only enumeration is entity_type (every other set of values is open)', () => {
    const enums: string[] = [];
    walk(schemaNames.map((n) => [n, schema(n)] as const), (path, key, node) => {
      if (key === 'enum') enums.push(path);
      return node;
    });
    expect(enums).toEqual(['attachment/properties/entity_type/enum']);
  });

  test('ids are uuid, *_at date-time, *_date date (wherever typed directly)', () => {
    walk(schemaNames.map((n) => [n, schema(n)] as const), (path, key, node) => {
      const prop = node as { type?: unknown; format?: string; $ref?: string; };
      if (!path.includes('/properties/') || prop.$ref || typeof prop !== 'object') return node;
      if (key === 'id' || key.endsWith('_id')) {
        if (key !== 'vat_id' && key !== 'source_external_id') expect(prop.format, path).toBe('uuid');
      } else if (key.endsWith('_at')) expect(prop.format, path).toBe('date-time');
      else if (key.endsWith('_date')) expect(prop.format, path).toBe('date');
      return node;
    });
  });
});

describe('fixtures', () => {
  const targets = [
    ...schemaNames,
    ...['project', 'project-legacy', 'assignment', 'organization', 'organization-legacy', 'cv', 'attachment'].map((n) => `page-of-${n}`),
  ];

  test.each(targets)('%s has at least one valid and two invalid fixtures', (target) => {
    expect(count(valid, target)).toBeGreaterThanOrEqual(1);
    expect(count(invalid, target)).toBeGreaterThanOrEqual(2);
  });

  test.each(valid.map((f) => [`${f.target}/${f.file}`, f] as const))('valid %s', (_, f) => {
    expect(check(f.target, f.value).errors).toEqual([]);
    // Valid fixtures write RFC 3339 timestamps, so they pass the strict format mode too.
    expect(check(f.target, f.value, 'strict').errors).toEqual([]);
  });

  test.each(invalid.map((f) => [`${f.target}/${f.file}`, f] as const))('invalid %s', (_, f) => {
    const result = check(f.target, f.value);
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
  });
});

describe('behaviour the suites rely on', () => {
  const project = { id: '1b4e28ba-2fa1-41d2-83f2-0a1b2c3d4e5f', title: 'x', status: 'active', stage: { id: '51a6e003-1c2d-4e5f-8a9b-0c1d2e3f4a5b' } };

  test('a response with unknown extra fields still validates (§9: clients ignore unknown fields)', () => {
    expect(validate('project', { ...project, brand_new_field: { any: ['shape'] } }).valid).toBe(true);
    expect(validatePage('project', { data: [{ ...project, x: 1 }], page: { hasMore: false, y: 2 }, z: 3 }).valid).toBe(true);
    expect(validate('error', { error: { code: 'new_code', message: 'm', hint: 'h' }, trace: 't' }).valid).toBe(true);
  });

  test('timestamp and date formats are annotations by default, asserted in strict mode', () => {
    const odd = { ...project, created_at: '1710408413000', expected_start_date: '14/03/2026' };
    expect(validate('project', odd).valid).toBe(true);
    const strict = validate('project', odd, { formats: 'strict' });
    expect(strict.errors.map((e) => e.path).sort()).toEqual(['/created_at', '/expected_start_date']);
    expect(strict.errors.every((e) => e.keyword === 'format')).toBe(true);
  });

  test('errors point at the failing or missing field', () => {
    const { errors } = validate('assignment', { id: 'nope' });
    expect(errors).toContainEqual({ path: '/employee', keyword: 'required', message: "must have required property 'employee'" });
    expect(errors).toContainEqual({ path: '/id', keyword: 'format', message: 'must match format "uuid"' });
  });

  test('the committed specs/types.ts equals a fresh generation', async () => {
    expect(readFileSync(TYPES_PATH, 'utf8')).toBe(await generateTypes());
  });
});

type Visit = (path: string, key: string, node: unknown) => unknown;
function walk(roots: readonly (readonly [SchemaName, unknown])[], visit: Visit) {
  const go = (path: string, node: unknown) => {
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      const p = `${path}/${k}`;
      visit(p, k, v);
      go(p, v);
    }
  };
  for (const [name, doc] of roots) go(name, doc);
}
