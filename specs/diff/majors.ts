// The major versions a document serves, read from its paths (`/api/public/vN/...`, §9.1), or from
// its server URLs when the paths are written relative to `/api/public/vN`.
import { unescapeToken } from './pointer.js';
import type { Change, Json } from './types.js';
import { isObject } from './types.js';

const MAJOR = /\/api\/public\/v(\d+)(?:\/|$)/;

export function majorOfPath(path: string): number | undefined {
  const m = MAJOR.exec(path);
  return m ? Number(m[1]) : undefined;
}

export function pathMajors(doc: Json): number[] {
  const paths = isObject(doc.paths) ? Object.keys(doc.paths) : [];
  let majors = paths.map(majorOfPath).filter((m): m is number => m !== undefined);
  if (majors.length === 0 && Array.isArray(doc.servers)) {
    majors = doc.servers.filter(isObject).map((s) => majorOfPath(String(s.url))).filter((m): m is number => m !== undefined);
  }
  return [...new Set(majors)].sort((a, b) => a - b);
}

/** The major a change belongs to: that of the path it sits under; undefined for document-wide changes. */
export function majorOfChange(change: Change, fallback: number | undefined): number | undefined {
  if (!change.location.startsWith('/paths/')) return undefined;
  const path = unescapeToken(change.location.split('/')[2] ?? '');
  return majorOfPath(path) ?? fallback;
}
