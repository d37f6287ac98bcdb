// The field tables of §2 (and the error envelope of §7): one FieldSpec per field name, with what the
// document says about it — its type, "or null", "required on create", and the values it lists
// ("value seen: x" as examples of an open set, "one of: a, b" as the whole set).

export interface Values {
  /** "one of:" lists the whole set; "value seen:" only examples of it. */
  closed: boolean;
  list: string[];
}

export interface FieldSpec {
  name: string;
  type: string;
  nullable: boolean;
  required: boolean;
  /** `required on update` (or `on PATCH`): the field must be in every PATCH body. */
  requiredOnUpdate?: true;
  values?: Values;
  /** The rest of the notes, wording only. */
  notes: string;
  line: number;
}

interface Annotation {
  required?: true;
  requiredOnUpdate?: true;
  values?: Values;
}

const valueList = (text: string): string[] => text.split(/\s*,\s*|\s+or\s+|\s+and\s+/).map((v) => v.trim()).filter(Boolean);

function annotation(phrase: string): Annotation | undefined {
  const p = phrase.trim();
  if (/^required on create$/i.test(p)) return { required: true };
  if (/^required on (update|patch)$/i.test(p)) return { requiredOnUpdate: true };
  const seen = /^values? seen:\s*(.+)$/i.exec(p);
  if (seen) return { values: { closed: false, list: valueList(seen[1]!) } };
  const oneOf = /^one of:\s*(.+)$/i.exec(p);
  return oneOf ? { values: { closed: true, list: valueList(oneOf[1]!) } } : undefined;
}

/** Splits at `separator` outside (), {} and []. */
export function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if ('({['.includes(c)) depth += 1;
    else if (')}]'.includes(c)) depth -= 1;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return [...parts, text.slice(start)].map((p) => p.trim()).filter(Boolean);
}

/** A type with its annotations taken out: `string (value seen: hourly)`, `timestamp or null`. */
function readType(text: string, into: Omit<FieldSpec, 'name' | 'line'>): void {
  const type = text.replace(/\s*\(([^()]*)\)/g, (whole, inner: string) => {
    const a = annotation(inner);
    if (!a) return whole;
    Object.assign(into, a);
    return '';
  });
  into.nullable = /\s+or null$/i.test(type);
  into.type = type.replace(/\s+or null$/i, '').replace(/\s+/g, ' ').trim();
}

/** The fields of one row of a `Field | Type [| Notes]` table; `a, b | number` names two fields. */
export function fieldsOfRow(cells: string[], line: number): FieldSpec[] {
  const spec: Omit<FieldSpec, 'name' | 'line'> = { type: '', nullable: false, required: false, notes: '' };
  readType(cells[1] ?? '', spec);
  const notes: string[] = [];
  for (const part of splitTop(cells[2] ?? '', ';')) {
    const a = annotation(part);
    if (a) Object.assign(spec, a);
    else notes.push(part);
  }
  spec.notes = notes.join('; ');
  return splitTop(cells[0] ?? '', ',').map((name) => ({ ...spec, name, line }));
}

/**
 * The items of one row of the CV data table (`work[] | name, position (strings); highlights[] strings`):
 * `work[].name`, `work[].highlights[]`; braces open into sub-fields (`basics.location.city`); a
 * trailing `(strings)` types the plain names of its `;` group.
 */
export function itemFieldsOfRow(cells: string[], line: number): FieldSpec[] {
  const fields: FieldSpec[] = [];
  const add = (prefix: string, text: string) => {
    for (const group of splitTop(text, ';')) {
      const pieces = splitTop(group, ',').map((piece) => {
        if (/^additional keys allowed$/i.test(piece)) return ['(additional keys)', 'allowed'] as const;
        const m = /^([A-Za-z_][\w]*(?:\[\])?)\s*:?\s*(.*)$/.exec(piece);
        return [m?.[1] ?? piece, m?.[2] ?? ''] as const;
      });
      const plural = /^\((\w+)s\)$/.exec(pieces.at(-1)?.[1] ?? '')?.[1];
      for (const [name, rest] of pieces) {
        const path = `${prefix}.${name}`;
        if (/^\{.*\}$/.test(rest)) {
          fields.push(...fieldsOfRow([path, 'object'], line));
          add(path, rest.slice(1, -1));
        } else fields.push(...fieldsOfRow([path, plural && (rest === '' || rest === `(${plural}s)`) ? plural : rest], line));
      }
    }
  };
  add(cells[0] ?? '', cells[1] ?? '');
  return fields;
}
