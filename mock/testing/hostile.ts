// Hostile clients of the mock over raw HTTP/1.1, for its fuzz test (mock/fuzz.test.ts) and the fuzz
// benchmark (bench/fuzz.ts): seeded random requests (methods known, unknown and malformed; every
// route with good and bad ids, bad percent-encodings, long segments, random queries; keys, content
// types, idempotency keys, Expect, repeated and conflicting headers, control characters, heads over
// the limit; random JSON, schema-derived bodies, deep nesting, random bytes, multipart bodies with
// every kind of part and file name) sent in hostile ways (whole, slowly in pieces, stopped part-way,
// abandoned part-way or while the answer arrives, the whole body written before a byte is read,
// or kept alive and followed on its connection by another request or by bytes that are none),
// and what came back, judged: every request the client finishes must get a complete answer below
// 500, every error in the §7 full envelope, before a bound; no hang, no close without an answer,
// no reset, and no answer lost to what follows on the same connection. Only ever connects to 127.0.0.1.
import fc from 'fast-check';
import { connect } from 'node:net';
import { assignmentPatch, employeeCreate, employeePatch, organizationCreate } from '../../specs/arbitraries.js';
import { validate } from '../../specs/index.js';

const API = '/api/public/v1';

/** What the requests aim at, read as they are generated: keys, record ids, and attachments created so far. */
export interface FuzzTargets {
  keys: { team: string; other: string; readOnly: string; noApi: string; };
  /** Ids of records of the team (and one of the other team's). */
  ids: readonly string[];
  /** A project of the team, for uploads that are accepted. */
  projectId: string;
  /** Attachments created by earlier requests (filled by remember()). */
  attachments: string[];
}

/** How a request is sent. */
export type SendPlan =
  /** All at once, reading as the answer comes. */
  | { kind: 'whole'; }
  /** All of it written before a byte is read (a client that writes its whole body first). */
  | { kind: 'write-first'; }
  /** In pieces cut at these fractions of its bytes, `gapMs` apart. */
  | { kind: 'slow'; cuts: number[]; gapMs: number; }
  /** Only this fraction of its bytes, then nothing (the server must answer, 408 at the latest). */
  | { kind: 'stop'; at: number; }
  /** This fraction of its bytes, then the connection closed: no answer expected. */
  | { kind: 'abort'; at: number; }
  /** All of it, then the connection closed once `afterBytes` of the answer arrived. */
  | { kind: 'abort-reading'; afterBytes: number; }
  /**
   * All of it without Connection: close, then on the same connection a request that closes it, or
   * bytes that are no request: its own answer must come first, then the follow-up's, unless its
   * own closes the connection.
   */
  | { kind: 'follow-up'; then: FollowUp; };

/** What follows a request kept alive: a request (unauthenticated, so 401) that closes, or no request (HTTP/9.9). */
export type FollowUp = 'request' | 'malformed';

