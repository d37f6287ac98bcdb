// The requirement catalog as the document diff reads it: which entries quote a sentence (or a table row)
// of the document. A statement an entry quotes is normative whatever its form, and a change of it names
// the entries that lose their quote.
import { normalizeDocumentText, type Requirement } from '../requirements.js';

export interface QuoteIndex {
  /** Ids of the entries whose quote is the text, is inside it, or holds it (a quote of several sentences). */
  idsOf(text: string): string[];
}

// A short unit (`Rules:`) sits inside many quotes without being one of them.
const SHORTEST_PART = 20;

export function quoteIndex(requirements: readonly Requirement[]): QuoteIndex {
  const quotes = requirements.map((r) => ({ id: r.id, norm: normalizeDocumentText(r.quote) }));
  return {
    idsOf(text) {
      const norm = normalizeDocumentText(text);
      if (norm === '') return [];
      return quotes.filter((q) => norm.includes(q.norm) || (norm.length >= SHORTEST_PART && q.norm.includes(norm))).map((q) => q.id);
    },
  };
}
