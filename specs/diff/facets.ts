// Comparison of a schema's own keywords (not its children): type, value constraints, enumerations,
// default, deprecation, documentation. Findings say which way the set of valid values moved; the
// walker turns that into a request- or response-side change.
import type { Json } from './types.js';

export type Facet =
  | 'type.widened'
  | 'type.narrowed'
  | 'type.changed'
  | 'constraint.tightened'
  | 'constraint.relaxed'
  | 'constraint.changed'
  | 'enum.value-added'
  | 'enum.value-removed'
  | 'enum.restricted'
  | 'enum.unrestricted'
  | 'default.added'
  | 'default.changed'
  | 'default.removed'
  | 'deprecated'
  | 'documentation';

export interface Finding {
  facet: Facet;
  message: string;
}

/** Bounds whose lower value accepts less, and bounds whose higher value accepts less. */
const UPPER = ['maxLength', 'maxItems', 'maxProperties', 'maximum', 'exclusiveMaximum', 'maxContains'];
const LOWER = ['minLength', 'minItems', 'minProperties', 'minimum', 'exclusiveMinimum', 'minContains'];
/** Keywords whose change cannot be ordered in general: adding one tightens, dropping one relaxes. */
const OPAQUE = [
  'pattern',
  'format',
  'multipleOf',
  'contentEncoding',
  'contentMediaType',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const DOCUMENTATION = ['title', 'description', 'example', 'examples', '$comment', 'externalDocs', 'xml', 'discriminator', 'readOnly', 'writeOnly'];

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const show = (v: unknown): string => JSON.stringify(v);

export function compareFacets(old: Json, now: Json): Finding[] {
  return [...types(old, now), ...bounds(old, now), ...opaque(old, now), ...enums(old, now), ...others(old, now)];
}

function typeSet(schema: Json): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.map(String) : undefined;
}

const covers = (set: string[] | undefined, t: string): boolean => set === undefined || set.includes(t) || (t === 'integer' && set.includes('number'));

function types(old: Json, now: Json): Finding[] {
  const [a, b] = [typeSet(old), typeSet(now)];
  // keeps: everything valid before is still valid; grows: something invalid before is now valid.
  const keeps = a === undefined ? b === undefined : a.every((t) => covers(b, t));
  const grows = b === undefined ? a !== undefined : b.some((t) => !covers(a, t));
  if (keeps && !grows) return [];
  const message = `type ${show(old.type ?? 'any')} → ${show(now.type ?? 'any')}`;
  const facet = keeps ? 'type.widened' : grows ? 'type.changed' : 'type.narrowed';
  return [{ facet, message }];
}

function bounds(old: Json, now: Json): Finding[] {
  const found: Finding[] = [];
  for (const [list, tighterWhenLower] of [[UPPER, true], [LOWER, false]] as const) {
    for (const key of list) {
      const [a, b] = [old[key], now[key]];
      if (same(a, b)) continue;
      const message = `${key} ${show(a ?? 'none')} → ${show(b ?? 'none')}`;
      let tighter: boolean;
      if (typeof a !== 'number') tighter = true;
      else if (typeof b !== 'number') tighter = false;
      else tighter = tighterWhenLower ? b < a : b > a;
      found.push({ facet: tighter ? 'constraint.tightened' : 'constraint.relaxed', message });
    }
  }
  if (Boolean(old.uniqueItems) !== Boolean(now.uniqueItems)) {
    found.push({ facet: now.uniqueItems ? 'constraint.tightened' : 'constraint.relaxed', message: `uniqueItems → ${Boolean(now.uniqueItems)}` });
  }
  return found;
}

function opaque(old: Json, now: Json): Finding[] {
  const found: Finding[] = [];
  for (const key of OPAQUE) {
    const [a, b] = [old[key], now[key]];
    if (same(a, b)) continue;
    const message = `${key} ${show(a ?? 'none')} → ${show(b ?? 'none')}`;
    if (a === undefined) found.push({ facet: 'constraint.tightened', message });
    else if (b === undefined) found.push({ facet: 'constraint.relaxed', message });
    else if (key === 'multipleOf' && typeof a === 'number' && typeof b === 'number') {
      found.push({ facet: b % a === 0 ? 'constraint.tightened' : a % b === 0 ? 'constraint.relaxed' : 'constraint.changed', message });
    } else found.push({ facet: 'constraint.changed', message });
  }
  return found;
}

function enumOf(schema: Json): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

function enums(old: Json, now: Json): Finding[] {
  const [a, b] = [enumOf(old), enumOf(now)];
  if (a === undefined && b === undefined) return [];
  if (a === undefined) return [{ facet: 'enum.restricted', message: `values restricted to ${show(b)}` }];
  if (b === undefined) return [{ facet: 'enum.unrestricted', message: `values no longer restricted (were ${show(a)})` }];
  const keys = (list: unknown[]) => new Set(list.map(show));
  const [ka, kb] = [keys(a), keys(b)];
  return [
    ...b.filter((v) => !ka.has(show(v))).map((v) => ({ facet: 'enum.value-added' as const, message: `enum value ${show(v)} added` })),
    ...a.filter((v) => !kb.has(show(v))).map((v) => ({ facet: 'enum.value-removed' as const, message: `enum value ${show(v)} removed` })),
  ];
}

function others(old: Json, now: Json): Finding[] {
  const found: Finding[] = [];
  if (!same(old.default, now.default)) {
    const message = `default ${show(old.default ?? 'none')} → ${show(now.default ?? 'none')}`;
    const facet = old.default === undefined ? 'default.added' : now.default === undefined ? 'default.removed' : 'default.changed';
    found.push({ facet, message });
  }
  if (Boolean(old.deprecated) !== Boolean(now.deprecated)) {
    found.push({ facet: 'deprecated', message: now.deprecated ? 'marked deprecated' : 'no longer deprecated' });
  }
  const keys = new Set([...Object.keys(old), ...Object.keys(now)]);
  const docs = [...keys].filter((k) => (DOCUMENTATION.includes(k) || k.startsWith('x-')) && !same(old[k], now[k]));
  if (docs.length > 0) found.push({ facet: 'documentation', message: `${docs.join(', ')} changed` });
  return found;
}