const FOLLOW_UPS = {
  request: `GET ${API}/projects?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
  // A version no request of the generator has, so its 400 (detail.version) is never another's.
  malformed: 'GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n',
} as const satisfies Record<FollowUp, string>;

export interface HostileRequest {
  method: string;
  target: string;
  headers: [string, string][];
  body: Buffer;
  /** The headers give the framing themselves (Content-Length, Transfer-Encoding), however wrong. */
  framed: boolean;
  plan: SendPlan;
}

export type Outcome =
  | { kind: 'answered'; status: number; headers: Record<string, string>; body: Buffer; ms: number; followUp?: Answer; }
  /** No complete answer before the bound, the connection still open. */
  | { kind: 'hang'; ms: number; head: string; }
  /** The server closed the connection without a complete answer. */
  | { kind: 'closed'; ms: number; head: string; }
  /** The connection was reset (ECONNRESET, EPIPE) before a complete answer. */
  | { kind: 'reset'; code: string; ms: number; head: string; }
  /** The client closed it on purpose (plans abort and abort-reading). */
  | { kind: 'aborted'; ms: number; }
  /** A request followed on its connection (plan follow-up) lost an answer: its own, or the follow-up's. */
  | { kind: 'lost'; why: string; ms: number; head: string; };

/** A complete answer: status, headers and body. */
export type Answer = Pick<ReadAnswer, 'status' | 'headers' | 'body'>;

export interface FuzzTiming {
  /** The longest pause of a slow send: below the mock's body timeout. */
  maxGapMs: number;
}

/** Request generators over `t`, read lazily, so ids remembered meanwhile are used. */
export function hostileRequests(t: FuzzTargets, timing: FuzzTiming): fc.Arbitrary<HostileRequest> {
  const pick = <T>(list: () => readonly T[], fallback: T) => fc.nat().map((i) => (list().length ? list()[i % list().length]! : fallback));
  const idArb = fc.oneof(
    { weight: 6, arbitrary: pick(() => t.ids, '00000000-0000-0000-0000-000000000000') },
    { weight: 2, arbitrary: pick(() => t.attachments, '00000000-0000-0000-0000-000000000000') },
    { weight: 2, arbitrary: fc.uuid() },
    {
      weight: 1,
      arbitrary: fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '%ZZ', '%', '%00', '%2F', '..', '.',
        '%E0%A4%A', '{id}', 'a'.repeat(5_000)),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[\r\n ]/g, '')) },
  );

  const downloadArb = pick(() => t.attachments, '00000000-0000-0000-0000-000000000000').map((id) => ({
    method: 'GET',
    target: `${API}/attachments/${id}/download`,
  }));

  const queryArb = fc.array(
    fc.tuple(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom('limit', 'cursor', 'sort', 'order', 'q', 'entity_type', 'entity_id', 'project_id', 'employee_id') }, {
        weight: 1,
        arbitrary: fc.string({ maxLength: 8 }),
      }),
      fc.oneof({
        weight: 4,
        arbitrary: fc.constantFrom('1', '0', '-1', '100', '101', 'abc', 'asc', 'desc', 'title', 'created_at', 'project', 'eyJ4IjoxfQ.x', ''),
      }, idArb, fc.string({ maxLength: 30 })),
      fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    ).map(([k, v, encode]) => (encode ? `${encodeURIComponent(k)}=${encodeURIComponent(v)}` : `${k}=${v}`.replace(/[\r\n #]/g, ''))),
    { maxLength: 3 },
  ).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));

  const targetArb = fc.oneof(
    { weight: 16, arbitrary: fc.tuple(fc.constantFrom(...TEMPLATES), idArb, queryArb).map(([p, id, q]) => `${API}${p.replace('{id}', id)}${q}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('*', '/', '//', 'http://127.0.0.1/api/public/v1/projects', '/api/public/v2/projects', '/api/public/v1/projects/../files',
        `${API}/projects?${'q='.repeat(2_000)}`),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => `/${s.replace(/[\r\n ]/g, '')}`) },
  );

  const methodArb = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE') },
    { weight: 2, arbitrary: fc.constantFrom('HEAD', 'PUT', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE', 'CONNECT', 'BREW', 'get', 'M-SEARCH', 'SEARCH', 'QUERY') },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z!#$%&'*+.^_`|~-]{1,12}$/) },
  );

  const authArb = fc.oneof(
    { weight: 8, arbitrary: fc.constant(() => `Bearer ${t.keys.team}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<() => string | undefined>(
        () => `Bearer ${t.keys.other}`,
        () => `Bearer ${t.keys.readOnly}`,
        () => `Bearer ${t.keys.noApi}`,
        () => 'Bearer nope',
        () => 'Basic dXNlcjpwYXNz',
        () => 'Bearer',
        () => undefined,
      ),
    },
  ).map((f) => f());

  /** [content-type or undefined, body]. */
  const bodyArb: fc.Arbitrary<[string | undefined, Buffer]> = fc.oneof(
    { weight: 2, arbitrary: fc.constant<[string | undefined, Buffer]>([undefined, Buffer.alloc(0)]) },
    fc.jsonValue().map((v): [string, Buffer] => ['application/json', Buffer.from(JSON.stringify(v) ?? 'null')]),
    {
      weight: 4,
      arbitrary: fc.oneof(employeeCreate, organizationCreate, assignmentPatch, employeePatch).map((
        v,
      ): [string, Buffer] => ['application/json', Buffer.from(JSON.stringify(v))]),
    },
    fc.record({ employee_id: idArb, project_id: idArb, role: fc.string() }).map((v): [string, Buffer] => ['application/json', Buffer.from(JSON.stringify(v))]),
    fc.record({ source: fc.string({ maxLength: 5 }), external_id: fc.string({ maxLength: 5 }), thread: fc.jsonValue() }).map((
      v,
    ): [string, Buffer] => ['application/json', Buffer.from(JSON.stringify(v))]),
    fc.integer({ min: 1, max: 20_000 }).map((d): [string, Buffer] => ['application/json', Buffer.from(`{"a":${'['.repeat(d)}${']'.repeat(d)}}`)]),
    fc.tuple(
      fc.constantFrom('application/json', 'application/merge-patch+json', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded',
        'application/octet-stream', 'multipart/form-data', 'json', '', ';;;', 'application/json; charset=utf-8; x="'),
      fc.uint8Array({ maxLength: 2_000 }),
    ).map(([ct, b]): [string, Buffer] => [ct, Buffer.from(b)]),
    { weight: 5, arbitrary: multipartArb(t, idArb) },
  );

  const extraHeaderArb = fc.tuple(
    fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,16}$/).filter((n) => !FRAMING.test(n)),
    fc.oneof(
      { weight: 5, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 60 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    ).map((v) => v.replace(/[\r\n]/g, '')),
  );

  /** What a request's head may get wrong besides its own headers: repeats, conflicts, an empty key, a head over the limit. */
  const anomalyArb = fc.oneof(
    { weight: 40, arbitrary: fc.constant('none' as const) },
    fc.constantFrom('two-authorization', 'two-host', 'two-idempotency-keys', 'empty-idempotency-key', 'two-lengths', 'length-and-chunked', 'huge-head',
      'control-character', 'gzip-chunked'),
  );

  const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
  const planArb: fc.Arbitrary<SendPlan> = fc.oneof(
    { weight: 60, arbitrary: fc.constant<SendPlan>({ kind: 'whole' }) },
    { weight: 3, arbitrary: fc.constant<SendPlan>({ kind: 'write-first' }) },
    {
      weight: 2,
      arbitrary: fc.record({
        cuts: fc.uniqueArray(fraction, { minLength: 1, maxLength: 4 }).map((c) => c.sort((a, b) => a - b)),
        gapMs: fc.integer({ min: 1, max: timing.maxGapMs }),
      }).map((s): SendPlan => ({ kind: 'slow', ...s })),
    },
    { weight: 1, arbitrary: fraction.map((at): SendPlan => ({ kind: 'stop', at })) },
    { weight: 2, arbitrary: fraction.map((at): SendPlan => ({ kind: 'abort', at })) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 64 * 1024 }).map((afterBytes): SendPlan => ({ kind: 'abort-reading', afterBytes })) },
    { weight: 4, arbitrary: fc.constantFrom<FollowUp>('request', 'malformed').map((then): SendPlan => ({ kind: 'follow-up', then })) },
  );

  const requestArb = fc.record({
    route: fc.oneof(
      {
        weight: 2,
        arbitrary: fc.tuple(fc.constantFrom(...ROUTES), idArb, queryArb).map(([[m, p], id, q]) => ({
          method: m,
          target: `${API}${p.replace('{id}', id)}${q}`,
        })),
      },
      { weight: 1, arbitrary: fc.record({ method: methodArb, target: targetArb }) },
      // Downloads of what earlier uploads stored, under whatever name they were accepted with.
      { weight: 1, arbitrary: downloadArb },
    ),
    auth: authArb,
    body: fc.oneof({ weight: 400, arbitrary: bodyArb }, { weight: 1, arbitrary: bigBodyArb }),
    idem: fc.option(fc.oneof(fc.string({ maxLength: 10 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x')), fc.constant('k'.repeat(300))), { nil: undefined }),
    expect: fc.oneof({ weight: 19, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('100-continue', 'teapot', '') }),
    extra: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(extraHeaderArb, { minLength: 1, maxLength: 3 }) }),
    anomaly: anomalyArb,
    keepType: fc.boolean(),
    plan: planArb,
  }).map(({ route: { method, target }, auth, body, idem, expect, extra, anomaly, keepType, plan }): HostileRequest => {
    const headers: [string, string][] = [['Host', '127.0.0.1']];
    if (auth !== undefined) headers.push(['Authorization', auth]);
    if (body[0] !== undefined && (keepType || body[1].length > 0)) headers.push(['Content-Type', body[0]]);
    if (idem !== undefined) headers.push(['Idempotency-Key', idem]);
    if (expect !== undefined) headers.push(['Expect', expect]);
    headers.push(...extra);
    let framed = false;
    const length = String(body[1].length);
    if (anomaly === 'two-authorization') headers.push(['Authorization', `Bearer ${t.keys.other}`]);
    else if (anomaly === 'two-host') headers.push(['Host', 'example.test']);
    else if (anomaly === 'two-idempotency-keys') headers.push(['Idempotency-Key', 'a'], ['Idempotency-Key', 'b']);
    else if (anomaly === 'empty-idempotency-key') headers.push(['Idempotency-Key', '']);
    else if (anomaly === 'huge-head') headers.push(['X-Padding', 'p'.repeat(20_000)]);
    else if (anomaly === 'control-character') headers.push(['X-Control', 'a\x01b']);
    else if (anomaly === 'two-lengths') {
      headers.push(['Content-Length', length], ['Content-Length', String(body[1].length + 1)]);
      framed = true;
    } else if (anomaly === 'length-and-chunked') {
      headers.push(['Content-Length', length], ['Transfer-Encoding', 'chunked']);
      framed = true;
    } else if (anomaly === 'gzip-chunked') {
      // A coding the server does not apply: refused before the body, which is not even chunked.
      headers.push(['Transfer-Encoding', 'gzip, chunked']);
      framed = true;
    }
    return { method, target, headers, body: body[1], framed, plan };
  });
  /** A request refused by its head while megabytes of body follow, from a client that writes them all before reading. */
  const refusedWhileArriving = fc.tuple(
    fc.constantFrom('huge-head', 'control-character', 'two-lengths', 'two-host', 'two-authorization', 'expect', 'no-key', 'json-too-large', 'gzip-chunked',
      'declared-over-limit'),
    fc.integer({ min: 1, max: 6 }),
  ).map(([why, mb]): HostileRequest => {
    const body = Buffer.alloc(mb * 1024 * 1024, 0x20);
    const upload = why !== 'json-too-large';
    const headers: [string, string][] = [
      ['Host', '127.0.0.1'],
      ...(why === 'no-key' ? [] : [['Authorization', `Bearer ${t.keys.team}`] as [string, string]]),
      ['Content-Type', upload ? `multipart/form-data; boundary=${BOUNDARY}` : 'application/json'],
    ];
    if (why === 'huge-head') headers.push(['X-Padding', 'p'.repeat(20_000)]);
    else if (why === 'control-character') headers.push(['X-Control', 'a\x01b']);
    else if (why === 'two-host') headers.push(['Host', 'example.test']);
    else if (why === 'two-authorization') headers.push(['Authorization', `Bearer ${t.keys.other}`]);
    else if (why === 'expect') headers.push(['Expect', 'teapot']);
    const framed = why === 'two-lengths' || why === 'gzip-chunked' || why === 'declared-over-limit';
    if (why === 'two-lengths') headers.push(['Content-Length', String(body.length)], ['Content-Length', '5']);
    else if (why === 'gzip-chunked') headers.push(['Transfer-Encoding', 'gzip, chunked']);
    // Over what any form within the 25 MB limit can be: refused before the megabytes sent are read.
    else if (why === 'declared-over-limit') headers.push(['Content-Length', String(40 * 1024 * 1024)]);
    return { method: 'POST', target: `${API}${upload ? '/files' : '/organizations'}`, headers, body, framed, plan: { kind: 'write-first' } };
  });
  return fc.oneof({ weight: 300, arbitrary: requestArb }, { weight: 1, arbitrary: refusedWhileArriving });
}

const TEMPLATES = [
  '/projects',
  '/projects/{id}',
  '/assignments',
  '/assignments/{id}',
  '/employees',
  '/employees/{id}',
  '/organizations',
  '/organizations/{id}',
  '/cvs',
  '/attachments',
  '/attachments/{id}',
  '/attachments/{id}/download',
  '/files',
  '/files/{id}',
  '/documents',
  '/intake/captures',
  '/openapi.json',
  '',
  '/{id}',
];

/** The routes the mock serves, so that a good share of requests gets past routing. */
const ROUTES: [string, string][] = [
  ['GET', '/projects'],
  ['GET', '/projects/{id}'],
  ['PATCH', '/projects/{id}'],
  ['GET', '/assignments'],
  ['GET', '/assignments/{id}'],
  ['POST', '/assignments'],
  ['PATCH', '/assignments/{id}'],
  ['DELETE', '/assignments/{id}'],
  ['POST', '/employees'],
  ['PATCH', '/employees/{id}'],
  ['GET', '/organizations'],
  ['POST', '/organizations'],
  ['PATCH', '/organizations/{id}'],
  ['GET', '/cvs'],
  ['POST', '/attachments'],
  ['POST', '/attachments'],
  ['GET', '/attachments'],
  ['DELETE', '/attachments/{id}'],
  ['GET', '/attachments/{id}/download'],
  ['GET', '/attachments/{id}/download'],
  ['POST', '/files'],
  ['GET', '/files/{id}'],
  ['DELETE', '/files/{id}'],
  ['POST', '/intake/captures'],
  ['GET', '/openapi.json'],
];

const FRAMING = /^(content-length|transfer-encoding|connection|host)$/i;
const BOUNDARY = 'fuzzboundary';

/** File names as a client may send them: the ones that must come back unchanged, and the hostile ones. */
export const filenameArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('a.bin', 'résumé.pdf', '日本語の文書.txt', '😀 party 🎉.png', 'e\u0301t\u0301e\u0301.txt', 'Ελληνικά.doc', 'עברית.txt', 'a"b.txt',
    'back\\slash', '50%.txt', "it's (1).txt", 'semi;colon,comma.txt', '../../etc/passwd', 'C:\\dir\\x.txt', '', '.', '..', ' lead and trail ', 'x'.repeat(255),
    'é'.repeat(128), '\u0000nul', 'tab\there', 'new\nline', 'del\u007f', 'c1\u0085', '\u202eexe.txt', '\ufeffbom', '\ud800'),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'grapheme-composite', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

/** A Content-Disposition parameter giving a file name, in one of the ways clients write (or break) it. */
const filenameParamArb: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 4, arbitrary: filenameArb.map((n) => Buffer.from(`; filename="${n.replace(/["\\]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ')}"`, 'utf8')) },
  { weight: 3, arbitrary: filenameArb.map((n) => Buffer.from(`; filename*=UTF-8''${rfc8187(n)}`)) },
  { weight: 2, arbitrary: filenameArb.map((n) => Buffer.from(`; filename="fallback.bin"; filename*=UTF-8''${rfc8187(n)}`)) },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom('utf-8', 'UTF-8', 'iso-8859-1', 'utf-16le', 'utf-16be', 'x-bogus', ''), fc.uint8Array({ maxLength: 12 })).map((
      [cs, b],
    ) => Buffer.from(`; filename*=${cs}''${[...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('')}`)),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 20 }).map((b) =>
      Buffer.concat([Buffer.from('; filename="'), Buffer.from(b.filter((x) => x !== 0x22 && x !== 0x0d && x !== 0x0a)), Buffer.from('"')])
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '; filename=', '; filename="unclosed', "; filename*=UTF-8''%ZZ", '; filename*=x', '; name="other"').map((s) =>
      Buffer.from(s)
    ),
  },
);

