// JSON Pointer (RFC 6901) encoding, used for locations and for $ref fragments.

export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function join(pointer: string, ...tokens: (string | number)[]): string {
  return pointer + tokens.map((t) => '/' + escapeToken(String(t))).join('');
}

/** Looks a pointer up in a value; `undefined` when any step is missing. */
export function lookup(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = unescapeToken(raw);
    if (Array.isArray(node)) node = node[Number(token)];
    else if (typeof node === 'object' && node !== null) {
      node = Object.prototype.hasOwnProperty.call(node, token) ? (node as Record<string, unknown>)[token] : undefined;
    } else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}
