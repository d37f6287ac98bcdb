// Top-level sections of the API document (public-api-v1.md), used to group the
// matrix. Catalog entries name their section; its leading number picks the group.
export const sectionTitles: Readonly<Record<string, string>> = {
  '1': 'What the service does',
  '2': 'Resources and their fields',
  '3': 'States and transitions',
  '4': 'Endpoints',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

/**
 * `4`, `§4.2`, `4 List query parameters, rule 2` → `4`; the changelog rows
 * (`changelog 1.4.0`) are part of §9; anything else groups by itself.
 */
export function sectionGroup(section: string): string {
  if (/^\s*changelog\b/i.test(section)) return '9';
  const m = /^\s*§?\s*(\d+)/.exec(section);
  return m?.[1] ?? section.trim();
}

/**
 * The label of a catalog section, always `§N <name>`: the sub-part the catalog names (`Base
 * address`, `List query parameters, rule 2`, `Changelog 1.4.0`), a bare rule with its section's
 * title (`Authentication, rule 1`), or the section's title when the catalog names only its number.
 */
export function sectionLabel(section: string): string {
  const group = sectionGroup(section);
  const title = sectionTitles[group];
  if (!title) return section.trim();
  const rest = /^\s*changelog\b/i.test(section)
    ? section.trim().replace(/^changelog/i, 'Changelog')
    : section.replace(/^\s*§?\s*\d+(\.\d+)*\s*/, '').trim();
  if (!rest) return `§${group} ${title}`;
  return /^rule\b/i.test(rest) ? `§${group} ${title}, ${rest}` : `§${group} ${rest}`;
}
