// `requirements check` on edit pairs of the real API document: which catalog entries lose their quote,
// and which normative sentences no entry quotes.
import { describe, expect, it } from 'vitest';
import { requirements } from '../requirements.js';
import { edit, original, release } from './edits.js';
import { readBlocks } from './markdown.js';
import { checkRequirements } from './requirements-check.js';
import { isNormative, nearestUnit, splitSentences, unitsOf } from './sentences.js';

const baseline = { text: original, label: 'specs/public-api-v1.md' };
const check = (text: string, all = false) => checkRequirements({ requirements, text, label: 'new.md', baseline, all });

describe('requirements check', () => {
  it("the catalog's own document: every quote found, nothing new to quote, no drift", () => {
    const r = check(original);
    expect(r).toMatchObject({ document: 'new.md', baseline: 'specs/public-api-v1.md', all: false, missing: [], unquoted: [], drift: false });
  });

  it('a reworded quoted sentence: the entry, its quote and the nearest sentence of the new text', () => {
    const r = check(edit(original, 'Maximum upload size is 25 MB.', 'Maximum upload size is 20 MB.'));
    expect(r.drift).toBe(true);
    expect(r.missing.map((m) => m.id)).toEqual(['UPLOAD-MAX-SIZE']);
    expect(r.missing[0]).toMatchObject({
      section: '4 Upload rules, rule 1',
      quote: 'Maximum upload size is 25 MB.',
      nearest: { text: 'Maximum upload size is 20 MB.', line: 281 },
    });
    expect(r.missing[0]!.check).toMatch(/upload/);
    // The new wording is itself a normative sentence no entry quotes.
    expect(r.unquoted.map((u) => u.text)).toEqual(['Maximum upload size is 20 MB.']);
  });

  it('a quote shared by several entries lists each of them', () => {
    const r = check(edit(original, 'A record that belongs to another team is reported as missing,', 'A record of another team is reported as missing,'));
    expect(r.missing.map((m) => m.id)).toEqual(['ISO-OTHER-TEAM-AS-MISSING', 'ISO-OTHER-TEAM-NO-EXISTENCE-LEAK', 'ISO-REFERENCE-OTHER-TEAM-AS-MISSING']);
    expect(new Set(r.missing.map((m) => m.nearest?.line))).toEqual(new Set([11]));
  });

  it('a new normative sentence is listed as unquoted, a plain one is not', () => {
    const r = check(edit(original, 'Scope tokens have no wildcards.', 'Scope tokens have no wildcards. Keys never expire. Keys have names.'));
    expect(r.missing).toEqual([]);
    expect(r.unquoted).toEqual([{ section: '5 Authentication', line: 292, text: 'Keys never expire.' }]);
    expect(r.drift).toBe(true);
  });

  it('new endpoint rows (§4), condition rows (§7) and changelog rows (§9) want an entry', () => {
    const changed = release(
      edit(original, '| GET | /files/{id} | none | File |\n', '| GET | /files/{id} | none | File |\n| GET | /files | query: limit | Page of File |\n'),
      '1.7.0',
      'Adds the list of files.',
    );
    expect(check(changed).unquoted.map((u) => u.text)).toEqual(['GET | /files | query: limit | Page of File', '1.7.0 | Adds the list of files.']);
  });

  it('--all lists every unquoted normative sentence of the document, not only new ones', () => {
    const r = check(original, true);
    expect(r.baseline).toBeUndefined();
    expect(r.unquoted.length).toBeGreaterThan(0);
    expect(r.unquoted.map((u) => u.text)).toContain('The API is reachable over REST.');
    expect(r.drift).toBe(true);
  });
});

describe('sentences', () => {
  it('splits at sentence ends, not inside versions or parentheses', () => {
    expect(splitSentences('Adds x (see 1.6.0). A missing id gives 404. Scopes: `a:read`; `b:read`.')).toEqual([
      'Adds x (see 1.6.0).',
      'A missing id gives 404.',
      'Scopes: `a:read`; `b:read`.',
    ]);
  });

  it('marks normative sentences and rows', () => {
    const units = unitsOf(readBlocks(original, 'doc'));
    const normative = (text: string) => isNormative(units.find((u) => u.text === text)!);
    expect(normative('Every record belongs to a team.')).toBe(true);
    expect(normative('Two error envelopes appear.')).toBe(false);
    expect(normative('Scope tokens have no wildcards.')).toBe(false);
    expect(normative('With the same `Idempotency-Key` and a different file, the response is 422.')).toBe(true);
    expect(normative('GET | /cvs | query: limit, cursor, sort, order, q, employee_id | Page of CV')).toBe(true);
    expect(normative('sort | integer | lower bound seen: -9007199254740991')).toBe(false);
  });

  it('finds the nearest run of sentences for a quote that spans several', () => {
    const units = unitsOf(readBlocks(edit(original, 'Timestamps and dates are strings.', 'Timestamps and dates are text.'), 'doc'));
    const near = nearestUnit('Timestamps and dates are strings. Names ending in _at are timestamps; names ending in _date are dates.', units);
    expect(near?.text).toBe('Timestamps and dates are text. Names ending in `_at` are timestamps; names ending in `_date` are dates.');
  });
});
