// The boundary catalog: for each type a request field of the document can have, the values that
// reveal how implementations commonly mishandle it, each naming the failure mode it reveals. A
// check sends every entry of a field's type to that field, in creates and in PATCHes, and reads it
// back in the document's terms (instants as instants, numbers as numbers, dates as days).
//
// `must`: the document is explicit that the value is one the field takes (its type is boolean and
// this is a boolean; the field is typed "or null" and this is null; the value is listed for the
// field): a refusal fails. Otherwise the document is silent on the value (lengths, formats,
// ranges and normal forms are not shown, §2 "Formats of timestamps and dates, and the currency
// code format, are not shown"): it may be refused, leaving no trace, but once accepted it must be
// kept as sent. `compare` says how "as sent" is read where spellings may legitimately differ.
import type { Field } from './surface.js';

export type BoundaryType =
  | 'text'
  | 'formatted'
  | 'listed'
  | 'date'
  | 'timestamp'
  | 'number'
  | 'money'
  | 'boolean'
  | 'strings'
  | 'listed-strings'
  | 'objects'
  | 'nullable'
  | 'filename'
  | 'query';

/**
 * How an accepted value is compared with what the record shows: `exact` (as JSON, numbers as
 * numbers; text in another Unicode normal form is recorded, not failed), `instant` (the same
 * instant or day, any spelling), `trim` (whitespace at the ends may go, recorded), `rounded`
 * (a number kept to at least two decimals), `set` (the same items in any order, repeats may go),
 * `basename` (a filename's directories may go).
 */
export type Compare = 'exact' | 'instant' | 'trim' | 'rounded' | 'set' | 'basename';

export interface Boundary {
  /** Short name, unique within its type. */
  name: string;
  value: unknown;
  /** The failure mode the value reveals. */
  reveals: string;
  must?: boolean;
  compare?: Compare;
  /**
   * One of the few values a create of a resource the API cannot delete takes (each create leaves a
   * record on the target): together with the empty and the explicit values, one per failure mode.
   */
  few?: boolean;
  /** Only for the fields whose name this matches (a value in the spelling of one format: a URL, an email). */
  fits?: RegExp;
  /**
   * A value that may be read as clearing the field: answered without it (or null) is kept too. An
   * empty string sent to a date or a timestamp, a type whose empty spelling the document does not show.
   */
  clears?: boolean;
}

const long = (n: number, unit: string) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

