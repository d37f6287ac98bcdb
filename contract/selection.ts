// Which checks a run selects (C4 in ARCHITECTURE.md). CONFORMANCE_ONLY (`--only`): requirement ids
// or globs such as LIST-*; a check runs when one of its ids matches. CONFORMANCE_EXCLUDE
// (`--exclude`): a check is left out when every one of its ids matches (a check also covering a
// kept requirement still runs). Split here only; config-parse.ts validates the patterns.
import { globRegExp } from '../specs/patterns.js';

export interface Selection {
  only: string[];
  exclude: string[];
}

/** A comma-separated setting as patterns (upper case, like the catalog's ids). */
export const patternList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);

/** The selection of raw settings (the environment over the settings file: config-source.ts). */
export function selectionFrom(settings: Readonly<Record<string, string | undefined>>): Selection {
  return { only: patternList(settings.CONFORMANCE_ONLY), exclude: patternList(settings.CONFORMANCE_EXCLUDE) };
}

export const narrows = (s: Selection): boolean => s.only.length > 0 || s.exclude.length > 0;

export function selects(patterns: readonly string[], requirements: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const regexes = patterns.map(globRegExp);
  return requirements.some((id) => regexes.some((r) => r.test(id)));
}

export function excludes(patterns: readonly string[], requirements: readonly string[]): boolean {
  if (patterns.length === 0 || requirements.length === 0) return false;
  const regexes = patterns.map(globRegExp);
  return requirements.every((id) => regexes.some((r) => r.test(id)));
}

/** Whether a check naming `requirements` runs under the selection. */
export const runsUnder = (s: Selection, requirements: readonly string[]): boolean => selects(s.only, requirements) && !excludes(s.exclude, requirements);
