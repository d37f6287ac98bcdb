// The part of a response body around what is wrong: the body written compactly, cut to a window
// centred on the value a JSON Pointer names (or, for a missing member, on the object that lacks
// it), so that a `null` deep in a page shows instead of the first items of `data`.

import { join, unescapeToken } from '../../../specs/diff/pointer.js';

const MARK = '\u0000';

/** The deepest prefix of `pointer` that names a value in `body` (a missing member's object). */
function present(body: unknown, pointer: string): string {
  const parts = pointer.split('/').slice(1);
  let node = body;
  let at = '';
  for (const part of parts) {
    if (node === null || typeof node !== 'object' || !(unescapeToken(part) in (node as object))) break;
    node = (node as Record<string, unknown>)[unescapeToken(part)];
    at += `/${part}`;
  }
  return at;
}

/** The body as compact JSON with the value at `pointer` between two marks. */
function marked(body: unknown, pointer: string): string {
  const walk = (value: unknown, at: string): string => {
    let text: string;
    if (Array.isArray(value)) text = `[${value.map((v, i) => walk(v, `${at}/${i}`)).join(',')}]`;
    else if (value !== null && typeof value === 'object') {
      text = `{${
        Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}:${walk(v, join(at, k))}`)
          .join(',')
      }}`;
    } else text = JSON.stringify(value) ?? 'null';
    return at === pointer ? `${MARK}${text}${MARK}` : text;
  };
  return walk(body, '');
}

/** About `width` characters of the compact body, centred on the value at `pointer`, with … where cut. */
export function excerptAt(body: unknown, pointer: string, width = 160): string {
  const text = marked(body, present(body, pointer));
  const start = text.indexOf(MARK);
  const end = text.indexOf(MARK, start + 1) - 1;
  const plain = text.split(MARK).join('');
  if (plain.length <= width) return plain;
  // The value itself, and as much of what surrounds it on both sides as fits.
  const span = Math.max(0, end - start);
  const around = Math.max(0, Math.floor((width - Math.min(span, width)) / 2));
  let from = Math.max(0, start - around);
  let to = Math.min(plain.length, from + width);
  from = Math.max(0, Math.min(from, to - width));
  if (span > width) to = from + width;
  return `${from > 0 ? '…' : ''}${plain.slice(from, to)}${to < plain.length ? '…' : ''}`;
}
