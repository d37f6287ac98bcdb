// Alternative readings: conforming choices the document leaves open, which the mock can
// serve instead of its defaults (`start({ readings })`, CLI `--reading name=value`).
// Unlike faults (mock/faults/) a reading is never a non-conformance: the self-test
// (suites/self/readings.test.ts) proves the suites pass a mock serving any of them.
// Each branch lives where the behaviour lives, as `ctx.readings.value('<name>')`.

export interface ReadingInfo {
  name: string;
  /** The first value is the mock's default reading. */
  values: readonly string[];
  /** Why every value is conforming (the document's words). */
  why: string;
}

const r = <const N extends string, const V extends readonly [string, ...string[]]>(name: N, values: V, why: string) => ({ name, values, why });

export const readings = [
  r('upload-limit', ['26214400', '25000000', 'request-25000000'],
    '§4 Upload rules 1 and §8: "Maximum upload size is 25 MB" — the file part in MiB (26,214,400) or decimal MB (25,000,000), or the whole multipart request (boundaries and fields too) in decimal MB.'),
  r('limit-over-max', ['clamp', '400', '422'],
    '§8 "Page size default and maximum: not shown"; §4 gives limit only as "page size" and §7 lists no status for a bad one: a limit above the maximum may be clamped or refused (400, 422).'),
  r('default-limit', ['25', '10'], '§8 "Page size default and maximum: not shown".'),
  r('max-limit', ['100', '50'], '§8 "Page size default and maximum: not shown".'),
  r('default-order', ['asc', 'desc'], '§4 order is "asc or desc"; the default is not shown.'),
  r('last-page-cursor', ['empty', 'absent'],
    '§4 rule 3 uses nextCursor only "while page.hasMore is true"; the envelope shows no value for the last page (specs/schemas/page.json: optional when hasMore is false).'),
  r('cursor-format', ['signed', 'plain'],
    '§4 "opaque value"; rules 1–2 require 400 only for a cursor that "cannot be decoded" or was issued for another sort/order: an unsigned cursor that decodes may be honoured.'),
  r('malformed-id', ['400', '404'],
    '§4 fixes the id pattern, not the status for an id outside it; "reported as missing, the same as an id that does not exist" (404 not_found) is as valid as 400.'),
  r('uuid-spellings', ['refuse', 'accept'],
    '§4 fixes the pattern of the id clients send, not a status for other spellings, and §9 counts "relaxed validation" as non-breaking: a server whose UUID parser (Go uuid.Parse, .NET Guid, Rust uuid) reads a spelling of the same UUID (no hyphens, braces, urn:uuid:, surrounding whitespace) may serve the record it names.'),
  r('create-status', ['201', '200'], '§4 "Success status codes: not shown, except 200 for a repeated capture."'),
  r('auth-failure-status', ['401', '403'], '§5 rule 5: "the status returned for a missing or invalid key: not shown".'),
  r('plan-limit-status', ['402', '403'], '§7 "the status used for plan-limit errors: not shown".'),
  r('idempotency-reused-status', ['422', '409'],
    '§4 fixes 422 only for uploads ("Upload rules" 3); for JSON endpoints a key reused with another body has no status shown (uploads keep 422).'),
  r('empty-idempotency-key', ['no-key', 'refuse'],
    '§4 "Every mutating endpoint takes an optional header idempotency-key (string)" and gives the key no form or length: an empty value may be read as no key (the request runs as one without), or refused as a malformed key (400 with detail["idempotency-key"]).'),
  r('file-delete', ['200', '204'], '§4 Files: the delete\'s response is "not specified": 204 with no body is as valid as the delete result.'),
  r('empty-last-page', ['never', 'after-full-page'],
    '§4 rule 3 only says to request the next page while hasMore is true: a server that does not look ahead says hasMore true on a full page and answers the next request with an empty last page.'),
  r('page-scan', ['matches', 'window'],
    '§4 rule 3 only says to request the next page while page.hasMore is true: a server that reads limit records of the list in order and answers those its filter and q keep may answer a page with no items and hasMore true.'),
  r('trailing-slash-lists', ['404', 'list'],
    '§4 shows the lists at /projects, /assignments, ...; whether /projects/ (a trailing slash) is the same route is a routing choice the document does not fix.'),
  r('organization-shape', ['as-projects', 'other'],
    '§2 gives each resource its older shape on its own ("A second, older shape of the project also appears"; "An older organization shape also appears"): organizations may come in the other shape than projects.'),
  r('request-noise', ['none', 'gateway'],
    '§7 fixes the error envelope, not the headers around it, and §9 allows "new response fields (REST clients must ignore unknown fields)": a deployment behind a gateway adds a per-request header (a latency, a request id) to its answers, and may put a per-request number (a timing) in its error bodies.'),
  r('text-normal-form', ['as-sent', 'nfc'],
    '§2 types names and notes as strings and shows no Unicode normal form: a server may store text as sent, or composed (NFC: "e" and a combining acute become "é"), which is the same text.'),
  r('timestamp-format', ['rfc3339-z', 'offset', 'space'],
    '§2 "Formats of timestamps and dates ... are not shown": e.g. 2026-01-02T03:04:05.678+00:00 (offset) or 2026-01-02 03:04:05.678+00:00 (space).'),
] as const satisfies readonly ReadingInfo[];

