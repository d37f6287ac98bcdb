// The stages every request passes, in order: authentication (app.ts, onRequest) → route (the
// operation table places each handler at its method and path) → path id → input checks (the JSON
// body against its specs/ schema, a list's query filters against the served description) →
// idempotency and handler → answer. Each stage a hook may change (hooks.ts) is called through it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPathId, type SchemaName, validate } from '../../specs/index.js';
import type { Endpoint } from '../../specs/openapi/operations.js';
import { Authenticator, type Principal, type Scope } from './auth.js';
import type { AppContext } from './context.js';
import { unreadableDates } from './dates.js';
import { operationHeaders } from './deprecation.js';
import { type ApiError, badRequest, idempotencyKeyReused, notFound, unsupportedMediaType } from './errors.js';
import type { Exchange, Input, Result } from './exchange.js';
import type { Answer } from './hooks.js';
import { canonicalJson } from './idempotency-store.js';
import { withIdempotency } from './idempotency.js';
import { isFormData } from './multipart.js';
import { keptText } from './nulls.js';
import { endWhenIdle } from './protocol.js';
import { type QueryRule, queryRules } from './query-rules.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type { Exchange, Input, Result };

interface RouteBase {
  operationId: string;
  method: Method;
  /** Relative to the base path, with `{id}` for the path id. */
  path: string;
  /** The scope a key needs; none: any valid key. */
  scope?: Scope;
  /** Errors use the short envelope when the mock serves the legacy shape (§7). */
  legacyErrors?: boolean;
  /** What its query parameters beyond the list parameters accept (from the operation table). */
  query?: readonly QueryRule[];
}

/**
 * A GET answered from what is stored alone: no body, no change, no framework object, so the same
 * handler can answer before the framework too.
 */
export interface ReadRoute extends RouteBase {
  kind: 'read';
  handler(ctx: AppContext, ex: Exchange): Result;
}

export interface PipelineRoute extends RouteBase {
  /** Request body schema (JSON endpoints). */
  body?: SchemaName;
  /** 'multipart' uploads read their own body; a 'stream' answers bytes (Result.stream). */
  kind?: 'json' | 'multipart' | 'stream';
  handler(ctx: AppContext, input: Input): Result | Promise<Result>;
}

export type RouteDef = ReadRoute | PipelineRoute;

/** The served routes, each at its path under the base path. */
export interface RouteTable {
  basePath: string;
  routes: RouteDef[];
}

/** An edit of the served routes, made once at start (which operations exist, at which path, under which base path). */
export type RoutesEdit = (table: RouteTable) => RouteTable;

/** What a resource module declares per operation: everything but the method and path, which the
 *  operation table owns (specs/openapi/operations.ts and the mock's chosen paths, openapi.ts). */
export type RouteHandler = Omit<ReadRoute, 'method' | 'path'> | Omit<PipelineRoute, 'method' | 'path'>;

/** The handlers placed at their operations' method and path; an operation the table lacks is a bug. */
export function placeRoutes(handlers: readonly RouteHandler[], table: readonly Endpoint[]): RouteDef[] {
  return handlers.map((h) => {
    const e = table.find((x) => x.operationId === h.operationId);
    if (!e) throw new Error(`route ${h.operationId} has no operation in the table`);
    return { ...h, method: e.method.toUpperCase() as Method, path: e.path, query: queryRules(e) } as RouteDef;
  });
}

export interface RouteConfig {
  operationId: string;
  scope?: Scope;
  legacyErrors?: boolean;
  template: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    exchange: Exchange | null;
  }
}

export const JSON_TYPE = 'application/json; charset=utf-8';

const configOf = (req: FastifyRequest) => req.routeOptions?.config as Partial<RouteConfig> | undefined;

/** The request as the stages see it, made once per request (at authentication); undefined before a route is matched. */
export function exchangeOf(req: FastifyRequest): Exchange | undefined {
  if (req.exchange) return req.exchange;
  const cfg = configOf(req);
  if (cfg?.operationId === undefined) return undefined;
  req.exchange = {
    operationId: cfg.operationId,
    method: req.method,
    url: req.url,
    headers: req.headers,
    principal: Authenticator.NOBODY,
    scope: cfg.scope,
    params: (req.params ?? {}) as Exchange['params'],
    query: (req.query ?? {}) as Record<string, unknown>,
    body: {},
  };
  return req.exchange;
}