/** RFC 8187 value-chars of a string's UTF-8 bytes (lone surrogates as U+FFFD, as any encoder would). */
export function rfc8187(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((
    b,
  ) => (/[A-Za-z0-9!#$&+\-.^_`|~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** Multipart bodies: well-formed uploads that are accepted, and every way a part or the framing can be wrong. */
function multipartArb(t: FuzzTargets, idArb: fc.Arbitrary<string>): fc.Arbitrary<[string, Buffer]> {
  const disposition = fc.oneof(
    { weight: 12, arbitrary: fc.constant('form-data') },
    fc.constantFrom('attachment', 'inline', 'FORM-DATA', 'form-data ', 'x-other', ''),
  );
  const partType = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: fc.constantFrom('application/octet-stream', 'text/plain; charset=utf-8', 'image/png', 'text/html', 'application/pdf') },
    fc.constantFrom('', 'text', 'a/b/c', 'text/html\u0001', 'ünïcode/type', 'x/y; q="', '/'),
  );
  const fileBytes = fc.oneof(
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 4_000 }).map((b) => Buffer.from(b)) },
    { weight: 1, arbitrary: fc.integer({ min: 16_000, max: 40_000 }).map((n) => Buffer.alloc(n, 0x61)) },
  );
  const filePart = fc.record({ disposition, name: fc.constantFrom('file', 'file', 'file', 'other'), param: filenameParamArb, type: partType, bytes: fileBytes })
    .map(({ disposition: d, name, param, type, bytes }) =>
      Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${d}; name="${name}"`),
        param,
        Buffer.from(`\r\n${type === undefined ? '' : `Content-Type: ${type}\r\n`}\r\n`, 'utf8'),
        bytes,
        Buffer.from('\r\n'),
      ])
    );
  const field = fc.tuple(disposition, fc.constantFrom('entity_type', 'entity_id', 'category', 'file', 'x', '__proto__', 'constructor'),
    fc.oneof(idArb, fc.constantFrom('project', 'employee', 'contract'), fc.string({ maxLength: 20 }))).map(([d, k, v]) =>
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${d}; name="${k}"\r\n\r\n${v}\r\n`)
    );
  const closing = fc.oneof(
    { weight: 10, arbitrary: fc.constant(`--${BOUNDARY}--\r\n`) },
    fc.constantFrom('', `--${BOUNDARY}`, `--${BOUNDARY}junk\r\n`, `--${BOUNDARY}--\r\nepilogue`, `--${BOUNDARY}\r\n`),
  );
  const type = fc.oneof(
    { weight: 10, arbitrary: fc.constant(`multipart/form-data; boundary=${BOUNDARY}`) },
    fc.constantFrom('multipart/form-data; boundary=other', 'multipart/form-data', `multipart/mixed; boundary=${BOUNDARY}`,
      `multipart/form-data; boundary="${BOUNDARY}"`, 'multipart/form-data; boundary=', `multipart/form-data; boundary=${'b'.repeat(71)}`),
  );
  /** An upload the mock accepts (when the name can be stored): the team's project, a file with any name, type and bytes. */
  const accepted = fc.record({
    param: filenameParamArb,
    type: partType,
    bytes: fileBytes,
    category: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
  })
    .map(({ param, type: ct, bytes, category }): [string, Buffer] => [
      `multipart/form-data; boundary=${BOUNDARY}`,
      Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="entity_type"\r\n\r\nproject\r\n`),
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="entity_id"\r\n\r\n${t.projectId}\r\n`),
        ...(category === undefined ? [] : [Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="category"\r\n\r\n${category}\r\n`)]),
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"`),
        param,
        Buffer.from(`\r\n${ct === undefined ? '' : `Content-Type: ${ct}\r\n`}\r\n`, 'utf8'),
        bytes,
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]),
    ]);
  const any = fc.tuple(fc.array(fc.oneof(field, filePart), { maxLength: 5 }), fc.option(fc.constantFrom('preamble\r\n', '\r\n'), { nil: '' }), closing, type)
    .map(([parts, preamble, end, ct]): [string, Buffer] => [ct, Buffer.concat([Buffer.from(preamble), ...parts, Buffer.from(end)])]);
  return fc.oneof({ weight: 2, arbitrary: accepted }, { weight: 3, arbitrary: any });
}

