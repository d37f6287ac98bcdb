// Operation parameters: path-level ones merged with the operation's own (which win), matched by
// location and name (header names without case; path parameters by position in the template, as
// their names are invisible to clients). The `cursor` query parameter is the §9 cursor format.
// Adding or removing a parameter edits the list holding it (the operation's or the path item's,
// `at`); changing one edits the parameter itself, which several operations may share.
import type { Collector } from './collector.js';
import type { Located, Resolver } from './resolve.js';
import { isObject, type Json } from './types.js';
import { compareSchemas } from './walk-schema.js';

/** One operation of one side: its path as written, its path item and the operation object. */
export interface Operation {
  path: string;
  pathItem: Located;
  op: Located;
}

interface Parameter {
  label: string;
  node: Located;
  value: Json;
  at: string;
}

const SERIALIZATION = ['style', 'explode', 'allowReserved', 'allowEmptyValue'];
const DOCUMENTATION = ['description', 'example', 'examples'];

function parameters(resolver: Resolver, op: Operation): Map<string, Parameter> {
  const found = new Map<string, Parameter>();
  const names = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  for (const owner of [op.pathItem, op.op]) {
    const list = resolver.child(owner, 'parameters');
    if (!Array.isArray(list.value)) continue;
    list.value.forEach((_, i) => {
      const at = resolver.child(list, i).origin;
      const node = resolver.deref(resolver.child(list, i));
      if (!isObject(node.value)) return;
      const p = node.value;
      const name = String(p.name);
      const key = p.in === 'path' ? `path:#${names.indexOf(name)}` : `${String(p.in)}:${p.in === 'header' ? name.toLowerCase() : name}`;
      found.set(key, { label: `${String(p.in)} parameter "${name}"`, node, value: p, at });
    });
  }
  return found;
}

function schemaOf(resolver: Resolver, p: Parameter): Located | undefined {
  if (p.value.schema !== undefined) return resolver.child(p.node, 'schema');
  const content = p.value.content;
  const mediaType = isObject(content) ? Object.keys(content)[0] : undefined;
  return mediaType === undefined ? undefined : resolver.child(p.node, 'content', mediaType, 'schema');
}

export function compareParameters(c: Collector, o: Operation, n: Operation, opLocation: string, operation: string): void {
  const olds = parameters(c.old, o);
  const news = parameters(c.now, n);
  for (const key of new Set([...olds.keys(), ...news.keys()])) {
    const a = olds.get(key);
    const b = news.get(key);
    const location = `${opLocation}/parameters/${(b ?? a)!.value.in}:${String((b ?? a)!.value.name)}`;
    if (!b) {
      c.add('parameter.removed', location, `${a!.label} removed`, { operation, origin: a!.at });
      continue;
    }
    if (!a) {
      const kind = b.value.required === true ? 'parameter.added-required' : 'parameter.added';
      c.add(kind, location, `${b.value.required === true ? 'required' : 'optional'} ${b.label} added`, { operation, origin: b.at });
      continue;
    }
    const add = (kind: Parameters<Collector['add']>[0], message: string) => c.add(kind, location, message, { operation, origin: b.node.origin });
    if (a.value.in === 'query' && a.value.name === 'cursor') {
      compareCursorParameter(c, a, b, location, operation);
      continue;
    }
    if (a.value.name !== b.value.name) add('parameter.documentation', `${a.label} renamed to "${String(b.value.name)}" (not visible on the wire)`);
    if (a.value.required !== true && b.value.required === true) add('parameter.became-required', `${b.label} became required`);
    if (a.value.required === true && b.value.required !== true) add('parameter.became-optional', `${b.label} became optional`);
    if (Boolean(a.value.deprecated) !== Boolean(b.value.deprecated)) {
      add('parameter.deprecated', `${b.label} ${b.value.deprecated ? 'marked deprecated' : 'no longer deprecated'}`);
    }
    const changed = (keys: string[]) => keys.filter((k) => JSON.stringify(a.value[k]) !== JSON.stringify(b.value[k]));
    if (changed(SERIALIZATION).length > 0) add('parameter.serialization-changed', `${b.label}: ${changed(SERIALIZATION).join(', ')} changed`);
    if (changed(DOCUMENTATION).length > 0) add('parameter.documentation', `${b.label}: ${changed(DOCUMENTATION).join(', ')} changed`);
    const [sa, sb] = [schemaOf(c.old, a), schemaOf(c.now, b)];
    if (sa && sb) compareSchemas(c, sa, sb, { dir: 'request', location: `${location}/schema`, operation, role: 'plain' });
  }
}

/** Any difference in what the cursor parameter says — schema, format or description — changes its format. */
function compareCursorParameter(c: Collector, a: Parameter, b: Parameter, location: string, operation: string): void {
  const { schema: _a, ...restA } = a.value;
  const { schema: _b, ...restB } = b.value;
  if (JSON.stringify(restA) !== JSON.stringify(restB)) {
    c.add('cursor.changed', location, `cursor parameter changed: ${JSON.stringify(restA)} → ${JSON.stringify(restB)}`, { operation, origin: b.node.origin });
    return;
  }
  const [sa, sb] = [schemaOf(c.old, a), schemaOf(c.now, b)];
  if (sa && sb) compareSchemas(c, sa, sb, { dir: 'request', location: `${location}/schema`, operation, role: 'cursor' });
}
