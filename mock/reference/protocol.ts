// The node:http layer under fastify. Errors found before a request reaches the framework
// (the HTTP parser, CONNECT, Expect, a missing Host, a head or body that stops arriving)
// are answered in the §7 full envelope with a stable code where the socket still allows
// an answer, and the connection is closed.
import { type IncomingMessage, type ServerOptions, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { HEADERS_TIMEOUT_MS, MAX_HEADER_BYTES, type Timeouts } from './context.js';
import { ApiError, badRequest, errorJson, expectationFailed, headerTooLarge, methodNotAllowed, requestTimeout } from './errors.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The methods the mock serves, for the Allow header of a 405. */
const SERVED_METHODS = 'GET, HEAD, POST, PATCH, DELETE';

/** Options of the node:http server: explicit head limit and the request timeouts (Node checks them once a second). */
export function serverOptions(t: Timeouts): ServerOptions {
  return {
    maxHeaderSize: MAX_HEADER_BYTES,
    requestTimeout: t.requestMs,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, t.requestMs),
    connectionsCheckingInterval: Math.min(1_000, t.requestMs),
    // Checked in guardRequest instead, so the 400 is in the envelope.
    requireHostHeader: false,
  };
}

/** Parser error codes (llhttp's HPE_*) and what each answers; anything else is a malformed request. */
const PARSER_ERRORS = {
  HPE_INVALID_METHOD: ['method', 'is not an HTTP method this server knows'],
  HPE_INVALID_URL: ['url', 'is not a valid request target'],
  HPE_INVALID_VERSION: ['version', 'must be HTTP/1.0 or HTTP/1.1'],
  HPE_INVALID_HEADER_TOKEN: ['headers', 'a header name or value holds a character it may not'],
  HPE_INVALID_CONTENT_LENGTH: ['content-length', 'is not a valid length'],
  HPE_UNEXPECTED_CONTENT_LENGTH: ['content-length', 'may not be sent with Transfer-Encoding'],
  HPE_INVALID_TRANSFER_ENCODING: ['transfer-encoding', 'is not valid'],
  HPE_INVALID_CHUNK_SIZE: ['body', 'malformed chunked encoding'],
} as const satisfies Record<string, readonly [string, string]>;

/** The envelope error for an error Node's HTTP server reports on a connection. */
export function clientErrorOf(err: Error & { code?: string; }, t: Timeouts): ApiError {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return requestTimeout('request', t.requestMs);
  if (err.code === 'HPE_HEADER_OVERFLOW') return headerTooLarge(MAX_HEADER_BYTES);
  const known = err.code !== undefined && err.code in PARSER_ERRORS ? PARSER_ERRORS[err.code as keyof typeof PARSER_ERRORS] : undefined;
  if (known) return badRequest('The HTTP request is malformed', { [known[0]]: known[1] });
  return badRequest('The HTTP request is malformed', { request: `not a valid HTTP/1.1 request${err.code ? ` (${err.code})` : ''}` });
}

/** Writes an error response straight to a socket and closes it once written. */
export function writeRawError(socket: Socket, api: ApiError, headers: Record<string, string> = {}, then: () => void = () => socket.destroy()): void {
  const body = errorJson(api);
  const lines = [
    `HTTP/1.1 ${api.status} ${STATUS_CODES[api.status] ?? 'Error'}`,
    `content-type: ${JSON_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`, then);
}

/**
 * Ends a request whose body will not arrive: its body stream fails, so whoever reads it
 * cleans up (a finished response alone detaches the request from its connection, and
 * the reader would wait forever), and the connection closes.
 */
function abandon(req: IncomingMessage | undefined, socket: Socket | null | undefined, api: ApiError): void {
  if (req && !req.complete) req.destroy(Object.assign(new Error(api.message), { code: api.code }));
  socket?.destroy();
}

/** Sends an error through a response not yet started, then closes the connection. */
function sendError(res: ServerResponse, api: ApiError): void {
  const body = errorJson(api);
  res.writeHead(api.status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body, () => abandon(res.req, res.socket, api));
}

/** fastify's clientErrorHandler: the parser's errors and the request timeout, in the envelope. */
export function clientErrorHandler(t: Timeouts): (err: Error & { code?: string; }, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // Node's own rule: answer only where no response to this connection has started.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse; })._httpMessage;
    const api = clientErrorOf(err, t);
    if (socket.writable && !inFlight?.headersSent) writeRawError(socket, api, {}, () => abandon(inFlight?.req, socket, api));
    else abandon(inFlight?.req, socket, api);
  };
}

/** The listeners for what node:http answers by itself otherwise (CONNECT: a closed socket; Expect: a bare 417). */
export const protocolListeners = {
  connect(_req: IncomingMessage, socket: Socket): void {
    writeRawError(socket, methodNotAllowed('CONNECT'), { allow: SERVED_METHODS });
  },
  checkExpectation(_req: IncomingMessage, res: ServerResponse): void {
    sendError(res, expectationFailed());
  },
};

/**
 * Checks a request before any other layer; true when it was answered. An HTTP/1.1
 * request without Host is a 400 (RFC 9112). A request with a body gets the body timeout:
 * a pause longer than `t.bodyMs` between chunks answers 408 and closes the connection,
 * which aborts the request's body stream, so the handler reading it cleans up (partial
 * upload removed, idempotency key released).
 */
export function guardRequest(req: IncomingMessage, res: ServerResponse, t: Timeouts): boolean {
  const h = req.headers;
  if (h.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
    sendError(res, badRequest('An HTTP/1.1 request needs a Host header', { host: 'required in HTTP/1.1' }));
    return true;
  }
  if (h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0')) {
    req.setTimeout(t.bodyMs, () => {
      const api = requestTimeout('body', t.bodyMs);
      if (res.headersSent) abandon(req, res.socket, api);
      else sendError(res, api);
    });
    // Once the body is in, a slow answer is not a stalled request; when the answer went
    // first, Node has already set the keep-alive timeout, which stays.
    req.once('end', () => {
      if (!res.writableEnded) req.socket.setTimeout(0);
    });
  }
  return false;
}