type Info = (typeof readings)[number];
export type ReadingName = Info['name'];
export type ReadingValue<N extends ReadingName> = Extract<Info, { name: N; }>['values'][number];
/** A choice of readings; every absent name keeps the default (the first value). */
export type ReadingChoice = { [N in ReadingName]?: ReadingValue<N>; };

export class ReadingError extends Error {}

const infoOf = (name: string): Info | undefined => readings.find((x) => x.name === name);

/** The readings of one mock instance. */
export class Readings {
  private readonly chosen = new Map<string, string>();

  constructor(choice: Readonly<Record<string, string | undefined>> = {}) {
    for (const [name, value] of Object.entries(choice)) {
      if (value === undefined) continue;
      const info = infoOf(name);
      if (!info) throw new ReadingError(`Unknown reading "${name}". Known readings: ${readings.map((x) => x.name).join(', ')}`);
      if (!(info.values as readonly string[]).includes(value)) {
        throw new ReadingError(`Unknown value "${value}" of reading ${name}. Values: ${info.values.join(', ')}`);
      }
      this.chosen.set(name, value);
    }
  }

  value<N extends ReadingName>(name: N): ReadingValue<N> {
    return (this.chosen.get(name) ?? infoOf(name)!.values[0]) as ReadingValue<N>;
  }

  /** The non-default readings, e.g. { 'upload-limit': '25000000' }. */
  get active(): Record<string, string> {
    return Object.fromEntries(this.chosen);
  }
}

/** Parses `name=value,name=value` (or several such strings); throws ReadingError on anything unknown. */
export function parseReadings(specs: string | readonly string[]): ReadingChoice {
  const out: Record<string, string> = {};
  for (const item of (typeof specs === 'string' ? [specs] : specs).flatMap((s) => s.split(','))) {
    const text = item.trim();
    if (!text) continue;
    const eq = text.indexOf('=');
    if (eq <= 0) throw new ReadingError(`A reading is written name=value (got "${text}")`);
    out[text.slice(0, eq).trim()] = text.slice(eq + 1).trim();
  }
  new Readings(out); // validates
  return out as ReadingChoice;
}

/** A timestamp in the chosen format (§2 leaves it open); non-timestamps pass unchanged. */
export function formatTimestamp(value: string, format: ReadingValue<'timestamp-format'>): string {
  if (format === 'rfc3339-z') return value;
  const t = Date.parse(value);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return value;
  const iso = new Date(t).toISOString().replace('Z', '+00:00');
  return format === 'space' ? iso.replace('T', ' ') : iso;
}
