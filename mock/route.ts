// Declarative routes and the per-request pipeline around a handler:
// (auth ran in onRequest) → path id check → body check and schema validation →
// idempotency claim → handler → idempotency completion → response.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPathId, type SchemaName, validate } from '../specs/index.js';
import type { Endpoint } from '../specs/openapi/operations.js';
import type { Principal, Scope } from './auth.js';
import type { AppContext } from './context.js';
import { ApiError, badRequest, idempotencyKeyReused, notFound, unsupportedMediaType } from './errors.js';
import { canonicalJson, fingerprintOf } from './idempotency.js';
import { withIdempotency } from './idempotent.js';
import { withMutationFaults } from './mutation-faults.js';
import { deferredRefusal, deferRefusal, withRequest } from './refusal-faults.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type { Input, ReadInput, Result } from './exchange.js';
import type { Input, ReadInput, Result } from './exchange.js';

interface RouteBase {
  operationId: string;
  method: Method;
  /** Relative to the base path, with `{id}` for the path id. */
  path: string;
  scope: Scope;
  /** Errors use the short envelope when the mock serves the legacy shape (§7). */
  legacyErrors?: boolean;
}

/**
 * A GET answered from what is stored alone: no body, no change, no framework object. Without an
 * active fault it is answered before the framework when the request is plain (mock/direct-reads.ts).
 */
export interface ReadRoute extends RouteBase {
  kind: 'read';
  handler(ctx: AppContext, input: ReadInput): Result;
}

export interface PipelineRoute extends RouteBase {
  /** Request body schema (JSON endpoints). */
  body?: SchemaName;
  /** 'multipart' uploads and 'stream' downloads send their own responses. */
  kind?: 'json' | 'multipart' | 'stream';
  handler(ctx: AppContext, input: Input): Result | Promise<Result> | Promise<void>;
}

export type RouteDef = ReadRoute | PipelineRoute;

/** What a resource module declares per operation: everything but the method and path, which the
 *  operation table owns (specs/openapi/operations.ts and the mock's chosen paths, mock/openapi.ts). */
export type RouteHandler = Omit<ReadRoute, 'method' | 'path'> | Omit<PipelineRoute, 'method' | 'path'>;
export type RouteHandlers = RouteHandler[];

/** The handlers placed at their operations' method and path; an operation the table lacks is a bug. */
export function placeRoutes(handlers: readonly RouteHandler[], table: readonly Endpoint[]): RouteDef[] {
  return handlers.map((h) => {
    const e = table.find((x) => x.operationId === h.operationId);
    if (!e) throw new Error(`route ${h.operationId} has no operation in the table`);
    return { ...h, method: e.method.toUpperCase() as Method, path: e.path } as RouteDef;
  });
}

