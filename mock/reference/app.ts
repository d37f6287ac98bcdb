// The reference server: the node:http layer checks the request (protocol.ts: parser errors,
// CONNECT, Expect, Host, timeouts, all in the envelope), then fastify routes it through the
// pipeline (pipeline.ts): authentication (onRequest) → route → path id → input checks →
// idempotency and handler → answer; one error handler maps every error to the envelope (§7).
// Whoever builds the server may answer some requests before the framework (`front`).
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AppContext, Timeouts } from './context.js';
import { BASE_PATH, JSON_BODY_LIMIT_BYTES, MAX_HEADER_BYTES, MAX_JSON_DEPTH } from './context.js';
import { ApiError, badRequest, errorBody, errorJson, internalFailure, NOT_FOUND_JSON, notFound } from './errors.js';
import { nestedDeeperThan } from './json-depth.js';
import type { ServedOpenApi } from './openapi.js';
import { servedOperations } from './openapi.js';
import {
  authenticate,
  deliver,
  errorAnswer,
  exchangeOf,
  JSON_TYPE,
  markMultipart,
  placeRoutes,
  register,
  type RouteHandler,
  type RoutesEdit,
  type RouteTable,
} from './pipeline.js';
import { clientErrorHandler, guardRequest, protocolListeners, serverOptions, StagedClose } from './protocol.js';
import { resourceRoutes } from './resources/index.js';

/** The served description (§9 "The machine-readable description"), at the chosen path. */
const openapiRoute = (openapi: ServedOpenApi): RouteHandler => ({
  operationId: 'getOpenApi',
  kind: 'read',
  handler: () => ({ status: 200, json: openapi.json }),
});

/** Every route of the mock, placed by the operation table, under the base path; then `edit`, if any. */
export function routeTable(openapi: ServedOpenApi, edit?: RoutesEdit): RouteTable {
  const handlers = [
    ...resourceRoutes(),
    openapiRoute(openapi),
  ];
  const table: RouteTable = { basePath: BASE_PATH, routes: placeRoutes(handlers, servedOperations()) };
  return edit ? edit(table) : table;
}

const FASTIFY_ERRORS: Record<string, (e: FastifyError) => ApiError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError(415, 'unsupported_media_type', 'Unsupported Content-Type', { 'content-type': 'expected application/json' }),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new ApiError(413, 'payload_too_large', `The JSON body exceeds ${JSON_BODY_LIMIT_BYTES} bytes`, { body: `at most ${JSON_BODY_LIMIT_BYTES} bytes` }),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ApiError(400, 'bad_request', 'The body is not valid JSON', { body: 'is not valid JSON' }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ApiError(400, 'bad_request', 'The JSON body is empty', { body: 'is empty' }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApiError(400, 'bad_request', 'Content-Length does not match the body', { body: 'length mismatch' }),
};

/** Any thrown value as an envelope error; 500 only for genuine bugs. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as FastifyError;
  const mapped = e && typeof e.code === 'string' ? FASTIFY_ERRORS[e.code] : undefined;
  if (mapped) return mapped(e);
  if (e instanceof SyntaxError) return FASTIFY_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY!(e);
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) return new ApiError(status, status === 413 ? 'payload_too_large' : 'bad_request', e.message || 'Bad request');
  return internalFailure(err);
}

/**
 * Reading request-noise=gateway: what a gateway and a timing middleware add to each error answer,
 * different every time (numbers of varying length, so the length of the body varies too).
 */
function gatewayNoise(ctx: AppContext): { header: string; took: number; } | undefined {
  if (ctx.readings.value('request-noise') !== 'gateway') return undefined;
  return { header: String(randomInt(1, 1_000_000)), took: randomInt(1, 1_000_000) };
}

/** An answer given before the framework: true when it answered the request. */
export type Front = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The node:http server under fastify: the request checks of protocol.ts first, then, when
 * given, the front, then the framework.
 */
function serverFactory(t: Timeouts, connections: StagedClose, front: Front | undefined): FastifyServerFactory {
  return (handler, options) => {
    const fastifyTimeouts = options as { keepAliveTimeout: number; connectionTimeout: number; };
    const server = createServer(serverOptions(t), (req, res) => {
      if (guardRequest(req, res, t, connections)) return;
      // Once closing, fastify answers with Connection: close; an answer in front would keep the connection.
      if (!(front && server.listening && front(req, res))) handler(req, res);
    });
    const listeners = protocolListeners(connections);
    server.on('connection', (socket: Socket) => connections.watch(socket));
    server.on('connect', listeners.connect);
    server.on('checkExpectation', listeners.checkExpectation);
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

export async function buildServer(ctx: AppContext, table: RouteTable, front?: Front): Promise<FastifyInstance> {
  const { routes, basePath } = table;
  const connections = new StagedClose();
  const app = Fastify({
    logger: false,
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // A path id of any length that fits in a request head reaches checkId (400 detail.id), like every malformed id.
    routerOptions: { maxParamLength: MAX_HEADER_BYTES, ignoreTrailingSlash: ctx.readings.value('trailing-slash-lists') === 'list' },
    forceCloseConnections: true,
    // A request met while closing is answered as usual (with Connection: close), not with
    // fastify's own 503 body outside the envelope.
    return503OnClosing: false,
    serverFactory: serverFactory(ctx.timeouts, connections, front),
    clientErrorHandler: clientErrorHandler(ctx.timeouts, connections),
    frameworkErrors: frameworkError,
  });
  // Connections closing in stages end with the server, not after their bounds.
  app.addHook('preClose', (done) => {
    connections.destroyAll();
    done();
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
  app.decorateRequest('exchange', null);
  // A multipart body is only recognised here, never read: an upload route reads it itself
  // (uploads.ts), and a JSON route still answers 415 after its path id check.
  app.addContentTypeParser('multipart/form-data', (req, _payload, done) => {
    markMultipart(req);
    done(null);
  });

  app.addHook('onRequest', (req, _reply, done) => {
    const ex = exchangeOf(req);
    if (!ex) return done(); // no route: the not-found handler answers
    try {
      ex.principal = authenticate(ctx, ex);
      done();
    } catch (err) {
      done(err as Error);
    }
  });

  app.setErrorHandler((err, req, reply) => {
    const api = toApiError(err);
    const noise = gatewayNoise(ctx);
    const answer = errorAnswer(ctx, req, api, (envelope) => {
      // Every missing id, and every other team's, answers exactly these bytes.
      if (envelope === 'full' && !noise && api.code === 'not_found' && api.message === 'Not found' && !api.detail) return NOT_FOUND_JSON;
      const body = errorBody(api, envelope);
      return JSON.stringify(noise ? { ...body, took_us: noise.took } : body);
    });
    if (noise) answer.headers['x-upstream-latency-us'] = noise.header;
    return deliver(ctx, exchangeOf(req), reply, answer);
  });

  app.setNotFoundHandler(() => {
    throw notFound();
  });

  for (const def of routes) register(app, ctx, def, basePath);
  return app;
}
