// Composes the mock: auth (onRequest) → route → input checks and validation →
// handler → (faults) → response; one error handler maps every error to the envelope.
// Before all of it, the node:http layer checks the request (mock/protocol.ts: parser
// errors, CONNECT, Expect, Host, timeouts, all in the envelope), and a plain GET of a read
// route may be answered by its handler before the framework (mock/direct-reads.ts).
import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:http';
import type { AppContext, Timeouts } from './context.js';
import { JSON_BODY_LIMIT_BYTES, MAX_HEADER_BYTES, MAX_JSON_DEPTH } from './context.js';
import { operationHeaders } from './deprecation.js';
import { DirectReads } from './direct-reads.js';
import { ApiError, badRequest, errorBody, errorJson, NOT_FOUND_JSON, notFound } from './errors.js';
import { nestedDeeperThan } from './json-depth.js';
import type { ServedOpenApi } from './openapi.js';
import { CHOSEN_PATHS, servedOperations } from './openapi.js';
import { clientErrorHandler, guardRequest, protocolListeners, serverOptions } from './protocol.js';
import { liftAuthRefusal, refusalFaultActive } from './refusal-faults.js';
import { JSON_TYPE, markMultipart, placeRoutes, register, type RouteConfig, type RouteDef } from './route.js';
import { attachmentRoutes, fileRoutes } from './routes/files.js';
import { intakeRoutes } from './routes/intake.js';
import { organizationRoutes } from './routes/organizations.js';
import { assignmentRoutes, cvRoutes, employeeRoutes } from './routes/people.js';
import { projectRoutes } from './routes/projects.js';

/** Every route of the mock under the active faults (some faults remove or move routes), placed by the operation table. */
export function routeTable(ctx: AppContext): RouteDef[] {
  const f = ctx.faults;
  const routes = placeRoutes(
    [
      ...projectRoutes,
      ...assignmentRoutes,
      ...employeeRoutes,
      ...organizationRoutes.filter((r) => !(f.on('org-create-missing') && r.operationId === 'createOrganization')),
      ...cvRoutes,
      ...(f.on('attachments-missing') ? [] : attachmentRoutes),
      ...fileRoutes,
      ...(f.on('capture-rejected') ? [] : intakeRoutes),
    ],
    servedOperations(),
  );
  if (!f.on('files-at-documents')) return routes;
  return routes.map((r) => (r.path.startsWith('/files') ? { ...r, path: r.path.replace('/files', '/documents') } : r));
}

