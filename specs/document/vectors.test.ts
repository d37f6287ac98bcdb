// The generated edit vectors (./vectors.ts) through the document diff: each needs the bump its §9 sentence
// gives, never less; none that changes a normative statement passes as documentation only.
import { describe, expect, it } from 'vitest';
import { readApiDocument } from './api-document.js';
import { diffApiDocuments } from './diff.js';
import { edits, original } from './edits.js';
import { documentVectors } from './vectors.js';

const vectors = documentVectors();
const before = readApiDocument(original, 'old');

describe('generated document vectors', () => {
  it('cover every kind of statement: sentences changed, narrowed, widened, removed; rows of §4, §7, §8; fields of §2', () => {
    const kinds = new Set(vectors.map((v) => v.name.split(' ')[0]));
    expect([...kinds]).toEqual(expect.arrayContaining(['narrow', 'widen', 'change', 'remove', 'add', 'lower', 'raise', 'retype', 'mark']));
    expect(vectors.length).toBeGreaterThan(300);
  });

  it('each vector: the required bump, the §9 sentence that decides it, and never documentation for behaviour', () => {
    const wrong: string[] = [];
    for (const v of vectors) {
      const r = diffApiDocuments(before, readApiDocument(edits(original, ...v.edits), 'new'));
      const behaviour = r.changes.filter((c) => c.classification !== 'documentation');
      const fits = r.version.required === v.required && (v.required === 'patch' || behaviour.some((c) => c.rule === v.rule))
        && (!v.unknown || r.changes.some((c) => c.classification === 'unknown'));
      if (!fits) wrong.push(`${v.name}: required ${r.version.required}, rules ${[...new Set(behaviour.map((c) => c.rule.slice(0, 40)))].join(' / ')}`);
    }
    expect(wrong).toEqual([]);
  }, 180_000);
});