export const BOUNDARIES = {
  text: [
    { name: 'empty', value: '', reveals: 'an empty string ignored by a truthiness test (`body.x || old.x`) or stored as null' },
    // §2 types the field a string: the string sent is the value, its ends included (a store that trims is a failure mode)
    { name: 'padded', value: '  padded value \n', reveals: 'whitespace and line breaks at the ends dropped' },
    { name: 'numeric', value: '007', reveals: 'numeric-looking text stored as a number: its leading zeros and its type lost', few: true },
    {
      name: 'mixed',
      value: ' Łódź 𝄞 Cafe\u0301 "Q" \\ <b>&amp;</b> %_\r\nLine TWO\tend \n',
      reveals: 'ends trimmed, line breaks collapsed, text outside Latin-1 replaced or re-encoded, letter case folded, quotes or markup rewritten',
      few: true,
    },
    { name: 'lines', value: 'line one\r\nline two\n\tindented', reveals: 'inner line breaks and tabs rewritten (CRLF to LF) or collapsed' },
    { name: 'long-256', value: long(256, 'abcdefghij'), reveals: 'truncation at a 255-character column' },
    { name: 'long-multibyte', value: long(300, 'é東😀'), reveals: 'a length counted in bytes or UTF-16 units: truncation mid-character', few: true },
    { name: 'planes', value: 'Ω 𝄞 𠀀 \u{F0000} ẞ', reveals: 'characters outside the Basic Multilingual Plane lost or replaced (a 3-byte utf8 column)' },
    { name: 'decomposed', value: 'Cafe\u0301 n\u0303o Zu\u0308rich', reveals: 'combining marks dropped or text re-encoded' },
    { name: 'scripts', value: 'Müller Łódź Привет مرحبا 日本語 עברית', reveals: 'text decoded in another charset (latin1 mojibake)' },
    {
      name: 'reserved',
      value: `<b>&amp;</b> "quoted" 'single' \\back/slash %_wild* ; -- \${x} {{y}}`,
      reveals: 'markup escaped, quotes or backslashes doubled, wildcards or templates interpreted',
    },
    { name: 'nul', value: 'before\u0000after', reveals: 'a NUL character that the store rejects with a server error' },
  ],
  // strings whose name says what they hold (an email, a URL, a currency or country code): the legal spellings
  formatted: [
    { name: 'empty', value: '', reveals: 'an empty string ignored by a truthiness test or stored as null' },
    // a format may refuse these (formats are not shown, §2); one it takes is kept as sent
    { name: 'non-ascii', value: 'Müller Łódź 日本', reveals: 'text outside ASCII replaced or decoded in another charset' },
    { name: 'numeric', value: '0042', reveals: 'numeric-looking text stored as a number: its leading zeros and its type lost', few: true },
    { name: 'spaced', value: ' Line one\r\nline two\t', reveals: 'whitespace at the ends trimmed or line breaks collapsed' },
    // the format's own spelling with text outside Latin-1 in it, for a server that refuses anything else (IRIs, RFC 6531 addresses)
    {
      name: 'iri',
      value: 'https://example.org/Łódź/日本?q=😀',
      reveals: 'text outside Latin-1 replaced or re-encoded in a URL',
      few: true,
      fits: /(^|_)url$|^website$/,
    },
    {
      name: 'intl-email',
      value: 'łódź.日本@example.org',
      reveals: 'text outside Latin-1 replaced or re-encoded in an email address',
      few: true,
      fits: /(^|_)email$/,
    },
    { name: 'long', value: long(300, 'abcdefghij'), reveals: 'a value cut at a column width (64 characters, 255 bytes)' },
    {
      name: 'mixed',
      value: ` Müller Łódź\r\n日本 😀 ${long(240, 'abcdefghij')} `,
      reveals:
        'text outside Latin-1 replaced or re-encoded, ends trimmed, line breaks collapsed, letter case folded, a value cut at 64 characters or 255 bytes',
      few: true,
    },
  ],
  // a field with values seen (§2 "Only the values that appear in the interface are listed, as
  // examples"): the set is open and not shown, so another value may be refused, but one taken is kept
  listed: [
    { name: 'empty', value: '', reveals: 'an empty string ignored by a truthiness test or stored as absent or null' },
    { name: 'upper', value: (v: string) => v.toUpperCase(), reveals: 'a listed value in another letter case answered otherwise than kept or refused' },
    // §2: "Sets of allowed values of enumerated fields are not shown": a value outside the listed ones may be refused; one taken is kept as sent
    { name: 'numeric', value: '0042', reveals: 'numeric-looking text stored as a number: its leading zeros and its type lost', few: true },
    {
      name: 'mixed',
      value: (v: string) => ` ${v} Łódź\r\n東京 😀 ${long(70, 'abcdefghij')}\t`,
      reveals: 'text outside Latin-1 replaced or re-encoded, ends trimmed, line breaks collapsed, letter case folded, a value cut at 64 characters',
      few: true,
    },
    { name: 'other-script', value: (v: string) => `${v} Łódź 東京 😀`, reveals: 'text outside Latin-1 replaced or re-encoded' },
    {
      name: 'spaced',
      value: (v: string) => ` ${v}\r\n${v}\t`,
      reveals: 'whitespace at the ends trimmed or line breaks collapsed',
    },
    {
      name: 'long',
      value: (v: string) => `${v}-${long(80, 'abcdefghij')}`,
      reveals: 'a value cut at a column width (64 characters)',
    },
    { name: 'long-300', value: (v: string) => `${v}-${long(300, 'abcdefghij')}`, reveals: 'a value cut at a column width of 255 characters or bytes' },
  ],
  date: [
    { name: 'year-start', value: '2031-01-01', reveals: 'a day read as local midnight and shifted to the day before', must: true, compare: 'instant' },
    { name: 'year-end', value: '2031-12-31', reveals: 'a day shifted across a year boundary by a time zone', compare: 'instant' },
    { name: 'leap-day', value: '2032-02-29', reveals: 'a leap day refused or rolled to March 1', compare: 'instant', few: true },
    { name: 'old', value: '1999-12-31', reveals: 'a two-digit year or a lower bound on dates', compare: 'instant' },
    // last, when the field holds a day. Formats are not shown (§2): "" may be refused or read as no date; taken, it must not leave the old day in place
    { name: 'empty', value: '', reveals: 'an empty string ignored by a truthiness test (`body.x || old.x`): the old day kept', clears: true },
  ],
  timestamp: [
    { name: 'utc', value: '2031-03-01T09:30:00Z', reveals: 'a timestamp without fraction refused or shifted', must: true, compare: 'instant' },
    { name: 'millis', value: '2031-03-01T09:30:00.123Z', reveals: 'milliseconds dropped', compare: 'instant' },
    { name: 'offset-plus', value: '2031-03-01T11:30:00+02:00', reveals: 'an offset ignored: the wall time stored as UTC', compare: 'instant' },
    { name: 'offset-minus', value: '2031-03-01T04:00:00-05:30', reveals: 'a negative half-hour offset ignored or misread', compare: 'instant', few: true },
    { name: 'year-end', value: '2031-12-31T23:59:59.999Z', reveals: 'rounding of the fraction carried into the next year', compare: 'instant' },
    { name: 'empty', value: '', reveals: 'an empty string ignored by a truthiness test (`body.x || old.x`): the old instant kept', clears: true },
  ],
  number: [
    { name: 'zero', value: 0, reveals: 'zero ignored by a truthiness test (`body.x || old.x`) or stored as null' },
    { name: 'integer', value: 100, reveals: 'an integral number turned into a string or another type' },
    { name: 'fraction', value: 0.5, reveals: 'a fraction truncated to an integer column', few: true },
    { name: 'many-decimals', value: 12.345678, reveals: 'decimals cut to an integer, or a rounding error shown as binary noise', compare: 'rounded' },
    { name: 'large', value: 2147483648, reveals: 'a 32-bit column overflowing into a server error or a wrapped value', few: true },
    { name: 'negative', value: -1, reveals: 'a sign dropped' },
  ],
  money: [
    { name: 'zero', value: 0, reveals: 'zero ignored by a truthiness test (`body.x || old.x`) or stored as null' },
    { name: 'cents', value: 0.01, reveals: 'cents lost to an integer or float column', few: true },
    { name: 'integer', value: 120, reveals: 'an integral amount turned into a string or another type' },
    { name: 'large', value: 9999999.99, reveals: 'a NUMERIC column too narrow: a server error or a changed amount', few: true },
    { name: 'many-decimals', value: 95.125, reveals: 'decimals beyond cents cut to an integer', compare: 'rounded' },
  ],
  boolean: [
    { name: 'false', value: false, reveals: 'false ignored by a truthiness test (`body.x || default`)', must: true },
    { name: 'true', value: true, reveals: 'true not stored', must: true },
  ],
  strings: [
    { name: 'empty', value: [], reveals: 'an empty array ignored by a length test, so nothing can be cleared' },
    { name: 'comma', value: ['C++, Go', 'Node.js'], reveals: 'items joined with commas and split again', few: true },
    { name: 'order', value: ['zeta', 'alpha', 'Ölmühle 東京'], reveals: 'items reordered or re-encoded', compare: 'set', few: true },
    { name: 'many', value: Array.from({ length: 60 }, (_, i) => `item-${String(i).padStart(2, '0')}`), reveals: 'items cut at a fixed count' },
  ],
  'listed-strings': [
    { name: 'empty', value: [], reveals: 'an empty array ignored by a length test, so nothing can be cleared' },
    // a listed value and another beside it (the set is open, §2 "value seen"): refused, or every item kept
    {
      name: 'several',
      value: (v: string) => [v, `${v} Łódź 東京`],
      reveals: 'items after the first dropped (a capped relation), or items re-encoded',
      compare: 'set',
    },
  ],
  objects: [
    { name: 'empty', value: [], reveals: 'an empty array ignored by a length test, so no item can be removed' },
  ],
  nullable: [
    { name: 'null', value: null, reveals: 'null refused on a field the document types "or null"', must: true },
  ],
  filename: [
    { name: 'utf8', value: 'Müller résumé.pdf', reveals: 'part headers decoded as latin1: mojibake' },
    { name: 'decomposed', value: 'Cafe\u0301 men\u0303u.txt', reveals: 'combining marks dropped' },
    { name: 'astral', value: 'report 😀 𠀀.txt', reveals: 'characters outside the Basic Multilingual Plane lost' },
    { name: 'spaces', value: 'two  spaces (1) [final].txt', reveals: 'spaces collapsed or brackets stripped' },
    { name: 'long', value: `${long(200, 'longname-')}.txt`, reveals: 'a name cut at a column width' },
    { name: 'no-extension', value: 'README', reveals: 'a name without an extension refused or given one' },
  ],
  query: [
    { name: 'token-upper', value: (token: string) => token.toUpperCase(), reveals: 'a search that is case-sensitive where the text differs only in case' },
    { name: 'wildcard-percent', value: () => '%', reveals: 'LIKE wildcards interpreted: % answered with every record, or a server error' },
    { name: 'wildcard-underscore', value: () => '_', reveals: 'LIKE wildcards interpreted: _ answered with every record, or a server error' },
    { name: 'quote', value: () => `it's "x" \\`, reveals: 'quotes and backslashes breaking the query: a server error' },
    { name: 'unicode', value: () => 'Łódź 東京 😀', reveals: 'non-ASCII search text mangled by the decoding of the query string' },
    { name: 'spaces', value: (token: string) => `  ${token}  `, reveals: 'search text not trimmed: a padded token finds nothing', compare: 'trim' },
  ],
} as const satisfies Record<BoundaryType, readonly Boundary[]>;

