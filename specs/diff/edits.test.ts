// One entry per edit: what the walkers find once per place that reaches an edited node is folded
// into one entry at the node, classified by its strictest finding, with every finding kept under
// `affects` — shown as one line of operations in text and in full in JSON.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Finding } from './edits.js';
import { foldEdits } from './edits.js';
import { diffDocuments, formatJson, formatText, loadDocument } from './index.js';

const fixtures = fileURLToPath(new URL('../../fixtures/diff/', import.meta.url));
const diffOf = (name: string) => diffDocuments(loadDocument(join(fixtures, name, 'old.json')), loadDocument(join(fixtures, name, 'new.json')));

const finding = (over: Partial<Finding>): Finding => ({
  kind: 'response.property.added',
  classification: 'non-breaking',
  location: '/paths/~1a/get/x',
  message: 'm',
  at: '#/components/schemas/A',
  part: 'node',
  ...over,
});

describe('one entry per edit', () => {
  test('findings of one node fold into one entry at the node; the strictest decides, whatever its order', () => {
    const [change] = foldEdits([
      finding({ operation: 'GET /a' }),
      finding({ kind: 'request.property.added-required', classification: 'breaking', location: '/paths/~1a/post/y', operation: 'POST /a' }),
    ]);
    expect(change).toMatchObject({ kind: 'request.property.added-required', classification: 'breaking', location: '/components/schemas/A' });
    expect(change!.rule).toMatch(/^§9 breaking: tightening/);
    expect(change!.affects!.map((e) => e.operation)).toEqual(['GET /a', 'POST /a']);
  });

  test("a property's presence and its own keywords are separate edits; a node in another file stays where it is reached", () => {
    expect(foldEdits([finding({}), finding({ part: 'member' })])).toHaveLength(2);
    const [external] = foldEdits([finding({ at: 'file:///x/part.json#/properties/a', location: '/paths/~1a/get/x' })]);
    expect(external).toMatchObject({ location: '/paths/~1a/get/x', origin: 'file:///x/part.json#/properties/a' });
    expect(external!.affects).toBeUndefined();
  });

  test('a path parameter type change: one breaking entry in text, its consequences in full in JSON', () => {
    const result = diffOf('path-parameter-type-changed');
    const text = formatText(result, { old: 'old.json', new: 'new.json' });
    expect(text.match(/^ {2}- \[/gm)).toHaveLength(1);
    expect(text).toContain('1 breaking, 0 non-breaking, 0 documentation-only change(s)');
    expect(text).toContain(
      '  - [request.type.changed] type "string" → "integer" (also: format "uuid" → "none")\n      at /api/public/v1/items/{id}  parameters/0/schema\n',
    );
    expect(text).toContain('affects 3 operations: GET /api/public/v1/items/{id}, DELETE /api/public/v1/items/{id}, PATCH /api/public/v1/items/{id}');
    const [change] = JSON.parse(formatJson(result)).changes;
    expect(change.location).toBe('/paths/~1api~1public~1v1~1items~1{id}/parameters/0/schema');
    expect(change.affects).toHaveLength(6);
    expect(new Set(change.affects.map((e: { kind: string; }) => e.kind))).toEqual(new Set(['request.type.changed', 'request.constraint.relaxed']));
  });

  test('a shared schema both sent and returned: one entry, the text says where it breaks and where it does not', () => {
    const text = formatText(diffOf('shared-schema-both-directions'), { old: 'a', new: 'b' });
    expect(text).toContain(
      'affects 3 operations: breaking in POST /api/public/v1/items; non-breaking in GET /api/public/v1/items, GET /api/public/v1/items/{id}',
    );
  });
});
