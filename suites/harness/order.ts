// Whether a sequence of records is ordered by a field. The collation of a deployment is not
// shown, so strings count as ordered under any one of a few common collations, used
// consistently over the whole sequence; nulls and missing values are left out. Timestamps and
// dates (§2: "Formats of timestamps and dates ... are not shown") are compared as instants first:
// a format that drops trailing zeros of the fraction (Go's RFC3339Nano: …05.12Z before …05.125Z)
// or writes another offset is not ordered as text.

import { instantOf } from './judge/instants.js';

type Cmp = (a: unknown, b: unknown) => number;

const num = (a: unknown, b: unknown) => (a as number) - (b as number);
// PostgreSQL under glibc's en_US.utf8 (and ICU's shifted collations) ignores spaces and
// punctuation on the first pass: "Database" before "Data Platform", "Abc" before "A-Z Corp".
const punctuationBlind = new Intl.Collator('en', { ignorePunctuation: true, sensitivity: 'base' });
const collations: Cmp[] = [
  (a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0),
  (a, b) => {
    const x = String(a).toLowerCase(), y = String(b).toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  },
  (a, b) => String(a).localeCompare(String(b)),
  (a, b) => String(a).localeCompare(String(b), undefined, { sensitivity: 'base', numeric: true }),
  (a, b) => punctuationBlind.compare(String(a), String(b)),
];

/**
 * A timestamp or date as whole seconds since the epoch and its fraction padded to nine digits:
 * exact below the millisecond Date.parse keeps, whatever the format writes. Undefined when it
 * does not parse.
 */
function instant(v: unknown): [number, string] | undefined {
  const ms = instantOf(v);
  if (ms === undefined) return undefined;
  const fraction = /\d:\d\d\.(\d+)/.exec(String(v))?.[1] ?? '';
  return [Math.floor(ms / 1000), fraction.padEnd(9, '0').slice(0, 9)];
}

const byInstant: Cmp = (a, b) => {
  const [x, fx] = instant(a)!, [y, fy] = instant(b)!;
  return x !== y ? x - y : fx < fy ? -1 : fx > fy ? 1 : 0;
};

const isTimeField = (field: string) => field.endsWith('_at') || field.endsWith('_date');

export function isOrdered(records: readonly Record<string, unknown>[], field: string, order: 'asc' | 'desc'): boolean {
  const values = records.map((r) => r[field]).filter((v) => v !== null && v !== undefined);
  const cmps = values.every((v) => typeof v === 'number')
    ? [num]
    : isTimeField(field) && values.every((v) => instant(v) !== undefined)
    ? [byInstant, ...collations]
    : collations;
  const sign = order === 'asc' ? 1 : -1;
  return cmps.some((cmp) => values.every((v, i) => i === 0 || sign * cmp(values[i - 1], v) <= 0));
}

/** Distinct values of the field: ordering can only be observed when there are at least two. */
export function distinctValues(records: readonly Record<string, unknown>[], field: string): number {
  return new Set(records.map((r) => JSON.stringify(r[field] ?? null))).size;
}

/** Candidates for the default sort, when CONFORMANCE_SORT_FIELDS names none. */
export const defaultSortCandidates = ['created_at', 'updated_at', 'id', 'name', 'title'];

/**
 * The field a sample of a list is ordered by, in either order, among the candidates in their
 * order of likelihood, or undefined when the sample does not tell: a candidate ordered either way
 * whose values repeat may be the sort with its ties broken by a later one (records created within
 * one tick, timestamps in whole seconds), so a later candidate ordered in the sample is no
 * evidence of the sort.
 */
export function inferSortField(records: readonly Record<string, unknown>[]): string | undefined {
  for (const f of defaultSortCandidates) {
    const shown = records.filter((r) => f in r);
    if (!shown.length) continue;
    const ordered = isOrdered(records, f, 'asc') || isOrdered(records, f, 'desc');
    const distinct = distinctValues(shown, f);
    if (ordered && distinct > 1) return f;
    if (ordered && distinct < shown.length) return undefined;
  }
  return undefined;
}