/** A body of megabytes: what a refusal meets while the body is still arriving. */
const bigBodyArb: fc.Arbitrary<[string | undefined, Buffer]> = fc.tuple(
  fc.constantFrom('application/json', `multipart/form-data; boundary=${BOUNDARY}`, 'application/octet-stream'),
  fc.integer({ min: 1, max: 6 }),
).map(([ct, mb]) => [ct, Buffer.alloc(mb * 1024 * 1024, 0x20)]);

/**
 * The bytes of a request: its head (with Content-Length unless it frames itself, and Connection:
 * close unless something follows it) and body, then what follows it (plan follow-up).
 */
export function serialize(r: HostileRequest): Buffer {
  const lines = [`${r.method} ${r.target} HTTP/1.1`, ...r.headers.map(([k, v]) => `${k}: ${v}`)];
  if (!r.framed && (r.body.length > 0 || r.method === 'POST' || r.method === 'PATCH')) lines.push(`Content-Length: ${r.body.length}`);
  if (r.plan.kind !== 'follow-up') lines.push('Connection: close');
  lines.push('', '');
  const after = r.plan.kind === 'follow-up' ? [Buffer.from(FOLLOW_UPS[r.plan.then], 'latin1')] : [];
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), r.body, ...after]);
}

/** Whether an answer is the 400 of the malformed follow-up (the only request line of another version). */
function isFollowUpVersionError(a: Answer): boolean {
  if (a.status !== 400) return false;
  try {
    return typeof (JSON.parse(a.body.toString('utf8')) as { detail?: { version?: unknown; }; }).detail?.version === 'string';
  } catch {
    return false;
  }
}

