// The test vectors on disk are exactly what fixtures/diff/cases.ts generates: an edit of the cases
// (or of base.ts) that was not written out with `npm run gen:diff-fixtures` fails here, as does a
// vector file changed by hand, a missing one or one left over from a removed case.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { generateVectors } from '../../fixtures/diff/vectors.js';

const root = fileURLToPath(new URL('../../fixtures/diff/', import.meta.url));

/** Every file under a case directory of fixtures/diff, relative (`<case>/old.json`). */
function onDisk(): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((d) =>
      readdirSync(join(root, d.name), { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).map((f) =>
        join(f.parentPath, f.name).slice(root.length).split('\\').join('/')
      )
    )
    .sort();
}

describe('fixtures/diff is fresh (npm run gen:diff-fixtures)', () => {
  const generated = generateVectors();

  test('the same files: none missing, none left over', () => {
    expect(onDisk()).toEqual([...generated.keys()].sort());
  });

  test('every file as generated', () => {
    const read = (path: string) => {
      try {
        return readFileSync(join(root, path), 'utf8');
      } catch {
        return undefined;
      }
    };
    const stale = [...generated].filter(([path, text]) => read(path) !== text).map(([path]) => path);
    expect(stale, 'stale vectors: run npm run gen:diff-fixtures').toEqual([]);
  });
});
