import type { CatalogEntry } from './types.js';

export interface Catalog {
  entries: CatalogEntry[];
  specVersion: string;
  /** Catalog ids matched by CONFORMANCE_ONLY-style patterns. */
  match(patterns: readonly string[]): string[];
}

// The requirement catalog (C2), loaded when a report is built so that the reporter
// module itself can be imported by a config before anything else is ready.
export async function loadCatalog(): Promise<Catalog> {
  const c = await import('../specs/requirements.js');
  return {
    entries: c.requirements.map((r) => ({ id: r.id, section: r.section, level: r.level, quote: r.quote, subject: r.subject })),
    specVersion: c.specVersion,
    match: c.matchRequirementIds,
  };
}
