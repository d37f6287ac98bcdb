// The change checker for the API document itself: reads both Markdown documents into their structure,
// lists every change, classifies it under §9 through the OpenAPI checker's table, and checks that the
// version and the changelog moved accordingly. The result has the OpenAPI diff's shape, so its
// formatters (text, JSON) and exit codes apply unchanged.
import type { DiffResult } from '../diff/index.js';
import { type Requirement, requirements } from '../requirements.js';
import { type ApiDocument, readApiDocument } from './api-document.js';
import { quoteIndex } from './catalog.js';
import { compareEndpoints } from './compare-endpoints.js';
import { compareFieldTables } from './compare-fields.js';
import { compareProse } from './compare-prose.js';
import { compareConditions, compareLimits, compareShapes } from './compare-tables.js';
import { checkRequirements, type MissingQuote } from './requirements-check.js';
import { readDocumentSource } from './source.js';
import { checkDocumentVersion } from './version-check.js';

export function diffApiDocuments(a: ApiDocument, b: ApiDocument, catalog: readonly Requirement[] = requirements): DiffResult {
  const changes = [
    ...compareFieldTables(a, b),
    ...compareShapes(a, b),
    ...compareEndpoints(a, b),
    ...compareConditions(a, b),
    ...compareLimits(a, b),
    ...compareProse(a, b, quoteIndex(catalog)),
  ];
  const version = checkDocumentVersion(a, b, changes);
  // The catalog against the new text, as `requirements check` reads it with the old text as its baseline.
  const drift = checkRequirements({ requirements: catalog, text: b.text, label: b.label, baseline: { text: a.text, label: a.label } });
  for (const [quote, ids] of groupByQuote(drift.missing)) {
    version.notes.push({
      code: 'REQUIREMENT_QUOTE_CHANGED',
      message: `${ids.join(', ')} quote${ids.length === 1 ? 's' : ''} "${quote}", no longer in ${b.label}: update specs/requirements.json`,
    });
  }
  for (const u of drift.unquoted) {
    version.notes.push({ code: 'REQUIREMENT_UNQUOTED', message: `line ${u.line} (§${u.section}): "${u.text}" states a requirement no catalog entry quotes` });
  }
  return { changes, version, breaking: changes.some((c) => c.classification === 'breaking') };
}

/** Reads and parses a document from a file or `git:REV[:PATH]` (see ./source.ts). */
export function loadApiDocument(source: string, cwd?: string): ApiDocument {
  const { text, label } = readDocumentSource(source, cwd);
  return readApiDocument(text, label);
}

/** Both documents as text (edit pairs in tests, documents from elsewhere). */
export const diffDocumentTexts = (oldText: string, newText: string, labels = { old: 'old', new: 'new' }): DiffResult =>
  diffApiDocuments(readApiDocument(oldText, labels.old), readApiDocument(newText, labels.new));

const groupByQuote = (missing: MissingQuote[]): Map<string, string[]> => {
  const byQuote = new Map<string, string[]>();
  for (const m of missing) byQuote.set(m.quote, [...(byQuote.get(m.quote) ?? []), m.id]);
  return byQuote;
};
