// Which checks a run selects. CONFORMANCE_ONLY: requirement ids or globs such as LIST-*; a check
// runs when one of its ids matches. CONFORMANCE_EXCLUDE (`--exclude`): a check is left out when
// every one of its ids matches (a check also covering a kept requirement still runs).

export function selects(patterns: readonly string[], requirements: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const regexes = patterns.map(toRegex);
  return requirements.some((id) => regexes.some((r) => r.test(id)));
}

export function excludes(patterns: readonly string[], requirements: readonly string[]): boolean {
  if (patterns.length === 0 || requirements.length === 0) return false;
  const regexes = patterns.map(toRegex);
  return requirements.every((id) => regexes.some((r) => r.test(id)));
}

/** A comma-separated setting as patterns (upper case, like the catalog's ids). */
export const patternList = (value: string | undefined): string[] =>
  (value ?? '').split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);

/** The CONFORMANCE_EXCLUDE patterns of this process (workers inherit the run's environment). */
export const excludedPatterns = (env: NodeJS.ProcessEnv = process.env): string[] => patternList(env.CONFORMANCE_EXCLUDE);

const toRegex = (p: string) => new RegExp(`^${p.split('*').map(escape).join('.*')}$`);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
