// $ref resolution as the change checker needs it: refs by embedded `$id`, relative refs inside such
// schemas, refs to other files (JSON or YAML), a chain of refs that loops, and a ref to nothing,
// which names the side, the place of the $ref and the ref.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { diffDocuments, DiffInputError, loadDocument } from './index.js';

type Doc = Record<string, any>;

function document(components: Doc, schemaRef: string, version = '1.0.0'): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 't', version },
    paths: {
      '/api/public/v1/things': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: schemaRef } } } } } } },
    },
    components,
  };
}

const kinds = (old: Doc, now: Doc) => diffDocuments(old, now).changes.map((c) => `${c.kind} ${c.origin ?? c.location}`);
const SCHEMA_AT = '#/paths/~1api~1public~1v1~1things/get/responses/200/content/application~1json/schema';

function thrown(run: () => unknown): DiffInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof DiffInputError) return error;
    throw error;
  }
  throw new Error('expected a DiffInputError');
}

describe('ref resolution', () => {
  const dir = mkdtempSync(join(tmpdir(), 'diff-ref-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('refs by $id, and relative refs inside an $id schema, reach the changed schema', () => {
    const schemas = (withColor: boolean): Doc => ({
      schemas: {
        thing: { $id: 'https://x.test/schemas/thing.json', type: 'object', properties: { part: { $ref: 'part.json' } } },
        part: { $id: 'https://x.test/schemas/part.json', type: 'object', properties: withColor ? { color: { type: 'string' } } : {} },
      },
    });
    const ref = 'https://x.test/schemas/thing.json';
    expect(kinds(document(schemas(true), ref), document(schemas(false), ref, '1.1.0'))).toEqual([
      'response.property.removed /components/schemas/part/properties/color',
    ]);
  });

  test('refs to other files resolve against the document file', () => {
    for (const [side, type] of [['old', 'string'], ['new', 'integer']] as const) {
      writeFileSync(join(dir, `${side}-part.json`), JSON.stringify({ type: 'object', properties: { size: { type } } }));
      writeFileSync(join(dir, `${side}.json`), JSON.stringify(document({}, `./${side}-part.json`)));
    }
    const result = diffDocuments(loadDocument(join(dir, 'old.json')), loadDocument(join(dir, 'new.json')));
    expect(result.changes.map((c) => c.kind)).toEqual(['response.type.changed']);
  });

  test('a chain of refs that loops is an input error', () => {
    const loop = { schemas: { a: { $ref: '#/components/schemas/b' }, b: { $ref: '#/components/schemas/a' } } };
    const run = () => diffDocuments(document(loop, '#/components/schemas/a'), document(loop, '#/components/schemas/a'));
    expect(run).toThrow(DiffInputError);
    expect(run).toThrow(/cycle/);
  });

  test('refs to YAML files are read as YAML', () => {
    for (const [side, type] of [['old', 'string'], ['new', 'integer']] as const) {
      writeFileSync(join(dir, `${side}-part.yaml`), `type: object\nproperties:\n  size:\n    type: ${type}\n`);
      writeFileSync(join(dir, `${side}-y.json`), JSON.stringify(document({}, `./${side}-part.yaml`)));
    }
    const result = diffDocuments(loadDocument(join(dir, 'old-y.json')), loadDocument(join(dir, 'new-y.json')));
    expect(result.changes.map((c) => c.kind)).toEqual(['response.type.changed']);
  });

  test('a $ref to nothing names the document, the pointer where the $ref is, and the ref', () => {
    const good = document({ schemas: { T: { type: 'string' } } }, '#/components/schemas/T');
    const error = thrown(() => diffDocuments(good, document({}, '#/components/schemas/Missing')));
    expect(error.code).toBe('DIFF_REF_UNRESOLVED');
    expect(error.message).toBe(`new document: $ref "#/components/schemas/Missing" at ${SCHEMA_AT} points to nothing`);
    expect(error.toJSON()).toMatchObject({ document: 'new', at: SCHEMA_AT, ref: '#/components/schemas/Missing' });
    const nested = { schemas: { T: { type: 'object', properties: { part: { $ref: '#/components/schemas/Gone' } } } } };
    expect(thrown(() => diffDocuments(document(nested, '#/components/schemas/T'), good)).message).toBe(
      'old document: $ref "#/components/schemas/Gone" at #/components/schemas/T/properties/part points to nothing',
    );
  });

  test('siblings of a $ref apply with it', () => {
    const old = document({ schemas: { t: { type: 'string' } } }, '#/components/schemas/t');
    const now = structuredClone(old);
    now.paths['/api/public/v1/things'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/t', maxLength: 5 };
    expect(diffDocuments(old, now).changes.map((c) => c.kind)).toEqual(['response.constraint.tightened']);
  });
});