/**
 * The entry of each text type whose value holds text outside ASCII, in more than one script: what
 * a field is left holding after its boundary values, so that every view of the record is read with
 * such text in every string field that takes it (a view that decodes it in another charset shows).
 */
export const NON_ASCII: Partial<Record<BoundaryType, string>> = { text: 'scripts', formatted: 'non-ascii', listed: 'other-script' };

/** Strings whose name says what they hold: the values a client sends there are of that format. */
const FORMATTED = /(^|_)email$|^electronic_address$|(^|_)url$|^website$|^currency$|country$|^phone$|^postal_code$|^vat_id$|_scheme$|^buyer_identifier$/;
/** Amounts of money, by name: rates, values. */
const MONEY = /rate|value$/;

/** The catalog types of a request field: all that apply (a nullable text field takes the text entries and null). */
export function boundaryTypesOf(f: Field): BoundaryType[] {
  const t = f.types.filter((x) => x !== 'null');
  const out: BoundaryType[] = [];
  if (f.nullable) out.push('nullable');
  if (f.references || f.enum || f.name === 'id') return out;
  if (t.includes('array')) {
    // items of a shape not shown (§2 "element shape not shown") take the empty array alone
    if (f.items === 'object' || f.items === 'unknown') out.push('objects');
    else if (f.items === 'string') out.push(f.examples ? 'listed-strings' : 'strings');
    return out;
  }
  if (t.includes('boolean')) out.push('boolean');
  else if (t.includes('number') || t.includes('integer')) out.push(MONEY.test(f.name) ? 'money' : 'number');
  else if (t.includes('string')) {
    if (f.format === 'date') out.push('date');
    else if (f.format === 'date-time') out.push('timestamp');
    else if (f.format) return out;
    else if (f.examples) out.push('listed');
    else out.push(FORMATTED.test(f.name) ? 'formatted' : 'text');
  }
  return out;
}
