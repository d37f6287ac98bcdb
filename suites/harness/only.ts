// CONFORMANCE_ONLY: requirement ids or globs such as LIST-*; a check runs when one of its ids matches.

export function selects(patterns: readonly string[], requirements: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const regexes = patterns.map((p) => new RegExp(`^${p.split('*').map(escape).join('.*')}$`));
  return requirements.some((id) => regexes.some((r) => r.test(id)));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
