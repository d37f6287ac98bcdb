// Writes: a PATCH that merges what it should replace or resets what it does not name, a zero,
// false or empty value taken for absent, stamps that do not move, move on a read, or are written
// in another zone.
import type { Rec } from '../../../contract/json.js';
import type { Row } from '../../reference/store.js';
import { afterWrite } from '../writes.js';
import { attributesOf, type FieldElement, type ViewElement } from './elements.js';
import { editShown, mine, type Mode, mode, persists, viewRequirements } from './mode.js';

/** §3 state fields of projects: a PATCH of them is a transition with rules of its own. */
const STATE = new Set(['status', 'archived_at', 'closed_at', 'close_reason', 'close_reason_category']);
const topLevel = (f: FieldElement) => !f.field.path.includes('.') && !f.field.path.includes('[');

/** The empty value of a field's type, as a column default gives it. */
const emptyOf = (types: readonly string[]): unknown =>
  types.includes('null')
    ? null
    : types.includes('array')
    ? []
    : types.includes('boolean')
    ? false
    : types.includes('number') || types.includes('integer')
    ? 0
    : '';

const falsy = (v: unknown) => v === 0 || v === false || v === '';
/** Formats whose empty string the reference refuses before any handler (reference/dates.ts, a uuid's pattern): no "" reaches a truthiness test there. */
const REFUSES_EMPTY = ['date', 'date-time', 'uuid'];

export const writeModes: Mode[] = [
  mode<'field'>({
    category: 'writes',
    mode: 'patch-array-merged',
    kind: 'field',
    applies: (f) => f.op.kind === 'patch' && topLevel(f) && f.field.types.includes('array'),
    requirements: () => ['EP-PATCH-PERSISTS'],
    words: (f) => `${f.op.op} merges ${f.field.name} with the stored array instead of replacing it`,
    hooks: (f, ctx) => ({
      handle: afterWrite(ctx, (ex) => mine(f.op.op)(ex) && Array.isArray(ex.body[f.field.name]), ({ entry, prior }) => {
        const was = prior?.row[f.field.name];
        const now = entry.row[f.field.name];
        if (!Array.isArray(was) || !Array.isArray(now)) return undefined;
        const seen = new Set(now.map((x) => JSON.stringify(x)));
        const merged = [...now, ...was.filter((x) => !seen.has(JSON.stringify(x)))];
        return merged.length === now.length ? undefined : { row: { ...entry.row, [f.field.name]: merged } };
      }),
    }),
  }),
  mode<'field'>({
    category: 'writes',
    mode: 'patch-resets-unnamed',
    kind: 'field',
    applies: (f) => f.op.kind === 'patch' && topLevel(f) && !f.field.required && !STATE.has(f.field.name),
    requirements: () => ['EP-PATCH-PARTIAL'],
    words: (f) => `${f.op.op} resets ${f.field.name} to its column default when the PATCH does not name it`,
    hooks: (f, ctx) => ({
      handle: afterWrite(ctx, (ex) => mine(f.op.op)(ex) && !(f.field.name in ex.body), ({ entry }) => {
        const empty = emptyOf(f.field.types);
        if (!(f.field.name in entry.row) || JSON.stringify(entry.row[f.field.name]) === JSON.stringify(empty)) return undefined;
        return { row: { ...entry.row, [f.field.name]: empty } as Row };
      }),
    }),
  }),
  mode<'field'>({
    category: 'writes',
    mode: 'falsy-as-absent',
    kind: 'field',
    // In a create, a field not sent is shown as its blank (reference/full-shape.ts), which is the
    // falsy value itself unless the field is nullable (blank null): only a PATCH (the value held
    // stays) or a nullable field tells a falsy value taken for not sent
    applies: (f) =>
      !f.op.multipart && topLevel(f) && ['number', 'integer', 'boolean', 'string'].some((t) => f.field.types.includes(t)) && !f.field.required
      && (f.op.kind === 'patch' || f.field.nullable) && !REFUSES_EMPTY.includes(f.field.format ?? ''),
    requirements: (f) => [persists(f.op.kind)],
    words: (f) => `${f.op.op} takes ${f.field.name} sent as 0, false or "" for not sent`,
    hooks: (f) => ({
      handle: (ex, next) => {
        if (mine(f.op.op)(ex) && falsy(ex.body[f.field.name])) {
          const { [f.field.name]: _dropped, ...rest } = ex.body;
          ex.body = rest;
        }
        return next();
      },
    }),
  }),
  mode<'route'>({
    category: 'writes',
    mode: 'stamp-frozen',
    kind: 'route',
    applies: (r) => r.op.kind === 'patch',
    requirements: () => ['EP-PATCH-PERSISTS'],
    words: (r) => `${r.op.op} leaves updated_at as it was`,
    hooks: (r, ctx) => ({
      handle: afterWrite(ctx, mine(r.op.op),
        ({ entry, prior }) =>
          prior && prior.row.updated_at !== entry.row.updated_at ? { row: { ...entry.row, updated_at: prior.row.updated_at } as Row } : undefined),
    }),
  }),
  mode<'route'>({
    category: 'writes',
    mode: 'stamps-local-zone',
    kind: 'route',
    applies: (r) => r.op.kind === 'create',
    requirements: () => ['EP-CREATE-PERSISTS'],
    words: (r) => `${r.op.op} stamps created_at and updated_at in local time written as UTC (two hours ahead)`,
    hooks: (r, ctx) => ({
      handle: afterWrite(ctx, mine(r.op.op), ({ entry }) => {
        const shift = (v: unknown) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(Date.parse(v) + 7_200_000).toISOString() : v);
        return { row: { ...entry.row, created_at: shift(entry.row.created_at), updated_at: shift(entry.row.updated_at) } as Row };
      }),
    }),
  }),
  mode<'view'>({
    category: 'writes',
    mode: 'stamp-moves-on-read',
    kind: 'view',
    // only a record with an updated_at has one to touch (an attachment has none)
    applies: (v: ViewElement) => attributesOf(v.record).some((a) => a.attribute === 'updated_at'),
    requirements: (v) => viewRequirements(v),
    words: (v) => `${v.name} answers updated_at as the time of the read (a touch on every load)`,
    hooks: (v) => ({
      respond: editShown(v, (o: Rec) => ('updated_at' in o ? { ...o, updated_at: new Date().toISOString() } : o)),
    }),
  }),
] satisfies Mode[];
