// Changes of the field tables (§2 resources and their sub-objects, §4 list parameters, §7 error envelope):
// tables and fields added or removed, and per field its type, "or null", "required on create", the
// values it lists and its notes.
import type { Change } from '../diff/index.js';
import type { ApiDocument, FieldTable } from './api-document.js';
import { cellChange } from './compare-prose.js';
import type { FieldSpec } from './fields.js';
import { documentChange, fieldKinds } from './kinds.js';

type Emit = ((what: keyof (typeof fieldKinds)['resource'], where: string, message: string) => void) & { change(change: Change): void; };

export function compareFieldTables(a: ApiDocument, b: ApiDocument): Change[] {
  const changes: Change[] = [];
  for (const name of new Set([...a.tables.keys(), ...b.tables.keys()])) {
    const [before, after] = [a.tables.get(name), b.tables.get(name)];
    const table = (after ?? before)!;
    const base = `§${table.place.section} ${name}`;
    const emit: Emit = Object.assign((what: keyof (typeof fieldKinds)['resource'], where: string, message: string) => {
      changes.push(documentChange(fieldKinds[table.role][what], where, message));
    }, { change: (change: Change) => changes.push(change) });
    if (!before) emit('table-added', base, `${name} added (${after!.fields.size} field(s))`);
    else if (!after) emit('table-removed', base, `${name} removed`);
    else if (before.role !== after.role) emit('table-removed', base, `${name} is now read as ${after.role}, was ${before.role}`);
    else compareFields(before, after, base, emit);
  }
  return changes;
}

function compareFields(before: FieldTable, after: FieldTable, base: string, emit: Emit): void {
  for (const name of new Set([...before.fields.keys(), ...after.fields.keys()])) {
    const [old, now] = [before.fields.get(name), after.fields.get(name)];
    const where = `${base}/${name}`;
    if (!old) emit(now!.required ? 'added-required' : 'added', where, `field "${name}" added (${describe(now!)})`);
    else if (!now) emit('removed', where, `field "${name}" removed (was ${describe(old)})`);
    else compareField(name, old, now, where, emit);
  }
}

function compareField(name: string, old: FieldSpec, now: FieldSpec, where: string, emit: Emit): void {
  if (old.type !== now.type) emit('type-changed', where, `field "${name}": type ${old.type || '(none)'} → ${now.type || '(none)'}`);
  if (!old.nullable && now.nullable) emit('became-nullable', where, `field "${name}" can now be null`);
  if (old.nullable && !now.nullable) emit('became-non-nullable', where, `field "${name}" can no longer be null`);
  if (!old.required && now.required) emit('became-required', where, `field "${name}" is now required on create`);
  if (old.required && !now.required) emit('became-optional', where, `field "${name}" is no longer required on create`);
  if (!old.requiredOnUpdate && now.requiredOnUpdate) emit('became-required', where, `field "${name}" is now required on update`);
  if (old.requiredOnUpdate && !now.requiredOnUpdate) emit('became-optional', where, `field "${name}" is no longer required on update`);
  const [was, is] = [old.values, now.values];
  if (was && is && was.closed !== is.closed) {
    if (is.closed) emit('values-closed', where, `field "${name}": the values listed are now the whole set (one of: ${is.list.join(', ')})`);
    else emit('values-opened', where, `field "${name}": the values listed are now examples (value seen: ${is.list.join(', ')})`);
  }
  for (const v of is?.list ?? []) if (!(was?.list ?? []).includes(v)) emit('value-added', where, `field "${name}": value "${v}" added`);
  for (const v of was?.list ?? []) if (!(is?.list ?? []).includes(v)) emit('value-removed', where, `field "${name}": value "${v}" removed`);
  // Notes can state behaviour (`at most 100`, `an empty cursor is refused`, `asc, desc or relevance`).
  if (old.notes !== now.notes) {
    emit.change(cellChange(old.notes || undefined, now.notes || undefined, where, `field "${name}": notes "${old.notes}" → "${now.notes}"`));
  }
}

const describe = (f: FieldSpec): string =>
  [
    f.type || 'no type',
    f.nullable ? 'or null' : '',
    f.required ? 'required on create' : '',
    f.requiredOnUpdate ? 'required on update' : '',
    f.values ? `${f.values.closed ? 'one of' : 'value seen'}: ${f.values.list.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(', ');