/**
 * What the answers read so far on a connection say, for a request and its plan: undefined while
 * more must come; otherwise the outcome (a follow-up's answer must come after the request's own,
 * unless that one closes the connection).
 */
function outcomeOf(r: HostileRequest, data: Buffer, closed: boolean, ms: number): Outcome | undefined {
  const { answers } = answersIn(data, closed, [r.method, 'GET']);
  const first = answers[0];
  if (!first) return undefined;
  const own = { status: first.status, headers: first.headers, body: first.body };
  if (r.plan.kind !== 'follow-up') return { kind: 'answered', ...own, ms };
  const head = data.toString('latin1', 0, 200);
  if (r.plan.then === 'malformed' && isFollowUpVersionError(first)) {
    return { kind: 'lost', why: `the first answer is the 400 of the bytes that followed the request, whose own answer is missing`, ms, head };
  }
  if (/\bclose\b/i.test(first.headers.connection ?? '')) return { kind: 'answered', ...own, ms };
  const second = answers[1];
  if (second) return { kind: 'answered', ...own, followUp: { status: second.status, headers: second.headers, body: second.body }, ms };
  if (closed) return { kind: 'lost', why: `closed after the first answer (${first.status}, kept alive) without answering what followed`, ms, head };
  return undefined;
}

export const describeRequest = (r: HostileRequest): string =>
  `${r.method} ${r.target.slice(0, 200)} ${JSON.stringify(r.headers.map(([k, v]) => [k, v.slice(0, 80)])).slice(0, 400)} body ${r.body.length} bytes: ${
    JSON.stringify(r.body.subarray(0, 160).toString('latin1'))
  } sent ${JSON.stringify(r.plan)}`;

