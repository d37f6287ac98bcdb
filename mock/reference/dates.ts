// The mock's reading of dates and timestamps in request bodies. §2: "Timestamps and dates are
// strings" and "Formats of timestamps and dates ... are not shown": every spelling that reads as an
// instant is taken (Date.parse), and one that reads as none (an empty string, "soon") is refused, as a
// record holding it would show a date that is no date.
import type { Rec } from '../../contract/json.js';
import { schema, type SchemaName } from '../../specs/index.js';

const DATED = new Set(['date', 'date-time']);

/** `x.json#/a/b` in a schema of specs/: the node it names. */
function resolved(node: Rec): Rec {
  let cur = node;
  for (let hops = 0; typeof cur.$ref === 'string' && hops < 8; hops++) {
    const [file, pointer = ''] = (cur.$ref as string).split('#');
    let target = schema(file!.replace(/\.json$/, '') as SchemaName) as Rec;
    for (const part of pointer.split('/').filter(Boolean)) target = target[part] as Rec;
    cur = target;
  }
  return cur;
}

const datedFields = new Map<SchemaName, string[]>();

/** The top-level properties of a body schema typed as a date or a timestamp. */
function datedOf(name: SchemaName): string[] {
  let out = datedFields.get(name);
  if (!out) {
    const props = ((schema(name) as Rec).properties ?? {}) as Record<string, Rec>;
    out = Object.entries(props).filter(([, raw]) => DATED.has(String(resolved(raw).format))).map(([prop]) => prop);
    datedFields.set(name, out);
  }
  return out;
}

/** Field → message for each date or timestamp of `body` that reads as no instant. */
export function unreadableDates(name: SchemaName, body: Rec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const prop of datedOf(name)) {
    const v = body[prop];
    if (typeof v === 'string' && (v.trim() === '' || Number.isNaN(Date.parse(v)))) out[prop] = 'must be a date or timestamp';
  }
  return out;
}
