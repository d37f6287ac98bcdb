// Compares two schemas in a direction. In a request the old schema is what clients send, so anything
// the new one rejects breaks them; in a response the old schema is what clients accept, so anything
// new the server may send breaks them. $refs are followed; a pair of refs already on the way down is
// not walked again (recursive schemas).
import type { ChangeKind } from './classify.js';
import { childRole, type Collector, type Scope } from './collector.js';
import { compareFacets, type Facet } from './facets.js';
import { escapeToken } from './pointer.js';
import type { Located } from './resolve.js';
import { type SchemaView, viewOf } from './schema-view.js';
import { compareProperties } from './walk-properties.js';

export type Schemas = Located | Located[];

export function compareSchemas(c: Collector, old: Schemas, now: Schemas, scope: Scope, stack: string[] = []): void {
  if (scope.role === 'cursor') return compareCursor(c, old, now, scope);
  const a = viewOf(c.old, old);
  const b = viewOf(c.now, now);
  const key = `${scope.dir}|${a.refs.join(' ')}|${b.refs.join(' ')}`;
  if ((a.refs.length > 0 || b.refs.length > 0) && stack.includes(key)) return;
  const down = [...stack, key];
  const here: Scope = { ...scope, role: scope.role === 'response-root' ? (isPage(a) || isPage(b) ? 'page-root' : 'plain') : scope.role };

  if (a.acceptsNothing !== b.acceptsNothing) {
    addFacet(c, here, b.origin, a.acceptsNothing ? 'type.widened' : 'type.narrowed', 'schema false ↔ schema accepting values');
  }
  for (const finding of compareFacets(a.keywords, b.keywords)) addFacet(c, here, b.origin, finding.facet, finding.message);
  compareProperties(c, a, b, here, (o, n, s) => compareSchemas(c, o, n, s, down));
  compareItems(c, a, b, here, down);
  compareVariants(c, a, b, here, down);
}

const isPage = (v: SchemaView): boolean => v.properties.has('data') && v.properties.has('page');

export function addFacet(c: Collector, scope: Scope, origin: string, facet: Facet, message: string): void {
  const kind = kindOf(scope, facet);
  c.addIn(scope, kind, message, origin);
}

function kindOf(scope: Scope, facet: Facet): ChangeKind {
  if (scope.role === 'error-code' && facet === 'enum.value-added') return 'error-code.added';
  if (scope.role === 'error-code' && facet === 'enum.value-removed') return 'error-code.removed';
  switch (facet) {
    case 'default.added':
      return 'schema.default-added';
    case 'default.changed':
      return 'schema.default-changed';
    case 'default.removed':
      return 'schema.default-removed';
    case 'deprecated':
      return 'schema.deprecated';
    case 'documentation':
      return 'schema.documentation';
    // A change that cannot be ordered may reject old input and may send unknown output: breaking both ways.
    case 'constraint.changed':
      return scope.dir === 'request' ? 'request.constraint.tightened' : 'response.constraint.relaxed';
    default:
      return `${scope.dir}.${facet}`;
  }
}

function compareCursor(c: Collector, old: Schemas, now: Schemas, scope: Scope): void {
  const a = [old].flat().map((l) => c.old.deref(l).value);
  const b = [now].flat().map((l) => c.now.deref(l).value);
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    const origin = [now].flat()[0]?.origin;
    c.add('cursor.changed', scope.location, `cursor format changed: ${JSON.stringify(a)} → ${JSON.stringify(b)}`, { operation: scope.operation, origin });
  }
}

function compareItems(c: Collector, a: SchemaView, b: SchemaView, scope: Scope, stack: string[]): void {
  const itemScope = (suffix: string): Scope => ({ ...scope, location: scope.location + suffix, role: childRole(scope.role, undefined) });
  const [ia, ib] = [a.items.length > 0, b.items.length > 0];
  if (ia && ib) compareSchemas(c, a.items, b.items, itemScope('/items'), stack);
  else if (ia || ib) addFacet(c, scope, b.origin, ib ? 'constraint.tightened' : 'constraint.relaxed', `items schema ${ib ? 'added' : 'removed'}`);
  const shared = Math.min(a.prefixItems.length, b.prefixItems.length);
  for (let i = 0; i < shared; i++) compareSchemas(c, a.prefixItems[i]!, b.prefixItems[i]!, itemScope(`/prefixItems/${i}`), stack);
  if (a.prefixItems.length !== b.prefixItems.length) {
    addFacet(c, scope, b.origin, 'constraint.changed', `prefixItems ${a.prefixItems.length} → ${b.prefixItems.length} positions`);
  }
}

/** oneOf/anyOf alternatives, matched by the schema they reference, else by position. */
function compareVariants(c: Collector, a: SchemaView, b: SchemaView, scope: Scope, stack: string[]): void {
  if (!a.variants && !b.variants) return;
  const olds = a.variants?.list ?? [];
  const news = b.variants?.list ?? [];
  const refOf = (side: 'old' | 'now', l: Located) => c[side].deref(l).refs[0];
  const unmatched = new Set(news.keys());
  olds.forEach((o, i) => {
    const ref = refOf('old', o);
    let j = ref === undefined ? -1 : news.findIndex((n, k) => unmatched.has(k) && refOf('now', n) === ref);
    if (j < 0 && unmatched.has(i) && (ref === undefined || refOf('now', news[i]!) === undefined)) j = i;
    const keyword = b.variants?.keyword ?? a.variants!.keyword;
    if (j < 0) {
      return c.addIn(scope, `${scope.dir}.variant.removed`, `${a.variants!.keyword} alternative ${i} (${ref ?? 'inline'}) removed`, b.origin);
    }
    unmatched.delete(j);
    compareSchemas(c, o, news[j]!, { ...scope, location: `${scope.location}/${keyword}/${escapeToken(String(j))}` }, stack);
  });
  for (const j of unmatched) {
    c.addIn(scope, `${scope.dir}.variant.added`, `${b.variants!.keyword} alternative ${j} (${refOf('now', news[j]!) ?? 'inline'}) added`, b.origin);
  }
}
