// The major versions a document serves, read from its paths (`/api/public/vN/...`, §9.1), or from
// its server URLs when the paths are written relative to `/api/public/vN`; and the majors an entry reaches.
import { stricter } from './classify.js';
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

/** The major of a location: that of the path it sits under; undefined outside the paths. */
function majorOfLocation(location: string, fallback: number | undefined): number | undefined {
  if (!location.startsWith('/paths/')) return undefined;
  const path = unescapeToken(location.split('/')[2] ?? '');
  return majorOfPath(path) ?? fallback;
}

/**
 * An entry as it stands in each major it reaches (undefined: document-wide), with its strictest
 * consequence there: one edit of a shared component can reach v1 and v2, and mean different things
 * in each.
 */
export function perMajor(change: Change, fallback: number | undefined): [number | undefined, Change][] {
  const found = new Map<number | undefined, Change>();
  for (const site of change.affects ?? [change]) {
    const major = majorOfLocation(site.location, fallback);
    const seen = found.get(major);
    if (!seen || stricter(site.classification, seen.classification)) found.set(major, { ...change, kind: site.kind, classification: site.classification });
  }
  return [...found];
}
