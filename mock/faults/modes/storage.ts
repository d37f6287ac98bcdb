// Storage and serialization: a value stored as another type, with less precision, cut, in a
// narrower charset, its emptiness or whitespace or case changed, its nested keys renamed. A value
// *stored* so shows in every view (the write's answer is shown again from what is stored); one
// *answered* so shows in one view alone (a serializer of that view).
import type { Rec } from '../../../contract/json.js';
import type { Row } from '../../reference/store.js';
import { afterWrite } from '../writes.js';
import type { FieldElement, ShownElement } from './elements.js';
import { editShown, mapAt, mine, type Mode, mode, persists, SHAPE, viewRequirements } from './mode.js';

/** A stored-value transform: what a column of another type or charset keeps of a value (`undefined`: absent). */
type Transform = (v: unknown) => unknown;
const SAME = Symbol('same');

const isNum = (f: FieldElement) => f.field.types.includes('number') || f.field.types.includes('integer');
const isText = (f: FieldElement) => f.field.types.includes('string') && !f.field.enum && f.field.format !== 'uuid' && !f.field.format?.startsWith('date');
const top = (f: FieldElement) => f.field.path.split(/[.[]/)[0]!;

/** Stores the field through `t` after every write of the operation that sends it. */
function stored(category: 'storage', name: string, words: string, applies: (f: FieldElement) => boolean, t: Transform, typeChange: boolean): Mode {
  return mode<'field'>({
    category,
    mode: name,
    kind: 'field',
    applies,
    requirements: (f) => [persists(f.op.kind), ...(typeChange ? [SHAPE[f.op.record!]!] : [])],
    words: (f) => `${f.op.op} stores ${f.field.path} ${words}`,
    hooks: (f, ctx) => ({
      handle: afterWrite(ctx, (ex) => mine(f.op.op)(ex) && (f.op.multipart || top(f) in ex.body), ({ entry }) => {
        let changed = false;
        const row = mapAt(entry.row, f.field.path, (v) => {
          const out = t(v);
          if (out === SAME) return v;
          if (out !== v) changed = true;
          return out;
        });
        return changed ? { row: row as Row } : undefined;
      }),
    }),
  });
}

const str = (fn: (s: string) => unknown): Transform => (v) => (typeof v === 'string' ? fn(v) : SAME);
const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const camelKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(camelKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v as Rec).map(([k, x]) => [camel(k), camelKeys(x)])) : v;
const cutBytes = (s: string, n: number) => {
  const b = Buffer.from(s);
  return b.length <= n ? s : b.subarray(0, n).toString('utf8').replace(/\uFFFD+$/, '');
};

export const storageModes: Mode[] = [
  stored('storage', 'number-as-string', 'as a string (a text column)', isNum, (v) => (typeof v === 'number' ? String(v) : SAME), true),
  stored('storage', 'numeric-text-as-number', 'as a number when it looks like one (leading zeros lost)', isText,
    str((s) => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : SAME)), true),
  stored('storage', 'decimal-truncated', 'as an integer (a decimal column of scale 0)', isNum, (v) => (typeof v === 'number' ? Math.trunc(v) : SAME), false),
  stored('storage', 'float32-precision', 'in single precision', isNum, (v) => (typeof v === 'number' ? Math.fround(v) : SAME), false),
  stored('storage', 'date-as-timestamp', 'as a timestamp at midnight', (f) => f.field.format === 'date', str((s) => `${s}T00:00:00.000Z`), false),
  stored('storage', 'timestamp-as-date', 'as a date (the time lost)', (f) => f.field.format === 'date-time', str((s) => s.slice(0, 10)), false),
  stored('storage', 'timestamp-zone-shifted', 'in local time written as UTC (two hours off)', (f) => f.field.format === 'date-time',
    str((s) => (Number.isNaN(Date.parse(s)) ? SAME : new Date(Date.parse(s) + 7_200_000).toISOString())), false),
  stored('storage', 'array-as-text', 'as comma-separated text', (f) => f.field.types.includes('array') && f.field.items === 'string',
    (v) => (Array.isArray(v) ? v.join(',') : SAME), true),
  stored('storage', 'boolean-as-01', 'as 0 or 1', (f) => f.field.types.includes('boolean'), (v) => (typeof v === 'boolean' ? (v ? 1 : 0) : SAME), true),
  stored('storage', 'cut-at-64-characters', 'cut at 64 characters (a varchar(64))', isText,
    str((s) => ([...s].length > 64 ? [...s].slice(0, 64).join('') : SAME)), false),
  stored('storage', 'cut-at-255-bytes', 'cut at 255 bytes of UTF-8', isText, str((s) => cutBytes(s, 255)), false),
  stored('storage', 'latin1-replaced', 'with every character outside Latin-1 replaced by "?"', isText, str((s) => s.replace(/[^\u0000-\u00ff]/gu, '?')), false),
  stored('storage', 'utf8-read-as-latin1', 'decoded with the wrong charset (UTF-8 bytes read as Latin-1)', isText,
    str((s) => Buffer.from(s).toString('latin1')), false),
  stored('storage', 'empty-string-as-null', 'as null when empty', isText, str((s) => (s === '' ? null : SAME)), true),
  stored('storage', 'null-as-empty-string', 'as "" when null', (f) => f.field.nullable && f.field.types.includes('string'), (v) => (v === null ? '' : SAME),
    false),
  stored('storage', 'empty-array-as-null', 'as null when an empty array', (f) => f.field.types.includes('array'),
    (v) => (Array.isArray(v) && v.length === 0 ? null : SAME), true),
  // An absent value is shown as the field's blank (reference/full-shape.ts): null where the field
  // is nullable, else "" or []. Only an empty value other than the blank is told apart from absent:
  // "" or [] in a field typed "or null" (a date or other formatted string takes no "")
  stored('storage', 'empty-as-absent', 'as absent when empty ("", [] or null)',
    (f) => !f.field.required && f.field.nullable && (isText(f) || f.field.types.includes('array')),
    (v) => (v === '' || v === null || (Array.isArray(v) && v.length === 0) ? undefined : SAME), false),
  stored('storage', 'whitespace-trimmed', 'with surrounding whitespace trimmed', isText, str((s) => s.trim()), false),
  stored('storage', 'line-breaks-collapsed', 'with line breaks turned into spaces', isText, str((s) => s.replace(/\r\n|\r|\n/g, ' ')), false),
  stored('storage', 'case-folded', 'in lower case', isText, str((s) => s.toLowerCase()), false),
  stored('storage', 'nested-keys-camelcased', 'with the keys inside it rewritten in camelCase',
    (f) => f.field.items === 'object' || f.field.types.includes('object'), camelKeys, true),
];

