// Regular expressions made from text: a literal part, and a glob of requirement ids (the catalog's,
// `--only`, `--exclude`, CONFORMANCE_ONLY, CONFORMANCE_EXCLUDE). Declared once for every folder.

/** `text` as a literal part of a regular expression. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A glob of requirement ids: `*` any run of characters, `?` one character; case-insensitive (ids are upper case). */
export function globRegExp(pattern: string): RegExp {
  const body = pattern
    .trim()
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : escapeRegExp(c)))
    .join('');
  return new RegExp(`^${body}$`, 'i');
}
