// Request parsing and negotiation, and routing, authentication and isolation order: media types
// with parameters or in another case, Accept headers of every legal form, ids spelled in upper
// case within the document's pattern, search text decoded twice or with `+` kept, malformed bodies
// and 404s answered outside the envelope, upload bytes altered, a lower upload limit; a route that
// serves before authentication, a loader that answers before it, keys compared loosely, a scope
// not checked, a lookup by id alone, a reference to a record of another kind taken.
import type { Readable } from 'node:stream';
import { PassThrough } from 'node:stream';
import type { Principal } from '../../reference/auth.js';
import { ALL_SCOPES } from '../../reference/auth.js';
import { ApiError, notFound, payloadTooLarge, unsupportedMediaType } from '../../reference/errors.js';
import type { Exchange } from '../../reference/exchange.js';
import type { Answer } from '../../reference/hooks.js';
import { collectionOf } from '../records.js';
import { letThrough, TEAM_A } from '../refusals.js';
import type { HeaderElement, OperationElement, ParameterElement } from './elements.js';
import { mine, type Mode, mode } from './mode.js';

const notAcceptable = () => new ApiError(406, 'bad_request' as never, 'Not acceptable', { accept: 'must be application/json' });

/** A refusal from a negotiation that a route of `op` makes before its handler. */
const refuseWhen = (op: string, refuse: (ex: Exchange) => ApiError | undefined) => ({
  handle: (ex: Exchange, next: () => Promise<import('../../reference/exchange.js').Result>) => {
    const refusal = mine(op)(ex) ? refuse(ex) : undefined;
    if (refusal) throw refusal;
    return next();
  },
});

const header = (ex: Exchange, name: string): string | undefined => {
  const v = ex.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** A plain-text answer in place of an error envelope. */
const plain = (a: Answer, text: string): Answer => ({ status: a.status, contentType: 'text/plain; charset=utf-8', headers: a.headers, body: text });

/** A download's bytes through `edit`. */
function altered(stream: Readable, edit: (b: Buffer) => Buffer): Readable {
  const chunks: Buffer[] = [];
  const out = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => out.end(edit(Buffer.concat(chunks))));
  stream.on('error', (e) => out.destroy(e));
  return out;
}

const ACCEPT_MODES = [
  ['accept-exact-only', 'anything but exactly application/json', (a: string) => a !== 'application/json'],
  ['accept-wildcard-refused', 'a wildcard (*/* or application/*)', (a: string) => a.includes('*')],
  ['accept-parameters-refused', 'parameters or a quality value (application/json; q=0.9)', (a: string) => a.includes(';')],
  ['accept-list-refused', 'a list of media types', (a: string) => a.includes(',')],
] as const;