/** One response of several read from a connection, and where it ends in what was read. */
export interface ReadAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The offset in what was read just past this response. */
  end: number;
}

/**
 * The response starting at `start` of what a connection read so far: complete once its body is (by
 * Content-Length, chunked framing, or the close). Interim answers (100 Continue) are skipped.
 */
function answerIn(data: Buffer, method: string, closed: boolean, start = 0): ReadAnswer | undefined {
  for (;;) {
    const end = data.indexOf('\r\n\r\n', start);
    if (end < 0) return undefined;
    const head = data.toString('latin1', start, end);
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
    if (!m) return undefined;
    const status = Number(m[1]);
    // Interim answers (100 Continue) come before the response itself.
    if (status >= 100 && status < 200) {
      start = end + 4;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of head.split('\r\n').slice(1)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const from = end + 4;
    const rest = data.subarray(from);
    if (method === 'HEAD' || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0), end: from };
    const length = headers['content-length'];
    if (length !== undefined) {
      return rest.length >= Number(length) ? { status, headers, body: rest.subarray(0, Number(length)), end: from + Number(length) } : undefined;
    }
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const chunks: Buffer[] = [];
      let at = 0;
      for (;;) {
        const eol = rest.indexOf('\r\n', at);
        if (eol < 0) return undefined;
        const size = parseInt(rest.toString('latin1', at, eol), 16);
        if (Number.isNaN(size)) return undefined;
        if (size === 0) {
          const trailerEnd = rest.indexOf('\r\n\r\n', eol);
          if (trailerEnd >= 0) return { status, headers, body: Buffer.concat(chunks), end: from + trailerEnd + 4 };
          return rest.length >= eol + 4 ? { status, headers, body: Buffer.concat(chunks), end: from + eol + 4 } : undefined;
        }
        if (rest.length < eol + 2 + size + 2) return undefined;
        chunks.push(rest.subarray(eol + 2, eol + 2 + size));
        at = eol + 2 + size + 2;
      }
    }
    return closed ? { status, headers, body: rest, end: data.length } : undefined;
  }
}

