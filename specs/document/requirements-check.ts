// `conformance requirements check`: what a changed document does to the requirement catalog. Entries
// whose quote no longer appears verbatim (with the sentence of the new text nearest to it), and
// normative sentences of the new text that no entry quotes. By default only sentences that are not in
// the baseline (the document the catalog names) are listed: the catalog need not quote every normative
// sentence of the current document, and a change should show only what it adds. `all` lists them all.
import { normalizeDocumentText, type Requirement } from '../requirements.js';
import { readBlocks } from './markdown.js';
import { isNormative, nearestUnit, placeName, type Unit, unitsOf } from './sentences.js';

export interface MissingQuote {
  id: string;
  section: string;
  quote: string;
  /** What the suite checks for the entry (the catalog's `check`). */
  check: string;
  nearest?: { text: string; line: number; similarity: number; };
}

export interface UnquotedSentence {
  section: string;
  line: number;
  text: string;
}

export interface RequirementsCheck {
  document: string;
  baseline?: string;
  all: boolean;
  missing: MissingQuote[];
  unquoted: UnquotedSentence[];
  /** Something to bring the catalog in line with: an entry that lost its quote or a sentence no entry quotes. */
  drift: boolean;
}

export interface RequirementsCheckInput {
  requirements: readonly Requirement[];
  text: string;
  label: string;
  /** The document the catalog was written against; sentences it already has are not listed unless `all`. */
  baseline?: { text: string; label: string; };
  all?: boolean;
}

export function checkRequirements(input: RequirementsCheckInput): RequirementsCheck {
  const units = unitsOf(readBlocks(input.text, input.label));
  const whole = normalizeDocumentText(input.text);
  const missing = input.requirements
    .filter((r) => !whole.includes(normalizeDocumentText(r.quote)))
    .map((r): MissingQuote => {
      const near = nearestUnit(normalizeDocumentText(r.quote), units);
      const nearest = near ? { text: near.text, line: near.unit.line, similarity: Math.round(near.score * 100) / 100 } : undefined;
      return { id: r.id, section: r.section, quote: r.quote, check: r.check, ...(nearest ? { nearest } : {}) };
    });
  const quotes = [...new Set(input.requirements.map((r) => normalizeDocumentText(r.quote)))];
  const quoted = (u: Unit) => quotes.some((q) => u.norm.includes(q) || q.includes(u.norm));
  const known = new Set(input.baseline && !input.all ? unitsOf(readBlocks(input.baseline.text, input.baseline.label)).map((u) => u.norm) : []);
  const unquoted = units
    .filter((u) => isNormative(u) && !quoted(u) && !known.has(u.norm))
    .map((u) => ({ section: placeName(u), line: u.line, text: u.text }));
  return {
    document: input.label,
    ...(input.baseline && !input.all ? { baseline: input.baseline.label } : {}),
    all: input.all ?? false,
    missing,
    unquoted,
    drift: missing.length > 0 || unquoted.length > 0,
  };
}
