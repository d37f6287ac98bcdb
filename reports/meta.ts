import { concernOf, parseCells } from '../contract/check.js';
import type { Finding } from '../contract/check.js';
import { isRecord } from '../contract/json.js';
import type { CheckFailureMeta, CheckMeta, CheckResult, HttpRequestRecord, HttpResponseRecord, WarningMeta } from './types.js';

// The metadata comes from check code running in workers; a malformed field must
// degrade the report (missing transcript) rather than crash the reporter.

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const int = (v: unknown): number | undefined => (Number.isInteger(v) ? (v as number) : undefined);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

function warnings(v: unknown): WarningMeta[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).flatMap((w) => (str(w.name) && str(w.message) ? [{ name: w.name as string, message: w.message as string }] : []));
}

function stringMap(v: unknown): Record<string, string> {
  if (!isRecord(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (value !== undefined && value !== null) out[k] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

function request(v: unknown): HttpRequestRecord | undefined {
  if (!isRecord(v) || !str(v.method) || !str(v.url)) return undefined;
  const body = str(v.body);
  return { method: v.method as string, url: v.url as string, headers: stringMap(v.headers), ...(body !== undefined ? { body } : {}) };
}

function response(v: unknown): HttpResponseRecord | undefined {
  const status = isRecord(v) ? int(v.status) : undefined;
  if (!isRecord(v) || status === undefined) return undefined;
  const body = str(v.body);
  return { status, headers: stringMap(v.headers), ...(body !== undefined ? { body } : {}) };
}

function failure(v: unknown): CheckFailureMeta | undefined {
  if (!isRecord(v)) return undefined;
  return {
    message: str(v.message) ?? 'check failed',
    request: request(v.request),
    response: response(v.response),
    curl: str(v.curl),
    seed: int(v.seed),
    path: str(v.path),
    counterexample: v.counterexample,
    requirements: strings(v.requirements),
    strays: strings(v.strays),
    setup: strings(v.setup),
    finding: str(v.finding),
    excerpt: str(v.excerpt),
  };
}

function findings(v: unknown): Finding[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).flatMap((f) => {
    const req = request(f.request);
    const key = str(f.key);
    const message = str(f.message);
    if (!key || !message || !req) return [];
    const res = response(f.response);
    const excerpt = str(f.excerpt);
    return [{
      key,
      requirements: strings(f.requirements) ?? [],
      message,
      pointer: str(f.pointer) ?? '',
      seenIn: strings(f.seenIn) ?? [],
      count: int(f.count) ?? 1,
      request: req,
      ...(res ? { response: res } : {}),
      curl: str(f.curl) ?? '',
      ...(excerpt !== undefined ? { excerpt } : {}),
    }];
  });
}

function counts(v: unknown): Record<string, number> {
  if (!isRecord(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => Number.isInteger(e[1])));
}

/** Normalises a check's `meta.conformance` (declared with the test, so its ids are there even when it never ran). */
export function checkMeta(check: CheckResult): CheckMeta {
  const raw = isRecord(check.meta) ? check.meta : {};
  const ids = Array.isArray(raw.requirements) ? raw.requirements.filter((x): x is string => typeof x === 'string') : [];
  return {
    requirements: ids,
    concern: str(raw.concern) ?? concernOf(check.moduleId),
    skipReason: str(raw.skipReason),
    failure: failure(raw.failure),
    readings: stringMap(raw.readings),
    warnings: warnings(raw.warnings),
    requests: num(raw.requests),
    findings: findings(raw.findings),
    judged: counts(raw.judged),
    ...(Array.isArray(raw.cells) ? { cells: parseCells(raw.cells) } : {}),
  };
}
