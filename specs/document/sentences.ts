// The document as units a requirement can quote: the sentences of its prose and the rows of its tables,
// in the normalization the catalog's quotes are checked under (specs/requirements.ts), with which of
// them are normative and how close two texts are (to point at the nearest sentence of a changed quote).
import { normalizeDocumentText } from '../requirements.js';
import type { MarkdownDocument, Place } from './markdown.js';

export interface Unit extends Place {
  kind: 'sentence' | 'row';
  /** As written (a row's cells joined by ` | `). */
  text: string;
  /** normalizeDocumentText(text): how quotes are matched. */
  norm: string;
}

// A sentence ends at `.`, `!` or `?` followed by a space and a capital, a backtick or a parenthesis;
// `1.6.0`, `per RFC 8594); deprecated` and list clauses ending in `;` stay whole.
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z`(])/;

/** `4 Upload rules`: the section number and the most specific name of where a unit stands. */
export const placeName = (u: Place): string => [u.section, u.lead ?? u.subsection ?? u.sectionTitle].filter(Boolean).join(' ');

export const splitSentences = (text: string): string[] => text.split(SENTENCE_END).map((s) => s.trim()).filter(Boolean);

export function unitsOf(doc: MarkdownDocument): Unit[] {
  return doc.blocks.flatMap((block): Unit[] => {
    const { section, sectionTitle, subsection } = block;
    const place = { section, sectionTitle, ...(subsection !== undefined ? { subsection } : {}) };
    if (block.kind === 'prose') {
      const lead = block.lead !== undefined ? { lead: block.lead } : {};
      return splitSentences(block.text).map((text) => ({ ...place, ...lead, line: block.line, kind: 'sentence', text, norm: normalizeDocumentText(text) }));
    }
    // A table's rows stand under its caption (`Known conditions`), as list items under their lead.
    const lead = block.caption !== undefined ? { lead: block.caption } : {};
    return block.rows.map((row) => {
      const text = row.cells.join(' | ');
      return { ...place, ...lead, line: row.line, kind: 'row', text, norm: normalizeDocumentText(text) };
    });
  });
}

// The modal and normative form of a statement: what must, may or does happen, what is accepted or refused,
// bounds, defaults, deprecation, and what the document leaves open (`not shown`: replacing it states behaviour).
const NORMATIVE_FORM = new RegExp(
  '\\b(must|never|only|always|is|are|answers?|returns?|gives?|takes?|requires?|required|optional|may|can|cannot|carr(?:y|ies)|keeps?|'
    + 'accepts?|accepted|refused|rejected|at most|at least|within|maximum|minimum|defaults?|deprecated|means|applies|belongs?|lives|rises|equals|'
    + 'not shown|not specified)\\b',
  'i',
);
const STATUS_CODE = /\b[1-5]\d\d\b/;

/** Text in the modal or normative form (or naming an HTTP status): a sentence, or a table cell that carries one. */
export const isNormativeText = (text: string): boolean => NORMATIVE_FORM.test(text) || STATUS_CODE.test(text);

/**
 * Sentences of the numbered sections (§1–§9) in the normative form (isNormativeText); the rows of the
 * endpoint tables (§4), of §5, of the known conditions (§7) and of the limits (§8); the changelog rows of
 * §9 (each one wants a catalog entry). The introduction before §1 states requirements only where the
 * catalog quotes it.
 */
export function isNormative(unit: Unit): boolean {
  if (unit.kind === 'row') {
    return ['4', '5', '7', '8'].includes(unit.section) || (unit.section === '9' && /^(\d+\.\d+\.\d+|\(no number\)) \|/.test(unit.text));
  }
  return unit.section !== '' && isNormativeText(unit.norm);
}

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];

/**
 * How much of `quote` the `unit` holds, and how alike the two are: the mean of the share of the
 * quote's words found in the unit and the Dice coefficient of both word multisets (0 to 1).
 */
export function similarity(quote: string, unit: string): number {
  const [a, b] = [words(quote), words(unit)];
  if (a.length === 0 || b.length === 0) return 0;
  const pool = new Map<string, number>();
  for (const w of b) pool.set(w, (pool.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of a) {
    const n = pool.get(w) ?? 0;
    if (n === 0) continue;
    common += 1;
    pool.set(w, n - 1);
  }
  return (common / a.length + (2 * common) / (a.length + b.length)) / 2;
}

export interface Nearest {
  unit: Unit;
  /** The text matched: one unit, or consecutive sentences when the quote spans several. */
  text: string;
  score: number;
}

/** The unit (or run of consecutive sentences, as many as the quote has) most like `quote`. */
export function nearestUnit(quote: string, units: readonly Unit[]): Nearest | undefined {
  const span = Math.max(1, splitSentences(quote).length);
  let best: Nearest | undefined;
  for (let i = 0; i < units.length; i += 1) {
    for (let k = 1; k <= span && i + k <= units.length; k += 1) {
      const run = units.slice(i, i + k);
      if (k > 1 && run.some((u) => u.kind !== 'sentence')) break;
      const text = run.map((u) => u.text).join(' ');
      const score = similarity(quote, normalizeDocumentText(text));
      if (!best || score > best.score) best = { unit: units[i]!, text, score };
    }
  }
  return best;
}
