// Deprecation (RFC 9745, or the HTTP-date / "true" of its drafts) and Sunset (RFC 8594) header values.

const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Epoch milliseconds of an HTTP-date, or undefined when the value is not one. */
export function httpDate(value: string): number | undefined {
  return IMF_FIXDATE.test(value.trim()) ? Date.parse(value) : undefined;
}

export type DeprecationValue = { ok: true; date?: number; form: 'structured-date' | 'http-date' | 'true'; } | { ok: false; };

export function parseDeprecation(value: string): DeprecationValue {
  const v = value.trim();
  const m = /^@(-?\d+)$/.exec(v);
  if (m) return { ok: true, date: Number(m[1]) * 1000, form: 'structured-date' };
  const d = httpDate(v);
  if (d !== undefined) return { ok: true, date: d, form: 'http-date' };
  if (v === 'true') return { ok: true, form: 'true' };
  return { ok: false };
}
