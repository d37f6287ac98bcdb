// The change checker against its test vectors: every fixtures/diff/<case> pair must give exactly the
// entries (one per edit: kind and classification, and where stated the location and the operations
// it affects), required bump and version problems its expected.json states.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { type Change, diffDocuments, DiffInputError, loadDocument } from './index.js';

const root = fileURLToPath(new URL('../../fixtures/diff/', import.meta.url));
const names = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

interface Expected {
  description: string;
  changes: { kind: string; classification: string; location?: string; operations?: string[]; }[];
  required?: string;
  ok?: boolean;
  problems?: string[];
  notes?: string[];
  breaking?: boolean;
  exitCode: number;
  error?: string;
}

/** Every entry as `kind (classification)`, repeats kept: the count is part of the expectation. */
const entries = (list: { kind: string; classification: string; }[]) => list.map((c) => `${c.kind} (${c.classification})`).sort();

/** The operations an entry affects: those of its effects, else its own. */
const operationsOf = (c: Change): string[] => [...new Set((c.affects ?? [c]).map((e) => e.operation ?? ''))].sort();

function run(name: string): { exitCode: number; error?: string; result?: ReturnType<typeof diffDocuments>; } {
  try {
    const result = diffDocuments(loadDocument(join(root, name, 'old.json')), loadDocument(join(root, name, 'new.json')));
    return { exitCode: result.version.ok ? 0 : 1, result };
  } catch (error) {
    if (error instanceof DiffInputError) return { exitCode: 2, error: error.code };
    throw error;
  }
}

describe('diff test vectors (fixtures/diff)', () => {
  test('there is a vector for every case', () => {
    expect(names.length).toBeGreaterThanOrEqual(60);
  });

  test.each(names)('%s', (name) => {
    const expected = JSON.parse(readFileSync(join(root, name, 'expected.json'), 'utf8')) as Expected;
    const actual = run(name);
    expect(actual.exitCode, expected.description).toBe(expected.exitCode);
    if (expected.error !== undefined) return expect(actual.error).toBe(expected.error);
    const result = actual.result!;
    expect(entries(result.changes), expected.description).toEqual(entries(expected.changes));
    for (const want of expected.changes.filter((c) => c.location !== undefined)) {
      const found = result.changes.find((c) => c.kind === want.kind && c.location === want.location);
      expect(found, `${want.kind} at ${want.location}`).toBeDefined();
      if (want.operations) expect(operationsOf(found!)).toEqual([...want.operations].sort());
    }
    if (expected.required !== undefined) expect(result.version.required).toBe(expected.required);
    if (expected.ok !== undefined) expect(result.version.ok).toBe(expected.ok);
    if (expected.problems !== undefined) expect(result.version.problems.map((p) => p.code).sort()).toEqual([...expected.problems].sort());
    if (expected.notes !== undefined) expect(result.version.notes.map((p) => p.code).sort()).toEqual([...expected.notes].sort());
    if (expected.breaking !== undefined) expect(result.breaking).toBe(expected.breaking);
    for (const change of result.changes) {
      expect(change.rule).toMatch(/^§9/);
      expect(change.location === '' || change.location.startsWith('/')).toBe(true);
    }
  });
});
