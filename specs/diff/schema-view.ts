// A schema as the walker compares it: $refs followed, `allOf` members folded in, and the structural
// keywords (properties, items, variants) kept as located children so refs inside them still resolve
// against the right base.
import type { Located, Resolver } from './resolve.js';
import { isObject, type Json } from './types.js';

export interface SchemaView {
  /** Assertion and annotation keywords, own first, then those of `allOf` members. */
  keywords: Json;
  /** `false` for the schema that accepts nothing; `true`/`{}` is the schema that accepts anything. */
  acceptsNothing: boolean;
  origin: string;
  /** Targets of the $refs followed to get here: identity for cycle protection and variant matching. */
  refs: string[];
  /** Every schema a property must satisfy (one per `allOf` member that names it). */
  properties: Map<string, Located[]>;
  required: Set<string>;
  additional: Located[];
  items: Located[];
  prefixItems: Located[];
  variants?: { keyword: 'oneOf' | 'anyOf'; list: Located[]; };
}

const STRUCTURAL = new Set([
  '$ref',
  'allOf',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'oneOf',
  'anyOf',
  '$defs',
  'definitions',
  '$id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
]);

/** The view of one schema, or of several that all apply (folded like `allOf`). */
export function viewOf(resolver: Resolver, node: Located | Located[], depth = 0): SchemaView {
  if (Array.isArray(node)) {
    const [first, ...rest] = node.map((n) => viewOf(resolver, n, depth));
    for (const member of rest) fold(first!, member);
    return first!;
  }
  const target = resolver.deref(node);
  const view: SchemaView = {
    keywords: {},
    acceptsNothing: target.value === false,
    origin: target.origin,
    refs: target.refs,
    properties: new Map(),
    required: new Set(),
    additional: [],
    items: [],
    prefixItems: [],
  };
  if (!isObject(target.value)) return view;
  const schema = target.value;
  for (const [key, value] of Object.entries(schema)) if (!STRUCTURAL.has(key)) view.keywords[key] = value;
  if (isObject(schema.properties)) {
    for (const name of Object.keys(schema.properties)) view.properties.set(name, [resolver.child(target, 'properties', name)]);
  }
  if (Array.isArray(schema.required)) { for (const name of schema.required) view.required.add(String(name)); }
  if (schema.additionalProperties !== undefined) view.additional = [resolver.child(target, 'additionalProperties')];
  if (schema.items !== undefined) view.items = [resolver.child(target, 'items')];
  if (Array.isArray(schema.prefixItems)) view.prefixItems = schema.prefixItems.map((_, i) => resolver.child(target, 'prefixItems', i));
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) view.variants = { keyword, list: list.map((_, i) => resolver.child(target, keyword, i)) };
  }
  // Folding allOf in keeps "base + extension" schemas comparable with a flat rewrite of the same shape.
  // Keywords both define: the first wins; properties, items and additionalProperties keep every schema.
  // The depth bound is the cycle protection for allOf chains that reach themselves.
  if (Array.isArray(schema.allOf) && depth < 16) {
    schema.allOf.forEach((_, i) => fold(view, viewOf(resolver, resolver.child(target, 'allOf', i), depth + 1)));
  }
  return view;
}

function fold(into: SchemaView, member: SchemaView): void {
  into.acceptsNothing ||= member.acceptsNothing;
  for (const [key, value] of Object.entries(member.keywords)) if (!(key in into.keywords)) into.keywords[key] = value;
  for (const [name, located] of member.properties) into.properties.set(name, [...(into.properties.get(name) ?? []), ...located]);
  for (const name of member.required) into.required.add(name);
  into.additional.push(...member.additional);
  into.items.push(...member.items);
  into.refs.push(...member.refs);
  if (into.prefixItems.length === 0) into.prefixItems = member.prefixItems;
  into.variants ??= member.variants;
}
