// What a null sent for a field §2 types as non-null answers (reading null-on-typed-field): refused
// as a value of the wrong type (the schema's own answer), taken to clear the field, or ignored.
// And the text of a body as the server keeps it (reading text-normal-form): as sent, or composed.
import { schema, type SchemaName } from '../../specs/index.js';
import type { AppContext } from './context.js';

type Node = Record<string, unknown>;

const nullable = new Map<SchemaName, Set<string>>();

/** The top-level fields of a request schema that are typed nullable (the rest take no null). */
export function nullableFields(name: SchemaName): Set<string> {
  let out = nullable.get(name);
  if (!out) {
    out = new Set();
    for (const [k, raw] of Object.entries(((schema(name) as Node).properties ?? {}) as Record<string, Node>)) {
      let p = raw;
      // one level of $ref: the request schemas name the record's property
      if (typeof p.$ref === 'string') {
        const [file, pointer = ''] = p.$ref.split('#');
        let target = schema((file ? file.replace(/\.json$/, '') : name) as SchemaName) as Node;
        for (const part of pointer.split('/').filter(Boolean)) target = target[part] as Node;
        p = target;
      }
      if (Array.isArray(p.type) && p.type.includes('null')) out.add(k);
    }
    nullable.set(name, out);
  }
  return out;
}

/** The record schema a request schema writes (`assignment-patch` → `assignment`). */
const recordOf = (name: SchemaName) => name.replace(/-(create|patch)$/, '') as SchemaName;

/**
 * The body as the request's schema is then to check it: under `clear` and `ignore`, the nulls of
 * fields typed non-null are left out of the check (a field the record cannot lack keeps its null,
 * and is refused); `ignore` also removes them from the body, and so does `clear` on a create
 * (nothing to clear); on a PATCH under `clear` they stay in the body, for patchedRow to clear.
 */
export function readNulls(
  ctx: AppContext,
  name: SchemaName,
  body: Record<string, unknown>,
): { body: Record<string, unknown>; checked: Record<string, unknown>; } {
  const reading = ctx.readings.value('null-on-typed-field');
  if (reading === 'refuse') return { body, checked: body };
  const keepNull = nullableFields(name);
  const required = new Set(((schema(recordOf(name)) as Node).required ?? []) as string[]);
  const odd = Object.keys(body).filter((k) => body[k] === null && !keepNull.has(k) && !required.has(k));
  if (!odd.length) return { body, checked: body };
  const without = Object.fromEntries(Object.entries(body).filter(([k]) => !odd.includes(k)));
  const creates = name.endsWith('-create');
  return { body: reading === 'ignore' || creates ? without : body, checked: without };
}

/** Strings of a JSON body as the server keeps them (reading text-normal-form=nfc: composed). */
export function keptText<T>(ctx: AppContext, value: T): T {
  if (ctx.readings.value('text-normal-form') !== 'nfc') return value;
  const walk = (v: unknown): unknown =>
    typeof v === 'string'
      ? v.normalize('NFC')
      : Array.isArray(v)
      ? v.map(walk)
      : v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v as Node).map(([k, x]) => [k, walk(x)]))
      : v;
  return walk(value) as T;
}
