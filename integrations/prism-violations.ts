// Prism's `sl-violations` response header: a JSON array of
// { location: string[], severity: 'Error'|'Warning'|..., code, message }.
// Prism truncates it past ~8 KB with a "Too many violations! " prefix.

export interface PrismViolation {
  location: string[];
  severity: string;
  code: string;
  message: string;
}

export type HeaderBag =
  | Record<string, string | string[] | undefined>
  | { get(name: string): string | null; };

const HEADER = 'sl-violations';
const TRUNCATED = 'Too many violations! ';

function headerValue(headers: HeaderBag): string | undefined {
  if (typeof (headers as { get?: unknown; }).get === 'function') {
    return (headers as { get(name: string): string | null; }).get(HEADER) ?? undefined;
  }
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((name) => name.toLowerCase() === HEADER);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(',') : value;
}

function asViolation(item: unknown): PrismViolation {
  const entry = (item ?? {}) as Partial<Record<keyof PrismViolation, unknown>>;
  return {
    location: Array.isArray(entry.location) ? entry.location.map(String) : [],
    severity: String(entry.severity ?? 'Error'),
    code: String(entry.code ?? ''),
    message: String(entry.message ?? ''),
  };
}

/** The complete entries of a header Prism cut at ~8 KB, and a note that more were cut. */
function salvageTruncated(partial: string): PrismViolation[] {
  const note: PrismViolation = {
    location: ['response'],
    severity: 'Error',
    code: 'truncated',
    message: 'Prism cut the sl-violations header at about 8 KB: more violations than listed',
  };
  for (let cut = partial.lastIndexOf('},{'); cut > 0; cut = partial.lastIndexOf('},{', cut - 1)) {
    try {
      const parsed: unknown = JSON.parse(`${partial.slice(0, cut + 1)}]`);
      if (Array.isArray(parsed)) return [...parsed.map(asViolation), note];
    } catch {
      // a cut inside an entry: try the previous boundary
    }
  }
  return [note];
}

/** The violations Prism attached to a response; [] when the header is absent. */
export function parseViolations(headers: HeaderBag): PrismViolation[] {
  const value = headerValue(headers);
  if (!value) return [];
  if (value.startsWith(TRUNCATED)) return salvageTruncated(value.slice(TRUNCATED.length));
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(asViolation) : [asViolation(parsed)];
  } catch {
    return [{ location: [], severity: 'Error', code: 'unparsable', message: `unparsable sl-violations: ${value.slice(0, 200)}` }];
  }
}

export function formatViolation(v: PrismViolation): string {
  const where = v.location.join('.');
  return `${v.severity}${where ? ` at ${where}` : ''}: ${v.message}${v.code ? ` (${v.code})` : ''}`;
}

/**
 * The violations that describe the target's response rather than the suite's
 * request: response-located and of severity Error. Request violations are the
 * suite's deliberate negative inputs (a missing required field, a non-canonical
 * id, no bearer header); Prism reports a non-2xx status the document does not
 * list as a Warning, and the document leaves most error statuses unshown, so
 * warnings are not failures either.
 */
export function responseErrors(headers: HeaderBag): PrismViolation[] {
  return parseViolations(headers).filter((v) => v.location[0] === 'response' && v.severity === 'Error');
}

/** The violations that count against the target (see responseErrors), one message each. */
export function prismViolations(headers: HeaderBag): string[] {
  return responseErrors(headers).map(formatViolation);
}
