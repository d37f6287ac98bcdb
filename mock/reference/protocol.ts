// The node:http layer under fastify. Errors found before a request reaches the framework
// (the HTTP parser, CONNECT, Expect, a missing or repeated Host, a repeated Authorization or
// Idempotency-Key, a head or body that stops arriving) are answered in the §7 full envelope with
// a stable code where the socket still allows an answer, and the connection is closed.
//
// A connection is closed in stages (RFC 9112 §9.6): the answer, then the server's FIN, then the
// rest of what the client sends is read and dropped until it closes its side, for at most
// LINGER_MAX_BYTES and LINGER_MAX_MS (and LINGER_QUIET_MS without a byte). Closing at once while
// a request body is still arriving makes the kernel answer the unread bytes with a reset, and a
// client that writes its whole body before it reads loses the answer to it. Every connection the
// server closes after an answer closes this way, whoever decided to close it (an error here, a
// `Connection: close` answer of the framework).
import { type IncomingMessage, type ServerOptions, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { HEADERS_TIMEOUT_MS, LINGER_MAX_BYTES, LINGER_MAX_MS, LINGER_QUIET_MS, MAX_HEADER_BYTES, type Timeouts } from './context.js';
import { ApiError, badRequest, errorJson, expectationFailed, headerTooLarge, methodNotAllowed, requestTimeout, unsupportedTransferCoding } from './errors.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The methods the mock serves, for the Allow header of a 405. */
const SERVED_METHODS = 'GET, HEAD, POST, PATCH, DELETE';

/** How long a request head may take: HEADERS_TIMEOUT_MS, or the whole request's time when shorter. */
const headersTimeoutMs = (t: Timeouts): number => Math.min(HEADERS_TIMEOUT_MS, t.requestMs);

/** Options of the node:http server: explicit head limit and the request timeouts (Node checks them once a second). */
export function serverOptions(t: Timeouts): ServerOptions {
  return {
    maxHeaderSize: MAX_HEADER_BYTES,
    requestTimeout: t.requestMs,
    headersTimeout: headersTimeoutMs(t),
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
  // llhttp's "Duplicate Content-Length", whether the two agree or not (RFC 9112 §6.3 rule 5).
  HPE_UNEXPECTED_CONTENT_LENGTH: ['content-length', 'may be given once only'],
  HPE_INVALID_TRANSFER_ENCODING: ['transfer-encoding', 'is not valid'],
  HPE_INVALID_CHUNK_SIZE: ['body', 'malformed chunked encoding'],
} as const satisfies Record<string, readonly [string, string]>;

/**
 * Content-Length beside Transfer-Encoding (RFC 9112 §6.3 rule 3): llhttp reports it under the code
 * of whichever header came second (HPE_INVALID_CONTENT_LENGTH or HPE_INVALID_TRANSFER_ENCODING),
 * and only its reason ("... can't be present with ...") tells it from a malformed value.
 */
const BOTH_FRAMINGS = /can't be present with/i;

/** An error Node's HTTP server reports on a connection: llhttp's code (HPE_*) and its reason. */
export type ParserError = Error & { code?: string; reason?: string; };

/**
 * The envelope error for an error Node's HTTP server reports on a connection. Node reports both
 * of its timeouts as ERR_HTTP_REQUEST_TIMEOUT: a request whose head had arrived ran out of the
 * whole request's time, any other the head's.
 */
export function clientErrorOf(err: ParserError, t: Timeouts, headArrived = false): ApiError {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return headArrived ? requestTimeout('request', t.requestMs) : requestTimeout('head', headersTimeoutMs(t));
  if (err.code === 'HPE_HEADER_OVERFLOW') return headerTooLarge(MAX_HEADER_BYTES);
  if (typeof err.reason === 'string' && BOTH_FRAMINGS.test(err.reason)) {
    return badRequest('The HTTP request is malformed', { 'content-length': 'may not be sent with Transfer-Encoding' });
  }
  const known = err.code !== undefined && err.code in PARSER_ERRORS ? PARSER_ERRORS[err.code as keyof typeof PARSER_ERRORS] : undefined;
  if (known) return badRequest('The HTTP request is malformed', { [known[0]]: known[1] });
  return badRequest('The HTTP request is malformed', { request: `not a valid HTTP/1.1 request${err.code ? ` (${err.code})` : ''}` });
}

/**
 * The connections of one server, closed in stages (see above): FIN once the answer is written,
 * then what the client still sends is read and dropped until it closes, or until the bounds, when
 * the socket is destroyed. Node closes a connection after a `Connection: close` answer with
 * destroySoon() (destroy once the answer is written), which watch() replaces on each socket.
 */
export class StagedClose {
  private readonly closing = new Set<Socket>();
  /** The request last read on each connection, whose body the close drains. */
  private readonly requestOn = new WeakMap<Socket, IncomingMessage>();
  /**
   * The responses of each connection in the order of their requests, from the first not yet
   * finished (pipelined ones wait in Node's queue behind it); pruned as requests arrive, so no
   * listener is added on the way of every request.
   */
  private readonly responsesOn = new WeakMap<Socket, ServerResponse[]>();
  /** Connections whose parser failed while earlier requests still had their answers to come. */
  private readonly failedAfterPending = new WeakSet<Socket>();

  watch(socket: Socket): void {
    socket.destroySoon = () => this.close(socket);
  }

  noteRequest(req: IncomingMessage, res: ServerResponse): void {
    this.requestOn.set(req.socket, req);
    const list = this.responsesOn.get(req.socket);
    if (!list) return void this.responsesOn.set(req.socket, [res]);
    while (list.length > 0 && answered(list[0]!)) list.shift();
    list.push(res);
  }

  /** The responses of a connection not yet finished, in the order of their requests. */
  unanswered(socket: Socket): ServerResponse[] {
    return (this.responsesOn.get(socket) ?? []).filter((res) => !answered(res));
  }

  /** The parser failed after requests whose answers are still to come: what it reports next is dropped. */
  noteFailedAfterPending(socket: Socket): void {
    this.failedAfterPending.add(socket);
  }

  isClosing(socket: Socket): boolean {
    return this.closing.has(socket) || this.failedAfterPending.has(socket);
  }

  close(socket: Socket): void {
    if (socket.destroyed || this.closing.has(socket)) return;
    this.closing.add(socket);
    socket.end();
    // A request body nobody reads any more flows on and is dropped.
    const req = this.requestOn.get(socket);
    if (req && !req.readableEnded) {
      req.unpipe();
      req.removeAllListeners('data');
      req.resume();
    }
    socket.resume();
    const started = Date.now();
    const readBefore = socket.bytesRead;
    let read = readBefore;
    let heard = started;
    const check = setInterval(() => {
      const now = Date.now();
      if (socket.bytesRead !== read) {
        read = socket.bytesRead;
        heard = now;
      }
      if (read - readBefore > LINGER_MAX_BYTES || now - started > LINGER_MAX_MS || now - heard > LINGER_QUIET_MS) socket.destroy();
    }, Math.min(250, LINGER_QUIET_MS));
    socket.once('close', () => {
      clearInterval(check);
      this.closing.delete(socket);
    });
  }

  /** The server is closing: no connection waits for its client any longer. */
  destroyAll(): void {
    for (const socket of this.closing) socket.destroy();
  }
}

/** Whether a response is done with: finished (its bytes handed to the socket) or destroyed. */
const answered = (res: ServerResponse): boolean => res.writableFinished || res.destroyed;

/** Whether a response closes its connection: Node's own flag, set once its head is written. */
const closesConnection = (res: ServerResponse): boolean => (res as ServerResponse & { _last?: boolean; })._last === true;

/** Writes an error response straight to a socket; then `then` (which closes it). */
function writeRawError(socket: Socket, api: ApiError, then: () => void, headers: Record<string, string> = {}): void {
  const body = errorJson(api);
  const lines = [
    `HTTP/1.1 ${api.status} ${STATUS_CODES[api.status] ?? 'Error'}`,
    `content-type: ${JSON_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`, () => then());
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

/**
 * Sends an error through a response not yet started, with `Connection: close`: the connection
 * closes in stages once it is written. `abandonBody`: the request's body stream fails at once
 * (a body that stopped arriving), so its reader cleans up.
 */
function sendError(res: ServerResponse, api: ApiError, abandonBody = false): void {
  const body = errorJson(api);
  res.writeHead(api.status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body, abandonBody ? () => abandon(res.req, res.socket, api) : undefined);
}

/**
 * fastify's clientErrorHandler: the parser's errors and the request timeout, in the envelope.
 * The request the error belongs to is the last one read when its body is still arriving (a broken
 * chunked body), otherwise one that never became a request (bytes after the last one). Requests
 * read before it keep their answers: the error is answered after the last of them, in order, and
 * not at all when that one closes the connection (RFC 9112 §9.6: no request after a "close" is
 * processed).
 */
export function clientErrorHandler(t: Timeouts, connections: StagedClose): (err: ParserError, socket: Socket) => void {
  return (err, socket) => {
    // A connection closing in stages, or waiting on earlier answers: its parser reports again on what it drops.
    if (err.code === 'ECONNRESET' || socket.destroyed || connections.isClosing(socket)) return;
    const pending = connections.unanswered(socket);
    const last = pending.at(-1);
    const failing = last && !last.req.complete ? last : undefined;
    const earlier = failing ? pending.slice(0, -1) : pending;
    const api = clientErrorOf(err, t, failing !== undefined);
    // A request being read fails once answered, so its handler cleans up; bytes that are no request are drained.
    const then = () => (failing ? abandon(failing.req, socket, api) : connections.close(socket));
    const before = earlier.at(-1);
    if (before) {
      connections.noteFailedAfterPending(socket);
      // Before Node's own listener, which hands the connection to the next response or closes it.
      before.prependOnceListener('finish', () => {
        if (closesConnection(before)) return;
        if (!socket.writable || failing?.headersSent) return abandon(failing?.req, socket, api);
        writeRawError(socket, api, then);
      });
      return;
    }
    // Node's own rule: answer only where no response to this request has started.
    if (!socket.writable || failing?.headersSent) return abandon(failing?.req, socket, api);
    writeRawError(socket, api, then);
  };
}

/** The listeners for what node:http answers by itself otherwise (CONNECT: a closed socket; Expect: a bare 417). */
export function protocolListeners(connections: StagedClose) {
  return {
    connect(_req: IncomingMessage, socket: Socket): void {
      writeRawError(socket, methodNotAllowed('CONNECT'), () => connections.close(socket), { allow: SERVED_METHODS });
    },
    checkExpectation(req: IncomingMessage, res: ServerResponse): void {
      connections.noteRequest(req, res);
      sendError(res, expectationFailed());
    },
  };
}

/** Headers a request may carry once only: the credentials, the authority (RFC 9112 §3.2), the idempotency key (§4). */
const SINGLE_HEADERS = new Set(['authorization', 'host', 'idempotency-key']);

/** A header of SINGLE_HEADERS the request repeats, if any (Node keeps the first of some, joins others). */
function repeatedHeader(raw: readonly string[]): string | undefined {
  let seen: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    // Only names that start as one of them are looked at closer (this runs for every request).
    const first = raw[i]!.charCodeAt(0) | 0x20;
    if (first !== 0x61 && first !== 0x68 && first !== 0x69) continue;
    const name = raw[i]!.toLowerCase();
    if (!SINGLE_HEADERS.has(name)) continue;
    if (seen?.includes(name)) return name;
    (seen ??= []).push(name);
  }
  return undefined;
}

/**
 * The first transfer coding of a request's Transfer-Encoding other than chunked, the only one the
 * server applies (Node joins repeated headers with ", "). llhttp has already refused a list whose
 * last coding is not chunked, or that names chunked twice (RFC 9112 §6.3, §7), and passes any
 * other coding before it on unread: a body in gzip would be read as if it were plain.
 */
function unsupportedCoding(value: string): string | undefined {
  for (const item of value.split(',')) {
    const coding = item.split(';')[0]!.trim().toLowerCase();
    if (coding !== '' && coding !== 'chunked') return coding.slice(0, 64);
  }
  return undefined;
}

/** Answers streaming now, whose socket timer is theirs (endWhenIdle), not the body timeout's. */
const streaming = new WeakSet<ServerResponse>();

/**
 * Checks a request before any other layer; true when it was answered. An HTTP/1.1
 * request without Host, or with two, is a 400 (RFC 9112 §3.2), and so is a request with two
 * Authorization or Idempotency-Key headers. A request with a body gets the body timeout:
 * a pause longer than `t.bodyMs` between chunks answers 408 and closes the connection,
 * which aborts the request's body stream, so the handler reading it cleans up (partial
 * upload removed, idempotency key released). Once the whole body has arrived the timer stops,
 * read or not: what remains is the server's to answer, however long that takes.
 */
export function guardRequest(req: IncomingMessage, res: ServerResponse, t: Timeouts, connections: StagedClose): boolean {
  connections.noteRequest(req, res);
  const h = req.headers;
  const repeated = repeatedHeader(req.rawHeaders);
  if (repeated !== undefined) {
    sendError(res, badRequest(`The request carries ${repeated} more than once`, { [repeated]: 'may be given once only' }));
    return true;
  }
  if (h.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
    sendError(res, badRequest('An HTTP/1.1 request needs a Host header', { host: 'required in HTTP/1.1' }));
    return true;
  }
  const coding = h['transfer-encoding'] === undefined ? undefined : unsupportedCoding(h['transfer-encoding']);
  if (coding !== undefined) {
    sendError(res, unsupportedTransferCoding(coding));
    return true;
  }
  if (h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0')) {
    const stop = () => {
      res.off('timeout', onTimeout);
      if (!res.writableEnded && !streaming.has(res)) req.socket.setTimeout(0);
    };
    const onTimeout = () => {
      if (streaming.has(res)) return;
      // Node tells the response rather than the request once the body is complete (and would
      // close the connection, unanswered, if nobody listened).
      if (req.complete && !res.headersSent) return stop();
      res.off('timeout', onTimeout);
      if (res.headersSent) abandon(req, res.socket, requestTimeout('body', t.bodyMs));
      else sendError(res, requestTimeout('body', t.bodyMs), true);
    };
    req.setTimeout(t.bodyMs, onTimeout);
    res.on('timeout', onTimeout);
    // Once the body is read, a slow answer is not a stalled request; when the answer went
    // first, Node has already set the keep-alive timeout, which stays.
    req.once('end', stop);
  }
  return false;
}

/**
 * A streamed answer (a download) whose client stops reading is ended after `ms` without
 * progress: the socket's idle timer, which every write that drains restarts.
 */
export function endWhenIdle(res: ServerResponse, ms: number): void {
  streaming.add(res);
  res.setTimeout(ms, () => res.destroy());
}