/**
 * Every complete response in what a connection read, in order (`methods`: of the requests they
 * answer, for HEAD; the last repeats), and what is left after them.
 */
export function answersIn(data: Buffer, closed: boolean, methods: readonly string[] = ['GET']): { answers: ReadAnswer[]; rest: Buffer; } {
  const answers: ReadAnswer[] = [];
  let at = 0;
  for (;;) {
    const a = answerIn(data, methods[Math.min(answers.length, methods.length - 1)]!, closed, at);
    if (!a) return { answers, rest: data.subarray(at) };
    answers.push(a);
    at = a.end;
  }
}

/** Sends `r` to the mock at `url` as its plan says, and reads what comes back, for at most `boundMs`. */
export function exchange(url: string, r: HostileRequest, boundMs: number): Promise<Outcome> {
  const { port } = new URL(url);
  const bytes = serialize(r);
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const timers: NodeJS.Timeout[] = [];
    const ms = () => Math.round(performance.now() - started);
    const soFar = () => Buffer.concat(chunks).toString('latin1', 0, 200);
    const finish = (o: Outcome) => {
      if (done) return;
      done = true;
      for (const timer of timers) clearTimeout(timer);
      socket.destroy();
      resolve(o);
    };
    const answered = (closed: boolean) => {
      const o = outcomeOf(r, Buffer.concat(chunks), closed, ms());
      if (o) finish(o);
      return o !== undefined;
    };
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      received += d.length;
      if (r.plan.kind === 'abort-reading' && received >= r.plan.afterBytes) return finish({ kind: 'aborted', ms: ms() });
      answered(false);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (!answered(true)) finish({ kind: 'reset', code: e.code ?? e.message, ms: ms(), head: soFar() });
    });
    socket.on('close', () => {
      if (!answered(true)) finish({ kind: 'closed', ms: ms(), head: soFar() });
    });
    timers.push(setTimeout(() => finish({ kind: 'hang', ms: ms(), head: soFar() }), boundMs));
    const plan = r.plan;
    const offset = (fraction: number) => Math.floor(fraction * bytes.length);
    if (plan.kind === 'whole' || plan.kind === 'abort-reading' || plan.kind === 'follow-up') socket.write(bytes);
    else if (plan.kind === 'write-first') {
      socket.pause();
      socket.write(bytes, () => socket.resume());
    } else if (plan.kind === 'stop') socket.write(bytes.subarray(0, offset(plan.at)));
    else if (plan.kind === 'abort') {
      socket.write(bytes.subarray(0, offset(plan.at)), () => finish({ kind: 'aborted', ms: ms() }));
    } else {
      let from = 0;
      plan.cuts.map(offset).forEach((cut, i) => {
        const piece = bytes.subarray(from, cut);
        from = cut;
        timers.push(setTimeout(() => !socket.destroyed && socket.write(piece), i * plan.gapMs));
      });
      const last = bytes.subarray(from);
      timers.push(setTimeout(() => !socket.destroyed && socket.write(last), plan.cuts.length * plan.gapMs));
    }
  });
}

/** What is wrong with an outcome, by kind (undefined: nothing). */
export type Problem = '5xx' | 'non-envelope' | 'hang' | 'closed' | 'reset' | 'lost';

