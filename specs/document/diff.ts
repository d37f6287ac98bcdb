// The change checker for the API document itself: reads both Markdown documents into their structure,
// lists every change, classifies it under §9 through the OpenAPI checker's table, and checks that the
// version and the changelog moved accordingly. The result has the OpenAPI diff's shape, so its
// formatters (text, JSON) and exit codes apply unchanged.
import type { DiffResult } from '../diff/index.js';
import { type ApiDocument, readApiDocument } from './api-document.js';
import { compareEndpoints } from './compare-endpoints.js';
import { compareFieldTables } from './compare-fields.js';
import { compareProse } from './compare-prose.js';
import { compareConditions, compareLimits, compareShapes } from './compare-tables.js';
import { readDocumentSource } from './source.js';
import { checkDocumentVersion } from './version-check.js';

export function diffApiDocuments(a: ApiDocument, b: ApiDocument): DiffResult {
  const prose = compareProse(a, b);
  const changes = [
    ...compareFieldTables(a, b),
    ...compareShapes(a, b),
    ...compareEndpoints(a, b),
    ...compareConditions(a, b),
    ...compareLimits(a, b),
    ...prose.changes,
  ];
  return { changes, version: checkDocumentVersion(a, b, changes, prose.normative), breaking: changes.some((c) => c.classification === 'breaking') };
}

/** Reads and parses a document from a file or `git:REV[:PATH]` (see ./source.ts). */
export function loadApiDocument(source: string, cwd?: string): ApiDocument {
  const { text, label } = readDocumentSource(source, cwd);
  return readApiDocument(text, label);
}

/** Both documents as text (edit pairs in tests, documents from elsewhere). */
export const diffDocumentTexts = (oldText: string, newText: string, labels = { old: 'old', new: 'new' }): DiffResult =>
  diffApiDocuments(readApiDocument(oldText, labels.old), readApiDocument(newText, labels.new));