const FASTIFY_ERRORS: Record<string, (e: FastifyError) => ApiError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError(415, 'unsupported_media_type', 'Unsupported Content-Type', { 'content-type': 'expected application/json' }),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new ApiError(413, 'payload_too_large', `The JSON body exceeds ${JSON_BODY_LIMIT_BYTES} bytes`, { body: `at most ${JSON_BODY_LIMIT_BYTES} bytes` }),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ApiError(400, 'bad_request', 'The body is not valid JSON', { body: 'is not valid JSON' }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ApiError(400, 'bad_request', 'The JSON body is empty', { body: 'is empty' }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApiError(400, 'bad_request', 'Content-Length does not match the body', { body: 'length mismatch' }),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () =>
    new ApiError(415, 'unsupported_media_type', 'Content-Type must be multipart/form-data', { 'content-type': 'expected multipart/form-data' }),
};

const isJsonSyntaxError = (e: FastifyError) =>
  e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e instanceof SyntaxError || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY';

/** Any thrown value as an envelope error; 500 only for genuine bugs. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as FastifyError;
  const mapped = e && typeof e.code === 'string' ? FASTIFY_ERRORS[e.code] : undefined;
  if (mapped) return mapped(e);
  if (e instanceof SyntaxError) return FASTIFY_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY!(e);
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) return new ApiError(status, status === 413 ? 'payload_too_large' : 'bad_request', e.message || 'Bad request');
  return new ApiError(500, 'internal_error', 'Internal error');
}

/**
 * Reading request-noise=gateway: what a gateway and a timing middleware add to each error answer,
 * different every time (numbers of varying length, so the length of the body varies too).
 */
function gatewayNoise(ctx: AppContext): { header: string; took: number; } | undefined {
  if (ctx.readings.value('request-noise') !== 'gateway') return undefined;
  return { header: String(randomInt(1, 1_000_000)), took: randomInt(1, 1_000_000) };
}

/** The error body under the active faults. */
function faultedErrorBody(ctx: AppContext, api: ApiError, short: boolean): Record<string, unknown> {
  const f = ctx.faults;
  const body = errorBody(api, short ? 'short' : 'full');
  const error = body.error as Record<string, unknown>;
  if (f.on('wrong-error-code') && error.code === 'not_found') error.code = 'missing';
  if (f.on('plan-limit-fields-missing')) { for (const k of ['feature', 'plan', 'current', 'limit']) delete error[k]; }
  if (f.on('short-envelope-broken') && short) delete error.code;
  if (f.on('detail-not-strings') && body.detail) body.detail = Object.fromEntries(Object.entries(body.detail).map(([k, v]) => [k, { message: v }]));
  if (f.on('error-envelope-broken')) return { message: error.message, status: api.status };
  return body;
}

/**
 * The node:http server under fastify: the request checks of mock/protocol.ts first, then,
 * when given, the direct reads, then the framework.
 */
function serverFactory(t: Timeouts, direct: DirectReads | undefined): FastifyServerFactory {
  return (handler, options) => {
    const fastifyTimeouts = options as { keepAliveTimeout: number; connectionTimeout: number; };
    const server = createServer(serverOptions(t), (req, res) => {
      if (guardRequest(req, res, t)) return;
      // Once closing, fastify answers with Connection: close; a direct answer would keep the connection.
      if (!(direct && server.listening && direct.answer(req, res))) handler(req, res);
    });
    server.on('connect', protocolListeners.connect);
    server.on('checkExpectation', protocolListeners.checkExpectation);
    server.keepAliveTimeout = fastifyTimeouts.keepAliveTimeout;
    server.setTimeout(fastifyTimeouts.connectionTimeout);
    return server;
  };
}

/** fastify's own errors before routing (a malformed percent-encoding, an over-long path parameter) in the envelope. */
function frameworkError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const api = err.code === 'FST_ERR_BAD_URL'
    ? badRequest('The request path is malformed', { path: 'holds a malformed percent-encoding' })
    : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? badRequest('Invalid id', { id: 'must be a canonical UUID' })
    : toApiError(err);
  reply.code(api.status).header('content-type', JSON_TYPE).send(errorJson(api));
}

/** JSON text nested deeper than MAX_JSON_DEPTH is refused before it is parsed. */
const tooDeep = () => badRequest('The JSON body is nested too deeply', { body: `nested deeper than ${MAX_JSON_DEPTH} levels` });

