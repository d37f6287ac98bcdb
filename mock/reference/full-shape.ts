// The fullest conforming shape of a resource, derived from its specs/ schema: every
// property the schema names, in the schema's order, whether or not the stored row has a
// value for it. A property without a value shows its blank: null where the schema allows
// null, otherwise "", 0, false or [] by type — each blank kept only if the schema accepts
// it (so none for an enum, a uuid, or an object such as a Stage). Nested resources (an
// embedded employee, addresses) take their own schema's shape. Fields the schema does
// not name are left out. Computed once per schema.
import type { Rec } from '../../contract/json.js';
import { ANNOTATION_FORMATS, schema, type SchemaName, strictFormatHolds, validate } from '../../specs/index.js';

/** How one property is shown: its blank (if any) and the schema of its items or object (if a resource). */
export interface PropertyPlan {
  name: string;
  blank?: () => unknown;
  nested?: { schema: SchemaName; many: boolean; };
}

/** `x.json#/a/b` or `x.json` against the schemas of specs/: the node it names and the schema it names, if whole. */
function resolve(node: Rec): { node: Rec; whole?: SchemaName; } {
  let cur = node;
  for (let hops = 0; typeof cur.$ref === 'string' && hops < 8; hops++) {
    const [file, pointer = ''] = (cur.$ref as string).split('#');
    const name = file!.replace(/\.json$/, '') as SchemaName;
    let target = schema(name) as Rec;
    for (const part of pointer.split('/').filter(Boolean)) target = target[part] as Rec;
    if (pointer === '') return { node: target, whole: name };
    cur = target;
  }
  return { node: cur };
}

function blankOf(node: Rec): (() => unknown) | undefined {
  const types = ([] as unknown[]).concat(node.type ?? []);
  if (types.includes('null')) return () => null;
  switch (types[0]) {
    case 'string':
      return () => '';
    case 'number':
    case 'integer':
      return () => 0;
    case 'boolean':
      return () => false;
    case 'array':
      return () => [];
    default:
      return undefined;
  }
}

/** A stand-in id that passes the uuid format, so a candidate blank is judged alone. */
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Whether the schema `name` accepts `value` as `prop`, with formats asserted. Judged by the
 * precompiled lenient validator and the annotation formats checked on their own, so that no
 * schema is compiled at run time (full-shape.test.ts holds this to the strict validator).
 */
export function accepts(name: SchemaName, prop: string, node: Rec, value: unknown): boolean {
  const errors = validate(name, { id: SAMPLE_ID, [prop]: value }).errors;
  if (errors.some((e) => e.path === `/${prop}` || e.path.startsWith(`/${prop}/`))) return false;
  const format = node.format;
  return !(typeof value === 'string' && typeof format === 'string' && ANNOTATION_FORMATS.includes(format) && !strictFormatHolds(format, value));
}

/** Which property shows which blank; `judge` says whether the schema accepts a candidate blank. */
export function planOf(name: SchemaName, judge: typeof accepts = accepts): PropertyPlan[] {
  const properties = (schema(name) as { properties?: Record<string, Rec>; }).properties ?? {};
  return Object.entries(properties).map(([prop, raw]) => {
    const { node, whole } = resolve(raw);
    if (whole) return { name: prop, nested: { schema: whole, many: false } };
    const items = node.type === 'array' && node.items ? resolve(node.items as Rec).whole : undefined;
    const plan: PropertyPlan = { name: prop, ...(items ? { nested: { schema: items, many: true } } : {}) };
    const blank = blankOf(node);
    if (!blank) return plan;
    // judged with formats asserted: "" is no date, so a date without a value is left out, not blanked
    return judge(name, prop, node, blank()) ? { ...plan, blank } : plan;
  });
}

const plans = new Map<SchemaName, PropertyPlan[]>();

/** `row` in the fullest shape of the resource `name` (a new object; `row` is not changed). */
export function fullShape(name: SchemaName, row: Rec): Rec {
  let plan = plans.get(name);
  if (!plan) plans.set(name, plan = planOf(name));
  const out: Rec = {};
  for (const p of plan) {
    const v = row[p.name];
    if (v === undefined) {
      if (p.blank) out[p.name] = p.blank();
    } else if (p.nested && v !== null && typeof v === 'object') {
      const nested = p.nested;
      out[p.name] = nested.many && Array.isArray(v)
        ? v.map((item) => (item !== null && typeof item === 'object' ? fullShape(nested.schema, item as Rec) : item))
        : !nested.many && !Array.isArray(v)
        ? fullShape(nested.schema, v as Rec)
        : v;
    } else {
      out[p.name] = v;
    }
  }
  return out;
}