export const requestModes: Mode[] = [
  ...ACCEPT_MODES.map(([name, words, refused]) =>
    mode<'header'>({
      category: 'requests',
      mode: name,
      kind: 'header',
      applies: (h: HeaderElement) => h.header === 'accept',
      requirements: () => ['GEN-JSON-BODIES'],
      words: (h) => `${h.op.op} answers 406 to an Accept header with ${words}`,
      hooks: (h) =>
        refuseWhen(h.op.op, (ex) => {
          const a = header(ex, 'accept');
          return a !== undefined && refused(a) ? notAcceptable() : undefined;
        }),
    })
  ),
  mode<'header'>({
    category: 'requests',
    mode: 'media-type-parameters-refused',
    kind: 'header',
    applies: (h) => h.header === 'content-type',
    requirements: () => ['GEN-JSON-BODIES', 'VER-BREAKING-TIGHTENED-VALIDATION'],
    words: (h) => `${h.op.op} answers 415 to application/json with parameters (charset=utf-8)`,
    hooks: (h) => ({
      validate: (ex, next) => {
        if (mine(h.op.op)(ex) && (header(ex, 'content-type') ?? '').includes(';')) throw unsupportedMediaType('application/json');
        next();
      },
    }),
  }),
  mode<'header'>({
    category: 'requests',
    mode: 'media-type-case-sensitive',
    kind: 'header',
    applies: (h) => h.header === 'content-type',
    requirements: () => ['GEN-JSON-BODIES'],
    words: (h) => `${h.op.op} answers 415 to a media type spelled in another case (Application/JSON)`,
    hooks: (h) => ({
      validate: (ex, next) => {
        const t = header(ex, 'content-type') ?? '';
        if (mine(h.op.op)(ex) && t.split(';')[0] !== t.split(';')[0]!.toLowerCase()) throw unsupportedMediaType('application/json');
        next();
      },
    }),
  }),
  mode<'id'>({
    category: 'requests',
    mode: 'id-upper-case-not-found',
    kind: 'id',
    requirements: () => ['ID-PATH-PATTERN'],
    words: (i) => `${i.op.op} answers 404 to an id in upper case, which the pattern allows`,
    hooks: (i) => ({
      pathId: (ex, id, next) => {
        if (mine(i.op.op)(ex) && id !== id.toLowerCase()) throw notFound();
        return next();
      },
    }),
  }),
  mode<'id'>({
    category: 'requests',
    mode: 'not-found-outside-envelope',
    kind: 'id',
    requirements: () => ['ERR-NOT-FOUND', 'ERR-FULL-ENVELOPE'],
    words: (i) => `${i.op.op} answers a missing id with a plain-text 404`,
    hooks: (i) => ({ respond: (ex, a) => (mine(i.op.op)(ex) && a.status === 404 ? plain(a, 'Not Found') : a) }),
  }),
  mode<'route'>({
    category: 'requests',
    mode: 'malformed-body-outside-envelope',
    kind: 'route',
    applies: (r: OperationElement) => r.op.body !== undefined,
    requirements: () => ['ERR-FULL-ENVELOPE', 'ERR-DETAIL-MAP'],
    words: (r) => `${r.op.op} answers a body it cannot read with a plain-text 400`,
    hooks: (r) => ({
      respond: (ex, a) => (mine(r.op.op)(ex) && a.status === 400 && a.error?.api.detail && 'body' in a.error.api.detail ? plain(a, 'Bad Request') : a),
    }),
  }),
  mode<'parameter'>({
    category: 'requests',
    mode: 'query-decoded-twice',
    kind: 'parameter',
    applies: (p: ParameterElement) => p.parameter === 'q',
    requirements: () => ['LIST-Q'],
    words: (p) => `${p.op.op} percent-decodes ${p.parameter} a second time`,
    hooks: (p) => ({
      handle: (ex, next) => {
        const v = ex.query[p.parameter];
        if (mine(p.op.op)(ex) && typeof v === 'string') {
          try {
            ex.query = { ...ex.query, [p.parameter]: decodeURIComponent(v) };
          } catch {
            // not decodable a second time: as it was
          }
        }
        return next();
      },
    }),
  }),
  mode<'parameter'>({
    category: 'requests',
    mode: 'query-plus-kept',
    kind: 'parameter',
    applies: (p) => p.parameter === 'q',
    requirements: () => ['LIST-Q'],
    words: (p) => `${p.op.op} reads "+" in ${p.parameter} as a plus sign, not a space (a path decoder on a query)`,
    hooks: (p) => ({
      handle: (ex, next) => {
        const raw = new RegExp(`[?&]${p.parameter}=([^&]*)`).exec(ex.url)?.[1];
        if (mine(p.op.op)(ex) && raw?.includes('+')) {
          try {
            ex.query = { ...ex.query, [p.parameter]: decodeURIComponent(raw) };
          } catch {
            // as it was
          }
        }
        return next();
      },
    }),
  }),
  mode<'upload'>({
    category: 'requests',
    mode: 'upload-line-endings-normalized',
    kind: 'upload',
    applies: (u) => u.op.resource === 'attachments',
    requirements: () => ['UPLOAD-DOWNLOAD-BYTE-IDENTICAL'],
    words: (u) => `${u.op.op} stores CRLF line endings as LF (a text-mode write)`,
    hooks: () => ({ download: async (_ex, _e, next) => altered(await next(), (b) => Buffer.from(b.toString('latin1').replace(/\r\n/g, '\n'), 'latin1')) }),
  }),
  mode<'upload'>({
    category: 'requests',
    mode: 'upload-transcoded',
    kind: 'upload',
    applies: (u) => u.op.resource === 'attachments',
    requirements: () => ['UPLOAD-DOWNLOAD-BYTE-IDENTICAL'],
    words: (u) => `${u.op.op} stores the bytes read as Latin-1 and written as UTF-8`,
    hooks: () => ({ download: async (_ex, _e, next) => altered(await next(), (b) => Buffer.from(b.toString('latin1'), 'utf8')) }),
  }),
  mode<'upload'>({
    category: 'requests',
    mode: 'upload-last-byte-lost',
    kind: 'upload',
    applies: (u) => u.op.resource === 'attachments',
    requirements: () => ['UPLOAD-DOWNLOAD-BYTE-IDENTICAL'],
    words: (u) => `${u.op.op} stores the bytes without the last one (an off-by-one in a length)`,
    hooks: () => ({ download: async (_ex, _e, next) => altered(await next(), (b) => b.subarray(0, Math.max(0, b.length - 1))) }),
  }),
  mode<'upload'>({
    category: 'requests',
    mode: 'upload-limit-20-mib',
    kind: 'upload',
    requirements: () => ['UPLOAD-MAX-SIZE', 'LIMIT-UPLOAD-SIZE'],
    words: (u) => `${u.op.op} refuses files above 20 MiB (a proxy's body limit below the documented 25 MB)`,
    hooks: (u) => ({
      received: async (ex, upload) => {
        if (mine(u.op.op)(ex) && upload.file && upload.file.blob.size > 20 * 1024 * 1024) throw payloadTooLarge(20 * 1024 * 1024);
        return upload;
      },
    }),
  }),
];