export async function buildServer(ctx: AppContext, openapi: ServedOpenApi, directReads: boolean): Promise<FastifyInstance> {
  const routes = routeTable(ctx);
  const app = Fastify({
    logger: false,
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // A path id of any length that fits in a request head reaches checkId (400 detail.id), like every malformed id.
    routerOptions: { maxParamLength: MAX_HEADER_BYTES, ignoreTrailingSlash: ctx.readings.value('trailing-slash-lists') === 'list' },
    forceCloseConnections: true,
    // A request met while closing is answered as usual (with Connection: close), not with
    // fastify's own 503 body outside the envelope.
    return503OnClosing: false,
    // Faults act inside the pipeline (hooks, error handler, views): under one, everything goes through it.
    serverFactory: serverFactory(ctx.timeouts, directReads && ctx.faults.active === undefined ? new DirectReads(ctx, routes) : undefined),
    clientErrorHandler: clientErrorHandler(ctx.timeouts),
    frameworkErrors: frameworkError,
  });
  app.removeContentTypeParser(['text/plain', 'application/json']);
  // JSON (and +json) bodies; an empty body is no body (a bodyless DELETE/PATCH with a JSON
  // content-type is not an error), everything else through fastify's safe parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const jsonParser = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) return done(tooDeep());
    parseJson(req, text, done);
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonParser);
  app.addContentTypeParser(/^application\/[a-z0-9.-]+\+json(;|$)/i, { parseAs: 'string' }, jsonParser);
  app.decorateRequest('principal', null);
  // Outside the upload routes a multipart body is only recognised, never read (as
  // @fastify/multipart's own parser does), so a JSON route still answers 415 after
  // its path id check.
  app.addContentTypeParser('multipart/form-data', (req, _payload, done) => {
    markMultipart(req);
    done(null);
  });

  app.addHook('onRequest', (req, _reply, done) => {
    const cfg = req.routeOptions.config as Partial<RouteConfig> | undefined;
    try {
      req.principal = ctx.auth.authenticate(req.headers.authorization, cfg?.scope, cfg?.operationId);
      done();
    } catch (err) {
      const lifted = refusalFaultActive(ctx) && err instanceof ApiError ? liftAuthRefusal(ctx, req, err) : undefined;
      if (lifted) req.principal = lifted;
      done(lifted ? undefined : (err as Error));
    }
  });

  if (ctx.deprecated.size > 0 || ctx.faults.on('deprecation-everywhere')) {
    app.addHook('onSend', (req, reply, payload, done) => {
      const op = (req.routeOptions.config as Partial<RouteConfig> | undefined)?.operationId;
      if (ctx.faults.on('deprecation-missing-with-query') && req.url.includes('?')) return done(null, payload);
      for (const [k, v] of operationHeaders(ctx, op)) reply.header(k, v);
      done(null, payload);
    });
  }

  app.setErrorHandler((err, req, reply) => {
    const cfg = req.routeOptions?.config as Partial<RouteConfig> | undefined;
    if (ctx.faults.on('json-5xx') && isJsonSyntaxError(err as FastifyError)) {
      return reply.code(500).header('content-type', 'text/plain; charset=utf-8').send('Internal Server Error');
    }
    const api = toApiError(err);
    // Plan-limit errors keep the full envelope: their fields (feature, plan, ...) are the point.
    const short = ctx.shape === 'legacy' && cfg?.legacyErrors === true && !api.extra;
    reply.code(api.status).header('content-type', JSON_TYPE);
    if (api.status === 401) reply.header('www-authenticate', 'Bearer');
    const noise = gatewayNoise(ctx);
    if (noise) reply.header('x-upstream-latency-us', noise.header);
    if (api.code === 'not_found' && !api.detail && !short && !ctx.faults.active && !noise) return reply.send(NOT_FOUND_JSON);
    const body = faultedErrorBody(ctx, api, short);
    return reply.send(JSON.stringify(noise ? { ...body, took_us: noise.took } : body));
  });

  app.setNotFoundHandler(() => {
    throw notFound();
  });

  for (const def of routes) if (def.kind !== 'multipart') register(app, ctx, def, ctx.basePath);
  // @fastify/multipart adds an async onRequest and onResponse hook to every request of
  // its context; registered here, in the uploads' own context, they run only for
  // uploads (on the list hot path: about 15% less CPU per request, measured A/B).
  // Registered after the hooks and handlers above, so the context inherits them.
  await app.register(async (uploads) => {
    uploads.removeContentTypeParser('multipart/form-data');
    await uploads.register(multipart, { throwFileSizeLimit: false });
    for (const def of routes) if (def.kind === 'multipart') register(uploads, ctx, def, ctx.basePath);
  });

  const openapiConfig: RouteConfig = { operationId: 'getOpenApi', template: CHOSEN_PATHS.openapi };
  app.get(`${ctx.basePath}${CHOSEN_PATHS.openapi}`, { config: openapiConfig }, (_req, reply) => reply.header('content-type', JSON_TYPE).send(openapi.json));
  return app;
}
