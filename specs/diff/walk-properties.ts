// Object properties compared in a direction. A request never carries readOnly properties and a
// response never carries writeOnly ones, so those count as absent on that side. A property's
// presence and requiredness are the `member` part of its node: an edit apart from its own keywords.
import { childRole, type Collector, type Scope } from './collector.js';
import { escapeToken } from './pointer.js';
import type { Located, Resolver } from './resolve.js';
import type { SchemaView } from './schema-view.js';
import { isObject } from './types.js';

type Recurse = (old: Located[], now: Located[], scope: Scope) => void;

export function compareProperties(c: Collector, a: SchemaView, b: SchemaView, scope: Scope, recurse: Recurse): void {
  const names = new Set([...a.properties.keys(), ...b.properties.keys()]);
  for (const name of names) {
    const child: Scope = { ...scope, location: `${scope.location}/properties/${escapeToken(name)}`, role: childRole(scope.role, name) };
    const o = a.properties.get(name);
    const n = b.properties.get(name);
    const was = o !== undefined && visible(c.old, o, scope);
    const is = n !== undefined && visible(c.now, n, scope);
    const origin = n?.[0]?.origin ?? o?.[0]?.origin;
    if (was && is) {
      if (!a.required.has(name) && b.required.has(name)) {
        c.addIn(child, `${scope.dir}.property.became-required`, `property "${name}" became required`, origin, 'member');
      }
      if (a.required.has(name) && !b.required.has(name)) {
        c.addIn(child, `${scope.dir}.property.became-optional`, `property "${name}" became optional`, origin, 'member');
      }
      recurse(o, n, child);
    } else if (was && n !== undefined) {
      const kind = scope.dir === 'request' ? 'request.property.read-only' : 'response.property.write-only';
      c.addIn(child, kind, `property "${name}" became ${scope.dir === 'request' ? 'readOnly' : 'writeOnly'}`, origin, 'member');
    } else if (was) {
      c.addIn(child, `${scope.dir}.property.removed`, `property "${name}" removed`, o?.[0]?.origin, 'member');
    } else if (is) {
      const required = b.required.has(name);
      const kind = scope.dir === 'request' && required ? 'request.property.added-required' : `${scope.dir}.property.added` as const;
      c.addIn(child, kind, `${required ? 'required' : 'optional'} property "${name}" added`, origin, 'member');
    }
  }
  compareAdditional(c, a, b, scope, recurse);
}

function visible(resolver: Resolver, schemas: Located[], scope: Scope): boolean {
  const hidden = scope.dir === 'request' ? 'readOnly' : 'writeOnly';
  return schemas.every((l) => {
    const value = resolver.deref(l).value;
    return !isObject(value) || value[hidden] !== true;
  });
}

function compareAdditional(c: Collector, a: SchemaView, b: SchemaView, scope: Scope, recurse: Recurse): void {
  const absent = (origin: string): Located[] => [{ value: true, origin, base: '' }];
  const o = a.additional.length > 0 ? a.additional : absent(a.origin);
  const n = b.additional.length > 0 ? b.additional : absent(b.origin);
  const closed = (list: Located[], r: Resolver) => list.some((l) => r.deref(l).value === false);
  const [wasClosed, isClosed] = [closed(o, c.old), closed(n, c.now)];
  if (!wasClosed && isClosed) c.addIn(scope, `${scope.dir}.additional-properties.restricted`, 'additionalProperties → false', b.origin);
  else if (wasClosed && !isClosed) c.addIn(scope, `${scope.dir}.additional-properties.allowed`, 'additional properties now allowed', b.origin);
  else if (!wasClosed && !isClosed && (a.additional.length > 0 || b.additional.length > 0)) {
    recurse(o, n, { ...scope, location: `${scope.location}/additionalProperties`, role: childRole(scope.role, undefined) });
  }
}