/** The bearer token of a request, if well formed. */
const tokenOf = (ex: Exchange): string | undefined => /^Bearer +(\S+) *$/i.exec(header(ex, 'authorization') ?? '')?.[1];

/** An authenticate hook that, on a refused key, serves the principal of a key seen before that `near` matches. */
function loosely(op: string, near: (given: string, known: string) => boolean) {
  const seen = new Map<string, Principal>();
  return {
    authenticate: (ex: Exchange, next: () => Principal): Principal => {
      if (!mine(op)(ex)) return next();
      const token = tokenOf(ex);
      return letThrough(() => {
        const p = next();
        if (token) seen.set(token, p);
        return p;
      }, (err) => {
        const match = token === undefined ? undefined : [...seen].find(([k]) => k !== token && near(token, k));
        if (!match) throw err;
        return match[1];
      });
    },
  };
}

export const accessModes: Mode[] = [
  mode<'route'>({
    category: 'access',
    mode: 'served-before-authentication',
    kind: 'route',
    requirements: () => ['AUTH-BEARER-REQUIRED'],
    words: (r) => `${r.op.op} is registered before the authentication middleware: a request without a key is served as team A`,
    hooks: (r) => ({
      authenticate: (ex, next) => (mine(r.op.op)(ex) && header(ex, 'authorization') === undefined ? TEAM_A(ALL_SCOPES) : next()),
    }),
  }),
  mode<'id'>({
    category: 'access',
    mode: 'loader-before-authentication',
    kind: 'id',
    requirements: () => ['AUTH-BEARER-REQUIRED'],
    words: (i) => `${i.op.op} loads the record before authentication: a request without a valid key for a missing id gets 404`,
    hooks: (i, ctx) => ({
      authenticate: (ex, next) =>
        !mine(i.op.op)(ex) ? next() : letThrough(next, (err) => {
          const id = ex.params.id;
          if (err.status === 401 && id !== undefined && !collectionOf(ctx, i.op.op)?.find(id)) throw notFound();
          throw err;
        }),
    }),
  }),
  mode<'header'>({
    category: 'access',
    mode: 'key-compared-ignoring-case',
    kind: 'header',
    applies: (h) => h.header === 'authorization',
    requirements: () => ['AUTH-INVALID-KEY-NOT-SERVED'],
    words: (h) => `${h.op.op} compares API keys ignoring case (a case-insensitive collation)`,
    hooks: (h) => loosely(h.op.op, (given, known) => given.toLowerCase() === known.toLowerCase()),
  }),
  mode<'header'>({
    category: 'access',
    mode: 'key-compared-by-prefix',
    kind: 'header',
    applies: (h) => h.header === 'authorization',
    requirements: () => ['AUTH-INVALID-KEY-NOT-SERVED'],
    words: (h) => `${h.op.op} compares API keys by their first 16 characters (a key prefix index)`,
    hooks: (h) => loosely(h.op.op, (given, known) => given.length >= 16 && given.slice(0, 16) === known.slice(0, 16)),
  }),
  mode<'header'>({
    category: 'access',
    mode: 'bearer-scheme-case-sensitive',
    kind: 'header',
    applies: (h) => h.header === 'authorization',
    requirements: () => ['AUTH-BEARER-HEADER'],
    words: (h) => `${h.op.op} refuses the scheme spelled "bearer" (auth schemes are case-insensitive)`,
    hooks: (h, ctx) => ({
      authenticate: (ex, next) => {
        if (mine(h.op.op)(ex) && /^bearer /i.test(header(ex, 'authorization') ?? '') && !/^Bearer /.test(header(ex, 'authorization') ?? '')) {
          return ctx.auth.authenticate(undefined, ex.scope);
        }
        return next();
      },
    }),
  }),
  mode<'route'>({
    category: 'access',
    mode: 'scope-checked-under-wrong-name',
    kind: 'route',
    applies: (r) => r.op.method !== 'get',
    requirements: () => ['AUTH-READ-ONLY-KEY-NO-WRITE'],
    words: (r) => `${r.op.op} checks the read scope of its resource instead of the write scope`,
    hooks: (r) => ({
      authenticate: (ex, next) => {
        if (mine(r.op.op)(ex) && ex.scope?.endsWith(':write')) ex.scope = ex.scope.replace(/:write$/, ':read') as Exchange['scope'];
        return next();
      },
    }),
  }),
  mode<'id'>({
    category: 'access',
    mode: 'lookup-by-id-alone',
    kind: 'id',
    requirements: (i) =>
      i.op.method === 'get' ? ['ISO-GET-OTHER-TEAM-404', 'ISO-OTHER-TEAM-AS-MISSING'] : ['ISO-MUTATE-OTHER-TEAM-NO-EFFECT', 'ISO-OTHER-TEAM-AS-MISSING'],
    words: (i) => `${i.op.op} finds the record by its id alone, whichever team holds it`,
    hooks: (i) => ({
      lookup: (ex, find, next) =>
        !mine(i.op.op)(ex) || find.access === 'reference' ? next() : letThrough(next, (err) => {
          const other = find.collection.find(find.id);
          if (!other) throw err;
          return other;
        }),
    }),
  }),
  mode<'field'>({
    category: 'access',
    mode: 'reference-of-another-kind-taken',
    kind: 'field',
    applies: (f) => (f.field.references?.length ?? 0) > 0 && !f.field.path.includes('.') && !f.field.path.includes('['),
    requirements: () => ['ISO-REFERENCE-OTHER-TEAM-AS-MISSING'],
    words: (f) => `${f.op.op} takes in ${f.field.name} the id of any record of the team, of whatever kind (no foreign key)`,
    hooks: (f, ctx) => ({
      lookup: (ex, find, next) =>
        !mine(f.op.op)(ex) || find.access !== 'reference' || find.field !== f.field.name ? next() : letThrough(next, (err) => {
          for (const col of Object.values(ctx.store.collections)) {
            const e = col.get(ex.principal.team, find.id);
            if (e) return e;
          }
          throw err;
        }),
    }),
  }),
];