export interface RouteConfig {
  operationId: string;
  scope?: Scope;
  legacyErrors?: boolean;
  public?: boolean;
  template: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export function sendJson(reply: FastifyReply, r: Result, replayed = false): FastifyReply {
  // an applied-when-refused fault answers the refusal it kept, now that the request is applied
  const refusal = deferredRefusal(reply.request);
  if (refusal) throw refusal;
  reply.code(r.status);
  if (replayed) reply.header('idempotent-replayed', 'true');
  if (r.status === 204) return reply.send(); // reading file-delete=204: no body
  if (!reply.hasHeader('content-type')) reply.header('content-type', r.contentType ?? JSON_TYPE);
  return reply.send(r.json);
}

/** Body validation against a specs/ schema; errors become `detail` (field → message). */
function checkBody(name: SchemaName, body: Record<string, unknown>): void {
  const res = validate(name, body);
  if (res.valid) return;
  const detail: Record<string, string> = {};
  for (const e of res.errors) {
    const field = e.path.replace(/^\//, '').replace(/\//g, '.') || 'body';
    detail[field] ??= e.message;
  }
  throw badRequest('The request body is invalid', detail);
}

/** Set by the root multipart/form-data parser (JSON routes live outside @fastify/multipart's context). */
const MULTIPART_BODY = Symbol('multipart body');

export function markMultipart(req: FastifyRequest): void {
  (req as unknown as Record<symbol, boolean>)[MULTIPART_BODY] = true;
}

/**
 * The JSON object body of a mutating request (§4: "JSON object"). No body at all is an
 * empty object; `null`, an array or a scalar is 400 bad_request with detail.body.
 */
function jsonBody(req: FastifyRequest): Record<string, unknown> {
  if ((req as unknown as Record<symbol, boolean>)[MULTIPART_BODY] === true) throw unsupportedMediaType('application/json');
  const b = req.body;
  if (b === undefined) return {};
  if (b === null || typeof b !== 'object' || Array.isArray(b)) {
    const got = b === null ? 'null' : Array.isArray(b) ? 'an array' : `a ${typeof b}`;
    throw badRequest('The request body must be a JSON object', { body: `must be a JSON object, not ${got}` });
  }
  return b as Record<string, unknown>;
}

export function register(app: FastifyInstance, ctx: AppContext, def: RouteDef, basePath: string): void {
  const url = basePath + def.path.replace('{id}', ':id');
  const config: RouteConfig = { operationId: def.operationId, scope: def.scope, legacyErrors: def.legacyErrors, template: def.path };
  const mutating = def.method !== 'GET';
  app.route({
    method: def.method,
    url,
    config,
    handler: (req, reply) => withRequest(ctx, req, () => handle(req, reply)),
  });

  async function handle(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const params = req.params as { id?: string; };
    if (params.id !== undefined) params.id = checkId(ctx, params.id);
    const idemKey = mutating ? headerValue(req.headers['idempotency-key']) : undefined;
    if (idemKey !== undefined && idemKey.length > 255) throw badRequest('Invalid idempotency key', { 'idempotency-key': 'at most 255 characters' });
    if (idemKey !== undefined && ctx.faults.on('idem-header-rejected')) throw badRequest('Unexpected header', { 'idempotency-key': 'is not supported' });
    const input: Input = {
      principal: req.principal!,
      params,
      query: req.query as Record<string, unknown>,
      url: req.url,
      operationId: def.operationId,
      scope: def.scope,
      body: {},
      req,
      reply,
      idempotencyKey: idemKey,
    };
    if (def.kind === 'multipart' || def.kind === 'stream') {
      if (def.kind === 'multipart' && !req.isMultipart()) throw unsupportedMediaType('multipart/form-data');
      await def.handler(ctx, input);
      return reply;
    }
    if (mutating) {
      input.body = jsonBody(req);
      if (def.kind !== 'read' && def.body && !(ctx.faults.on('create-required-not-enforced') && def.method === 'POST')) {
        try {
          checkBody(def.body, input.body);
        } catch (err) {
          if (!(err instanceof ApiError) || !deferRefusal(ctx, req, 'invalid-body', err)) throw err;
        }
      }
    }
    const { result, replayed } = await withIdempotency(ctx, {
      operationId: def.operationId,
      team: req.principal!.team,
      key: idemKey,
      req,
      // The body is read already; its fingerprint is compared only under a key.
      read: async () => ({ fingerprint: idemKey === undefined ? '' : fingerprintOf(req.url.split('?')[0]!, canonicalJson(input.body)) }),
      reused: () => idempotencyKeyReused(Number(ctx.readings.value('idempotency-reused-status'))),
      run: () => withMutationFaults(ctx, def.operationId, input, async () => asResult(await def.handler(ctx, input))),
    });
    return sendJson(reply, result, replayed);
  }
}

function asResult(r: Result | void): Result {
  if (!r) throw new Error('a JSON route handler returned no result');
  return r;
}

export function headerValue(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}

/**
 * §4: a path id must match PATH_ID_PATTERN; otherwise 400 bad_request with detail.id (reading
 * malformed-id: 404 not_found). Returns the id the handler looks up: under reading
 * uuid-spellings=accept, another spelling of a canonical UUID is read as it.
 */
export function checkId(ctx: AppContext, id: string): string {
  const nilOrMax = /^(0{8}-0{4}-0{4}-0{4}-0{12}|f{8}-f{4}-f{4}-f{4}-f{12})$/i.test(id);
  if (nilOrMax && ctx.faults.on('nil-id-rejected')) throw badRequest('Invalid id', { id: 'must be a version 1-8 UUID' });
  if (isPathId(id) || ctx.faults.on('malformed-id-accepted')) return id;
  const canonical = ctx.readings.value('uuid-spellings') === 'accept' ? canonicalSpelling(id) : undefined;
  if (canonical !== undefined) return canonical;
  if (ctx.readings.value('malformed-id') === '404') throw notFound();
  throw badRequest('Invalid id', { id: 'must be a canonical UUID' });
}

/**
 * The canonical form of a spelling of the same UUID that Go's uuid.Parse, .NET's Guid.Parse or
 * Rust's uuid accept (no hyphens, braces, a urn:uuid: prefix, surrounding whitespace); a form
 * that changes the value (another version or variant, a character more or less) has none.
 */
function canonicalSpelling(id: string): string | undefined {
  let s = id.trim().toLowerCase();
  if (s.startsWith('urn:uuid:')) s = s.slice(9);
  else if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  if (/^[0-9a-f]{32}$/.test(s)) s = `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  return isPathId(s) ? s : undefined;
}

export { ApiError };
