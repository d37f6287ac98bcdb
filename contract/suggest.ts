// What a misspelled name probably meant: a flag, a command, a setting, a fault. One helper for the
// command line and the settings alike, so a typo is answered the same way wherever it is made.

/** Edit distance (insertions, deletions, substitutions), enough to catch a typo in a name. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * The known name closest to `word`, when it is close enough to be a typo (or `word` is its prefix).
 * `prefix` is shared by every name and not part of the comparison (`CONFORMANCE_SEEED` is three
 * letters from `CONFORMANCE_SEED`, not one in seventeen).
 */
export function didYouMean(word: string, known: readonly string[], prefix = ''): string | undefined {
  const strip = (s: string) => (prefix && s.toLowerCase().startsWith(prefix.toLowerCase()) ? s.slice(prefix.length) : s).toLowerCase();
  const w = strip(word);
  const prefixed = known.filter((k) => strip(k).startsWith(w) && w.length >= 3);
  if (prefixed.length === 1) return prefixed[0];
  const scored = known.map((k) => [k, distance(w, strip(k))] as const).sort((a, b) => a[1] - b[1]);
  const best = scored[0];
  return best && best[1] <= Math.max(1, Math.floor(w.length / 3)) ? best[0] : undefined;
}
