// $ref resolution for one document: local `#/...` pointers, `$id`-identified schemas embedded in the
// document, and (through a loader the caller supplies) other files. A chain of refs that loops back on
// itself is an input error; recursion through a schema's children is the walker's concern.
import { DiffInputError } from './errors.js';
import { lookup } from './pointer.js';
import { isObject, type Json } from './types.js';

/** A value of the document together with where it lives, for locations and relative refs. */
export interface Located {
  value: unknown;
  /** `#/pointer` inside the root document, or `uri#/pointer` in another one. */
  origin: string;
  /** Base URI relative refs inside `value` resolve against. */
  base: string;
}

interface Target {
  root: unknown;
  origin: string;
}

export type ExternalLoader = (uri: string) => unknown;

export class Resolver {
  private readonly targets = new Map<string, Target>();
  constructor(
    private readonly document: Json,
    readonly label: string,
    readonly documentUri = 'file:///openapi.json',
    private readonly loadExternal?: ExternalLoader,
  ) {
    this.targets.set(documentUri, { root: document, origin: '#' });
    this.indexIds(document, documentUri, '#');
  }

  root(): Located {
    return { value: this.document, origin: '#', base: this.documentUri };
  }

  /** Follows `$ref` until a value without one; siblings of a `$ref` are laid over the target. */
  deref(node: Located): Located & { refs: string[]; } {
    const refs: string[] = [];
    let current = node;
    let overlay: Json | undefined;
    while (isObject(current.value) && typeof current.value.$ref === 'string') {
      const { $ref, ...siblings } = current.value;
      if (Object.keys(siblings).length > 0) overlay = { ...siblings, ...overlay };
      const target = this.lookupRef($ref, current);
      if (refs.includes(target.origin)) throw this.unresolved($ref, current.origin, `is part of a $ref cycle through ${target.origin}`);
      refs.push(target.origin);
      current = target;
    }
    if (overlay && isObject(current.value)) current = { ...current, value: layer(current.value, overlay) };
    return { ...current, refs };
  }

  child(node: Located, ...keys: (string | number)[]): Located {
    let value: unknown = node.value;
    let { origin, base } = node;
    for (const key of keys) {
      value = isObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
      origin = `${origin}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (isObject(value) && typeof value.$id === 'string') base = stripHash(new URL(value.$id, base).href);
    }
    return { value, origin, base };
  }

  /** An input error naming the side, the object holding the $ref (as a JSON pointer) and the ref. */
  private unresolved(ref: string, at: string, problem: string): DiffInputError {
    return new DiffInputError('DIFF_REF_UNRESOLVED', `${this.label} document: $ref "${ref}" at ${at} ${problem}`, { document: this.label, at, ref });
  }

  private lookupRef(ref: string, from: Located): Located {
    let uri: URL;
    try {
      uri = new URL(ref, from.base);
    } catch {
      throw this.unresolved(ref, from.origin, 'is not a URI reference');
    }
    const fragment = decodeURIComponent(uri.hash.replace(/^#/, ''));
    const resource = stripHash(uri.href);
    const target = this.targets.get(resource) ?? this.external(resource);
    const value = target && (fragment === '' || fragment.startsWith('/')) ? lookup(target.root, fragment) : undefined;
    if (!target || value === undefined) {
      throw this.unresolved(ref, from.origin, 'points to nothing');
    }
    const origin = target.origin.includes('#') ? target.origin + fragment : `${target.origin}#${fragment}`;
    const nextBase = isObject(value) && typeof value.$id === 'string' ? stripHash(new URL(value.$id, resource).href) : resource;
    return { value, origin, base: nextBase };
  }

  private external(resource: string): Target | undefined {
    const root = this.loadExternal?.(resource);
    if (root === undefined) return undefined;
    const target = { root, origin: resource };
    this.targets.set(resource, target);
    this.indexIds(root, resource, `${resource}#`);
    return target;
  }

  /** Registers every embedded schema resource (`$id`) so refs by URI find it inside the document. */
  private indexIds(value: unknown, base: string, origin: string): void {
    if (Array.isArray(value)) value.forEach((v, i) => this.indexIds(v, base, `${origin}/${i}`));
    if (!isObject(value)) return;
    let here = base;
    if (typeof value.$id === 'string') {
      here = stripHash(new URL(value.$id, base).href);
      if (!this.targets.has(here)) this.targets.set(here, { root: value, origin });
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === 'enum' || key === 'const' || key === 'example' || key === 'examples' || key === 'default') continue;
      this.indexIds(child, here, `${origin}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  }
}

function stripHash(href: string): string {
  const i = href.indexOf('#');
  return i < 0 ? href : href.slice(0, i);
}

/** Siblings of a `$ref` apply together with the target: properties merge, required lists add up. */
function layer(target: Json, overlay: Json): Json {
  const merged: Json = { ...target, ...overlay };
  if (isObject(target.properties) && isObject(overlay.properties)) {
    merged.properties = { ...target.properties, ...overlay.properties };
  }
  if (Array.isArray(target.required) && Array.isArray(overlay.required)) {
    merged.required = [...new Set([...target.required, ...overlay.required])];
  }
  return merged;
}
