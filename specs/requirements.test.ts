import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  catalog,
  catalogProblems,
  coverage,
  documentPath,
  isKnownRequirement,
  matchRequirementIds,
  normalizeDocumentText,
  repoRoot,
  requirementById,
  requirements,
  testableRequirements,
  unmatchedPatterns,
} from './requirements.js';

// The document is part of the repository: a missing copy fails every quote test instead of skipping them.
const documentText = readFileSync(documentPath, 'utf8');
// The upstream the copy comes from, beside the project where it exists (not in a plain clone).
const upstreamPath = path.resolve(repoRoot, '../shared/spec/public-api-v1.md');
const ids = requirements.map((r) => r.id);

describe('requirement catalog', () => {
  it('validates against its schema and names spec version 1.6.0', () => {
    expect(catalogProblems(catalog)).toEqual([]);
    expect(catalog.specVersion).toBe('1.6.0');
  });

  it('has unique ids', () => {
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reports schema problems and duplicate ids as data', () => {
    const first = requirements[0]!;
    const broken = { ...catalog, requirements: [first, { ...first }, { ...first, id: 'bad id', level: 'maybe' }] };
    const problems = catalogProblems(broken);
    expect(problems.some((p) => p.includes('/requirements/2/id'))).toBe(true);
    expect(problems.some((p) => p.includes('/requirements/2/level'))).toBe(true);
    const duplicated = { ...catalog, requirements: [first, { ...first }] };
    expect(catalogProblems(duplicated)).toEqual([`duplicate id ${first.id}`]);
  });

  it('counts requirements by level', () => {
    const counts = { must: 0, implied: 0, 'not-testable': 0 };
    for (const r of requirements) counts[r.level] += 1;
    console.info(`requirements: ${requirements.length} (must ${counts.must}, implied ${counts.implied}, not-testable ${counts['not-testable']})`);
    expect(counts.must + counts.implied).toBe(testableRequirements().length);
    expect(Object.values(counts).every((n) => n > 0)).toBe(true);
  });
});

describe('the API document in the repository', () => {
  it('is specs/public-api-v1.md, inside the repository', () => {
    expect(catalog.document).toBe('specs/public-api-v1.md');
    expect(path.relative(repoRoot, documentPath).startsWith('..')).toBe(false);
    expect(documentText.length).toBeGreaterThan(0);
  });

  it.skipIf(!existsSync(upstreamPath))(
    'is byte-identical to ../shared/spec/public-api-v1.md (skipped only where that upstream file is absent, as in a plain clone)',
    () => {
      expect(readFileSync(documentPath).equals(readFileSync(upstreamPath))).toBe(true);
    },
  );
});

describe('quotes against the API document', () => {
  const doc = normalizeDocumentText(documentText);

  it.each(requirements.map((r) => [r.id, r.quote] as const))('%s quotes the document verbatim', (_id, quote) => {
    expect(doc).toContain(normalizeDocumentText(quote));
  });

  it('the normalization keeps wording: a paraphrase or a changed code is not found', () => {
    expect(doc).toContain(normalizeDocumentText('Cursor not decodable, or issued for another sort/order | 400 | bad_request'));
    expect(doc).not.toContain(normalizeDocumentText('When a cursor cannot be decoded, the response is 400 with code `not_found`.'));
    expect(doc).not.toContain(normalizeDocumentText('Maximum upload size is 20 MB.'));
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9])('section %i has at least one entry', (n) => {
    expect(requirements.some((r) => r.section === String(n) || r.section.startsWith(`${n} `))).toBe(true);
  });

  it('every changelog row has at least one entry', () => {
    const rows = [...documentText.matchAll(/^\|\s*(\d+\.\d+\.\d+|\(no number\))\s*\|/gm)].map((m) => m[1]!);
    expect(rows.length).toBeGreaterThan(0);
    const missing = rows.filter((v) => !requirements.some((r) => r.section === `changelog ${v}`));
    expect(missing).toEqual([]);
  });

  it('the catalog spec version is the newest changelog row', () => {
    const newest = /^\|\s*(\d+\.\d+\.\d+)\s*\|/m.exec(documentText)?.[1];
    expect(catalog.specVersion).toBe(newest);
  });
});

describe('lookups, globs and coverage', () => {
  it('finds requirements by id', () => {
    expect(requirementById('LIST-CURSOR-UNDECODABLE')?.level).toBe('must');
    expect(isKnownRequirement('AUTH-BEARER-REQUIRED')).toBe(true);
    expect(isKnownRequirement('NO-SUCH-REQUIREMENT')).toBe(false);
  });

  it('expands globs in catalog order and case-insensitively', () => {
    const list = matchRequirementIds(['LIST-*']);
    expect(list.length).toBeGreaterThan(3);
    expect(list.every((id) => id.startsWith('LIST-'))).toBe(true);
    expect(list).toEqual(ids.filter((id) => id.startsWith('LIST-')));
    expect(matchRequirementIds(['list-cursor-*'])).toContain('LIST-CURSOR-UNDECODABLE');
    expect(matchRequirementIds(['ISO-GET-OTHER-TEAM-404', 'ISO-GET-OTHER-TEAM-404'])).toEqual(['ISO-GET-OTHER-TEAM-404']);
    expect(matchRequirementIds(['UPLOAD-IDEM-?EPLAY'])).toEqual(['UPLOAD-IDEM-REPLAY']);
    expect(matchRequirementIds(['LIST.*'])).toEqual([]);
    expect(unmatchedPatterns(['LIST-*', 'LSIT-*', ' '])).toEqual(['LSIT-*']);
  });

  it('reports unknown ids and uncovered testable requirements', () => {
    const testable = testableRequirements().map((r) => r.id);
    const notTestable = requirements.find((r) => r.level === 'not-testable')!.id;
    const all = coverage([...testable, notTestable]);
    expect(all).toEqual({ unknown: [], uncovered: [] });
    const partial = coverage(['LIST-PAGE-WALK', 'NOPE-X']);
    expect(partial.unknown).toEqual(['NOPE-X']);
    expect(partial.uncovered).not.toContain('LIST-PAGE-WALK');
    expect(partial.uncovered).toContain('LIST-ORDER');
    expect(partial.uncovered).not.toContain(notTestable);
    const serverOnly = coverage([], { subjects: ['server'] });
    expect(serverOnly.uncovered.every((id) => requirementById(id)?.subject === 'server')).toBe(true);
  });
});
