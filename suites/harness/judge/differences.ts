// What a comparison found different, by path: a reader of a failure sees the two fields that
// differ first, not two whole bodies to compare by eye.
import type { Difference } from '../../../contract/check.js';

export type { Difference } from '../../../contract/check.js';

const show = (v: unknown): string => JSON.stringify(v) ?? 'undefined';
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const at = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/** How many differences a failure lists; the rest are counted. */
export const DIFFERENCES_SHOWN = 8;

/**
 * The leaves where `got` and `expected` differ, depth first, in the order of `expected`'s keys and
 * then `got`'s extra ones. Arrays are compared item by item; a missing side has no text.
 */
export function differencesOf(
  got: unknown,
  expected: unknown,
  path = '',
  same: (a: unknown, b: unknown) => boolean = (a, b) => show(a) === show(b),
): Difference[] {
  if (same(got, expected)) return [];
  if (isObject(got) && isObject(expected)) {
    const keys = [...Object.keys(expected), ...Object.keys(got).filter((k) => !(k in expected))];
    return keys.flatMap((k) =>
      !(k in got)
        ? [{ path: at(path, k), expected: show(expected[k]) }]
        : !(k in expected)
        ? [{ path: at(path, k), got: show(got[k]) }]
        : differencesOf(got[k], expected[k], at(path, k), same)
    );
  }
  if (Array.isArray(got) && Array.isArray(expected)) {
    const n = Math.max(got.length, expected.length);
    return Array.from({ length: n }, (_, i) =>
      i >= got.length
        ? [{ path: at(path, i), expected: show(expected[i]) }]
        : i >= expected.length
        ? [{ path: at(path, i), got: show(got[i]) }]
        : differencesOf(got[i], expected[i], at(path, i), same)).flat();
  }
  return [{ path, ...(got === undefined ? {} : { got: show(got) }), ...(expected === undefined ? {} : { expected: show(expected) }) }];
}

/**
 * The differences of the named top-level `fields` of two records, each down to its leaves (an
 * embedded record's one field, not the whole of it); a field that differs only as the caller
 * judges it (instants, say) is shown whole.
 */
export function fieldDifferences(got: Record<string, unknown>, expected: Record<string, unknown>, fields: readonly string[]): Difference[] {
  const canonical = (v: unknown) =>
    JSON.stringify(v, (_k, x: unknown) =>
      x && typeof x === 'object' && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : x);
  return fields.flatMap((f) => {
    const deep = differencesOf(got[f], expected[f], f, (a, b) => canonical(a) === canonical(b));
    return deep.length ? deep : [{ path: f, got: show(got[f]), expected: show(expected[f]) }];
  });
}

/** One difference in words: `employee.first_name: got "A" expected "B"`. */
export function differenceLine(d: Difference): string {
  const got = d.got === undefined ? 'missing' : `got ${d.got}`;
  const expected = d.expected === undefined ? 'not expected' : `expected ${d.expected}`;
  return `${d.path || '(the value)'}: ${got} ${expected}`;
}

/** The differences in one line, the first few of them. */
export function differencesText(ds: readonly Difference[]): string {
  const shown = ds.slice(0, DIFFERENCES_SHOWN).map(differenceLine).join('; ');
  return ds.length > DIFFERENCES_SHOWN ? `${shown}; and ${ds.length - DIFFERENCES_SHOWN} more` : shown;
}