/** Answers the attribute through `t` in one view alone. */
function answered(name: string, words: string, applies: (s: ShownElement) => boolean, t: Transform, typeChange: boolean): Mode {
  return mode<'shown'>({
    category: 'storage',
    mode: name,
    kind: 'shown',
    applies,
    requirements: (s) => [...viewRequirements(s.view), ...(typeChange ? [SHAPE[s.view.record]!] : [])],
    words: (s) => `${s.view.name} answers ${s.attribute} ${words} (the other views as stored)`,
    hooks: (s) => ({
      respond: editShown(s.view, (o) => {
        if (!(s.attribute in o)) return o;
        const out = t(o[s.attribute]);
        if (out === SAME) return o;
        const next = { ...o };
        if (out === undefined) delete next[s.attribute];
        else next[s.attribute] = out;
        return next;
      }),
    }),
  });
}

export const serializationModes: Mode[] = [
  answered('answered-number-as-string', 'as a string', (s) => s.types.includes('number') || s.types.includes('integer'),
    (v) => (typeof v === 'number' ? String(v) : SAME), true),
  answered('answered-boolean-as-01', 'as 0 or 1', (s) => s.types.includes('boolean'), (v) => (typeof v === 'boolean' ? (v ? 1 : 0) : SAME), true),
  answered('answered-null-as-empty-string', 'as "" when null', (s) => s.types.includes('null') && s.types.includes('string'), (v) => (v === null ? '' : SAME),
    false),
  answered('answered-null-omitted', 'as absent when null', (s) => s.types.includes('null'), (v) => (v === null ? undefined : SAME), true),
  answered('answered-date-as-timestamp', 'as a timestamp at midnight', (s) => s.format === 'date',
    (v) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : SAME), false),
  answered('answered-timestamp-local-offset', 'in local time with a wrong offset (the digits of UTC, labelled +02:00)', (s) => s.format === 'date-time',
    (v) => (typeof v === 'string' && v.endsWith('Z') ? `${v.slice(0, -1)}+02:00` : SAME), false),
  answered('answered-text-latin1-mojibake', 'encoded twice (UTF-8 read as Latin-1)', (s) => s.types.includes('string') && !s.format,
    (v) => (typeof v === 'string' && /[^\x00-\x7f]/.test(v) ? Buffer.from(v).toString('latin1') : SAME), false),
  answered('answered-array-capped', 'with at most one item (a capped relation)', (s) => s.types.includes('array'),
    (v) => (Array.isArray(v) && v.length > 1 ? v.slice(0, 1) : SAME), false),
];

/** The key itself renamed in one view (a serializer's naming strategy). */
export const keyModes: Mode[] = [
  mode<'shown'>({
    category: 'storage',
    mode: 'answered-key-camelcased',
    kind: 'shown',
    applies: (s) => s.attribute.includes('_'),
    requirements: (s) => [...viewRequirements(s.view), SHAPE[s.view.record]!],
    words: (s) => `${s.view.name} answers ${s.attribute} under the key ${camel(s.attribute)}`,
    hooks: (s) => ({
      respond: editShown(s.view, (o) => {
        if (!(s.attribute in o)) return o;
        const { [s.attribute]: v, ...rest } = o;
        return { ...rest, [camel(s.attribute)]: v };
      }),
    }),
  }),
];