/** Authentication (§5): the principal of the request's key, or the refusal thrown. */
export function authenticate(ctx: AppContext, ex: Exchange): Principal {
  const next = () => ctx.auth.authenticate(ex.headers.authorization, ex.scope);
  return ctx.hooks.authenticate ? ctx.hooks.authenticate(ex, next) : next();
}

/** The checks of a request's input, through the validate hook. */
export function checkInput(ctx: AppContext, ex: Exchange, check: () => void): void {
  if (ctx.hooks.validate) ctx.hooks.validate(ex, check);
  else check();
}

/** The headers every answer of an operation carries (§9 deprecation signalling). */
function operationHeaderMap(ctx: AppContext, operationId: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of operationHeaders(ctx, operationId)) out[k] = v;
  return out;
}

/**
 * Sends an answer, after the respond hook; a streamed body follows the headers. A stream not sent
 * (the hook threw, the request was answered or its connection closed meanwhile) is destroyed, so
 * what it holds (a file handle) is released; one that is sent ends with its answer, or when its
 * client stops reading for the download idle timeout.
 */
export function deliver(ctx: AppContext, ex: Exchange | undefined, reply: FastifyReply, answer: Answer, stream?: Result['stream']): FastifyReply {
  let a: Answer;
  try {
    a = ctx.hooks.respond ? ctx.hooks.respond(ex, answer) : answer;
  } catch (err) {
    stream?.destroy();
    throw err;
  }
  // Answered already (a timeout), or nobody left to answer: a stream would never be read.
  if (stream && (reply.sent || reply.raw.destroyed)) {
    stream.destroy();
    return reply;
  }
  reply.code(a.status);
  for (const [k, v] of Object.entries(a.headers)) reply.header(k, v);
  if (stream) {
    endWhenIdle(reply.raw, ctx.timeouts.downloadIdleMs);
    return reply.header('content-type', a.contentType).send(stream);
  }
  if (a.status === 204) return reply.send(); // reading file-delete=204: no body
  return reply.header('content-type', a.contentType).send(a.body);
}

/** A handler's result as the answer to send. */
export function answerOf(ctx: AppContext, ex: Exchange, r: Result): Answer {
  const headers = { ...operationHeaderMap(ctx, ex.operationId), ...r.headers };
  if (r.replayed) headers['idempotent-replayed'] = 'true';
  return { status: r.status, contentType: r.contentType ?? JSON_TYPE, headers, body: r.stream ? undefined : r.json };
}

/** An error as the answer to send, in the full envelope or, where the legacy shape uses it, the short one (§7). */
export function errorAnswer(ctx: AppContext, req: FastifyRequest, api: ApiError, body: (envelope: 'full' | 'short') => string): Answer {
  const cfg = configOf(req);
  // Plan-limit errors keep the full envelope: their fields (feature, plan, ...) are the point.
  const envelope = ctx.shape === 'legacy' && cfg?.legacyErrors === true && !api.extra ? 'short' : 'full';
  const headers = operationHeaderMap(ctx, cfg?.operationId);
  if (api.status === 401) headers['www-authenticate'] = 'Bearer';
  // Out of descriptors or memory for now (errors.ts internalFailure): worth a retry soon.
  if (api.status === 503) headers['retry-after'] = '1';
  return { status: api.status, contentType: JSON_TYPE, headers, body: body(envelope), error: { api, envelope } };
}

