// Parsers of single settings. Each returns the value or pushes a ConfigError; none echoes a key.
import type { ConfigError } from './config-error.js';
import { patternList } from './selection.js';
import { API_PREFIX, type Endpoint, type ListResource, sortableResources } from './settings.js';

export type Errors = ConfigError[];

export function parseUrl(errors: Errors, setting: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    errors.push({ code: 'invalid_url', setting, message: `must be an http(s) URL, got ${JSON.stringify(value)}` });
    return undefined;
  }
  const trimmed = value.replace(/\/+$/, '');
  // The suite appends /api/public/v1 itself; given twice, every request would be a 404.
  if (/\/api\/public(\/v\d+)?$/.test(url.pathname.replace(/\/+$/, ''))) {
    errors.push({
      code: 'base_url_has_api_path',
      setting,
      message: `must be the base address without /api/public/v1 (the suite appends it): use ${JSON.stringify(trimmed.replace(/\/api\/public(\/v\d+)?$/, ''))}`,
    });
    return undefined;
  }
  return trimmed;
}

/** A duration: `90` or `90s` (seconds), `500ms`, `30m`, `2h`; returned in milliseconds. */
export function parseDuration(errors: Errors, setting: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\s*(ms|s|m|h)?$/.exec(value.trim());
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[(m?.[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = m ? Number(m[1]) * unit : NaN;
  if (!Number.isSafeInteger(ms) || ms <= 0) {
    errors.push({ code: 'invalid_duration', setting, message: `must be a positive duration such as 1800, 90s, 30m or 2h, got ${JSON.stringify(value)}` });
    return undefined;
  }
  return ms;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Comma-separated record ids (UUIDs, §2). */
export function parseIdList(errors: Errors, setting: string, value: string | undefined): string[] {
  const ids = parseList(value);
  const bad = ids.filter((id) => !UUID.test(id));
  if (bad.length > 0) {
    errors.push({
      code: 'invalid_id_list',
      setting,
      message: `must be comma-separated UUIDs, got ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    });
  }
  return ids.filter((id) => UUID.test(id));
}

export function parseInteger(errors: Errors, setting: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value)) || Number(value) < min) {
    errors.push({ code: 'invalid_integer', setting, message: `must be an integer >= ${min}, got ${JSON.stringify(value)}` });
    return undefined;
  }
  return Number(value);
}

export function parseFlag(errors: Errors, setting: string, value: string | undefined): boolean {
  if (value === undefined || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  errors.push({ code: 'invalid_flag', setting, message: `must be 1, 0, true or false, got ${JSON.stringify(value)}` });
  return false;
}

export function parseEnum<T extends string>(
  errors: Errors,
  setting: string,
  value: string | undefined,
  allowed: readonly T[],
  code: 'unknown_shape' | 'unknown_target',
): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  errors.push({ code, setting, message: `must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}` });
  return undefined;
}

/** `[METHOD ]path`; relative to /api/public/v1 unless it starts with /api/. */
export function parseEndpoint(errors: Errors, setting: string, value: string | undefined, method: string, needsId: boolean): Endpoint | undefined {
  if (value === undefined) return undefined;
  const m = /^(?:([A-Za-z]+)\s+)?(\/\S*)$/.exec(value.trim());
  if (!m) {
    errors.push({ code: 'invalid_path', setting, message: `must be "[METHOD ]/path", got ${JSON.stringify(value)}` });
    return undefined;
  }
  const path = m[2]!;
  if (needsId && !path.includes('{id}')) {
    errors.push({ code: 'path_missing_id', setting, message: `must contain {id}, got ${JSON.stringify(value)}` });
    return undefined;
  }
  return { method: (m[1] ?? method).toUpperCase(), path: path.startsWith('/api/') ? path : `${API_PREFIX}${path}` };
}

/** `projects=created_at,title;assignments=created_at` */
export function parseSortFields(errors: Errors, setting: string, value: string | undefined): Partial<Record<ListResource, string[]>> {
  const out: Partial<Record<ListResource, string[]>> = {};
  if (value === undefined) return out;
  for (const part of value.split(';').map((p) => p.trim()).filter(Boolean)) {
    const m = /^([a-z_]+)\s*=\s*([A-Za-z0-9_.]+(?:\s*,\s*[A-Za-z0-9_.]+)*)$/.exec(part);
    const resource = m?.[1] as ListResource | undefined;
    if (!m || !resource || !sortableResources.includes(resource) || out[resource]) {
      const why = !m
        ? 'expected list=field[,field]'
        : out[resource!]
        ? `${resource} given twice`
        : `unknown list ${JSON.stringify(m[1])} (one of ${sortableResources.join(', ')})`;
      errors.push({ code: 'malformed_sort_fields', setting, message: `${why} in ${JSON.stringify(part)}` });
      continue;
    }
    out[resource] = m[2]!.split(',').map((f) => f.trim());
  }
  return out;
}

/** Requirement ids or globs: upper-kebab with `*`. */
export function parseOnly(errors: Errors, setting: string, value: string | undefined): string[] {
  if (value === undefined) return [];
  const items = patternList(value);
  for (const item of items) {
    if (!/^[A-Z0-9*][A-Z0-9*-]*$/.test(item)) {
      errors.push({ code: 'invalid_only_pattern', setting, message: `not a requirement id or glob: ${JSON.stringify(item)}` });
    }
  }
  return items;
}

export function parseList(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(',').map((s) => s.trim()).filter(Boolean);
}