export function problemOf(r: HostileRequest, o: Outcome): { problem: Problem; why: string; } | undefined {
  if (o.kind === 'aborted') return undefined;
  if (o.kind === 'hang') return { problem: 'hang', why: `no answer within ${o.ms} ms: ${JSON.stringify(o.head)}` };
  if (o.kind === 'closed') return { problem: 'closed', why: `closed after ${o.ms} ms without a complete answer: ${JSON.stringify(o.head)}` };
  if (o.kind === 'reset') return { problem: 'reset', why: `${o.code} after ${o.ms} ms: ${JSON.stringify(o.head)}` };
  if (o.kind === 'lost') return { problem: 'lost', why: `${o.why} after ${o.ms} ms: ${JSON.stringify(o.head)}` };
  const own = answerProblem(r.method, o, sendsUnsupportedCoding(r));
  if (own || !o.followUp) return own;
  const then = answerProblem('GET', o.followUp);
  return then && { problem: then.problem, why: `the answer to what followed: ${then.why}` };
}

/**
 * Whether a request's body comes in a transfer coding besides chunked, which the server may answer
 * with 501 (RFC 9112 §6.1), the one 5xx that is no failure of the server.
 */
export function sendsUnsupportedCoding(r: HostileRequest): boolean {
  return r.headers.some(([k, v]) => k.toLowerCase() === 'transfer-encoding' && v.split(',').some((c) => !/^\s*(chunked)?\s*$/i.test(c)));
}

/** What is wrong with one complete answer to a request of `method`: a 5xx (501 where allowed), or an error outside the §7 full envelope. */
function answerProblem(method: string, o: Answer, mayAnswer501 = false): { problem: Problem; why: string; } | undefined {
  const text = o.body.toString('utf8');
  if (o.status >= 500 && !(o.status === 501 && mayAnswer501)) return { problem: '5xx', why: `answered ${o.status}: ${text.slice(0, 300)}` };
  if (o.status < 400 || method === 'HEAD') return undefined;
  const type = o.headers['content-type'] ?? '';
  if (!/^application\/json/.test(type)) return { problem: 'non-envelope', why: `${o.status} with content-type ${type}: ${text.slice(0, 200)}` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'non-envelope', why: `${o.status} body is not JSON: ${text.slice(0, 200)}` };
  }
  const errors = validate('error', json).errors;
  if (errors.length) {
    return {
      problem: 'non-envelope',
      why: `${o.status} is not the §7 envelope (${errors.map((e) => `${e.path} ${e.message}`).join('; ')}): ${text.slice(0, 200)}`,
    };
  }
  if (!Object.keys(json as object).every((k) => k === 'error' || k === 'detail')) {
    return { problem: 'non-envelope', why: `${o.status} envelope has other fields: ${text.slice(0, 200)}` };
  }
  return undefined;
}

/** Keeps the attachment an accepted upload created, for later downloads and deletes. */
export function remember(t: FuzzTargets, r: HostileRequest, o: Outcome, keep = 200): void {
  if (o.kind !== 'answered' || o.status !== 201 || r.method !== 'POST' || !r.target.startsWith(`${API}/attachments`)) return;
  try {
    const id = (JSON.parse(o.body.toString('utf8')) as { id?: unknown; }).id;
    if (typeof id === 'string') {
      t.attachments.push(id);
      if (t.attachments.length > keep) t.attachments.shift();
    }
  } catch {
    // not JSON: nothing to keep
  }
}

/**
 * `count` requests of the seed, sent `concurrency` at a time. They are generated in batches of
 * `batch`, each from a seed derived from the run's seed and the batch's place (so a batch can be
 * replayed alone), and each reading the targets as they are when it is drawn; `each` sees every
 * request and its outcome, and may stop the run ('stop': no request is sent after it).
 */
export async function runHostile(
  url: string,
  t: FuzzTargets,
  o: { seed: number; count: number; concurrency: number; batch?: number; boundMs: number; timing: FuzzTiming; },
  each: (r: HostileRequest, outcome: Outcome, index: number) => void | 'stop',
): Promise<void> {
  const arb = hostileRequests(t, o.timing);
  const batch = o.batch ?? 500;
  let drawn: HostileRequest[] = [];
  let next = 0;
  let stopped = false;
  const take = (): [HostileRequest, number] | undefined => {
    if (stopped || next >= o.count) return undefined;
    if (next % batch === 0) drawn = fc.sample(arb, { seed: (o.seed * 0x9e3779b1 + next) | 0, numRuns: Math.min(batch, o.count - next) });
    const i = next++;
    return [drawn[i % batch]!, i];
  };
  const worker = async () => {
    for (let item = take(); item; item = take()) {
      const [r, i] = item;
      const outcome = await exchange(url, r, o.boundMs);
      remember(t, r, outcome);
      if (each(r, outcome, i) === 'stop') stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, o.count)) }, worker));
}