/** Body validation against a specs/ schema; errors become `detail` (field → message). */
export function checkBody(name: SchemaName, body: Record<string, unknown>): void {
  const res = validate(name, body);
  const dates = unreadableDates(name, body);
  if (res.valid && Object.keys(dates).length === 0) return;
  const detail: Record<string, string> = { ...dates };
  for (const e of res.errors) {
    const field = e.path.replace(/^\//, '').replace(/\//g, '.') || 'body';
    detail[field] ??= e.message;
  }
  throw badRequest('The request body is invalid', detail);
}

/** Set by the multipart/form-data parser, which reads nothing (an upload reads its own body). */
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

/** A read route's answer: its query checked, then its handler (inside the framework and before it alike). */
export function answerRead(ctx: AppContext, route: ReadRoute, ex: Exchange): Result {
  const rules = route.query;
  if (rules?.length) checkInput(ctx, ex, () => checkQuery(rules, ex.query));
  return route.handler(ctx, ex);
}

export function register(app: FastifyInstance, ctx: AppContext, def: RouteDef, basePath: string): void {
  const url = basePath + def.path.replace('{id}', ':id');
  const config: RouteConfig = { operationId: def.operationId, scope: def.scope, legacyErrors: def.legacyErrors, template: def.path };
  const mutating = def.method !== 'GET';
  app.route({ method: def.method, url, config, handler: (req, reply) => handle(req, reply) });

  async function handle(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const ex = exchangeOf(req)!;
    if (ex.params.id !== undefined) ex.params.id = pathId(ctx, ex, ex.params.id);
    ex.idempotencyKey = mutating ? idempotencyKeyOf(ctx, req.headers['idempotency-key']) : undefined;
    const input: Input = Object.assign(ex, { req, reply });
    if (def.kind === 'multipart' && !isFormData(req.headers['content-type'])) throw unsupportedMediaType('multipart/form-data');
    if (mutating && def.kind !== 'multipart') {
      ex.body = keptText(ctx, jsonBody(req));
      const schema = def.kind !== 'read' ? def.body : undefined;
      if (schema) {
        // every field as its schema types it: null only where §2 types the field nullable
        checkInput(ctx, ex, () => checkBody(schema, ex.body));
      }
    }
    const work = (): Promise<Result> => {
      if (def.kind === 'read') return Promise.resolve(answerRead(ctx, def, ex));
      if (!mutating || def.kind === 'multipart') return Promise.resolve(def.handler(ctx, input));
      return withIdempotency(ctx, {
        ex,
        // The body is read already.
        read: async () => ({ fingerprint: [req.url.split('?')[0]!, canonicalJson(ex.body)] }),
        reused: () => idempotencyKeyReused(Number(ctx.readings.value('idempotency-reused-status'))),
        run: async () => def.handler(ctx, input),
      });
    };
    const result = ctx.hooks.handle ? await ctx.hooks.handle(ex, work) : await work();
    return deliver(ctx, ex, reply, answerOf(ctx, ex, result), result.stream);
  }
}

/** A list's query filters, checked against the served description's parameters (required, UUID, enumerated values). */
export function checkQuery(rules: readonly QueryRule[], query: Record<string, unknown>): void {
  const detail: Record<string, string> = {};
  for (const rule of rules) {
    const v = query[rule.name];
    if (v === undefined || v === '') {
      if (rule.required) detail[rule.name] = 'required';
    } else if (typeof v !== 'string') {
      detail[rule.name] = 'must be given at most once';
    } else if (rule.uuid && !UUID.test(v)) {
      detail[rule.name] = 'must be a UUID';
    } else if (rule.values && !rule.values.includes(v)) {
      detail[rule.name] = `must be one of ${rule.values.join(', ')}`;
    }
  }
  if (Object.keys(detail).length) throw badRequest('Invalid query parameters', detail);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The idempotency key of a request, if any. An empty one is a reading (empty-idempotency-key): §4
 * gives the key as "an optional header idempotency-key (string)" with no form or length, so the
 * mock reads "" as no key by default (it cannot tell one request from another: the request runs
 * as one without), and refuses it as a malformed key under the other reading. Two keys are
 * refused before this (protocol.ts): which one would count is unclear.
 */
export function idempotencyKeyOf(ctx: AppContext, v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (s === '' && ctx.readings.value('empty-idempotency-key') === 'refuse') {
    throw badRequest('Invalid idempotency key', { 'idempotency-key': 'may not be empty' });
  }
  if (s !== undefined && s.length > 255) throw badRequest('Invalid idempotency key', { 'idempotency-key': 'at most 255 characters' });
  return s === undefined || s === '' ? undefined : s;
}

/** The path id check, through the pathId hook. */
function pathId(ctx: AppContext, ex: Exchange, id: string): string {
  const next = () => checkId(ctx, id);
  return ctx.hooks.pathId ? ctx.hooks.pathId(ex, id, next) : next();
}

/**
 * §4: a path id must match PATH_ID_PATTERN; otherwise 400 bad_request with detail.id (reading
 * malformed-id: 404 not_found). Returns the id the handler looks up: under reading
 * uuid-spellings=accept, another spelling of a canonical UUID is read as it.
 */
export function checkId(ctx: AppContext, id: string): string {
  if (isPathId(id)) return id;
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
