// Error envelopes as data. Every error the mock sends is an ApiError turned into
// either the full envelope `{ error: { code, message, ... }, detail? }` or, on the
// legacy project/organization list and update endpoints, the short one
// `{ error: { code, message } }` (§7).

/** Stable machine-readable codes the mock uses. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'plan_limit_exceeded'
  | 'method_not_allowed'
  | 'idempotency_in_flight'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'request_timeout'
  | 'header_too_large'
  | 'expectation_failed'
  | 'not_implemented'
  | 'internal_error'
  | 'service_unavailable'
  | 'insufficient_storage';

/** Extra fields of plan-limit errors (§7). */
export interface PlanLimitFields {
  current: number;
  limit: number;
  feature: string;
  plan: string;
  resource: string;
  upgrade_to: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | string,
    message: string,
    readonly detail?: Record<string, string>,
    readonly extra?: Partial<PlanLimitFields>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, detail?: Record<string, string>) => new ApiError(400, 'bad_request', message, detail);

/** Status 401 by default; reading auth-failure-status may choose 403 (§5 rule 5). */
export const unauthorized = (message = 'Missing or invalid API key', status = 401) => new ApiError(status, 'unauthorized', message);

export const forbidden = (scope: string) => new ApiError(403, 'forbidden', `The API key lacks the scope ${scope}`, { scope: `required: ${scope}` });

export const notFound = () => new ApiError(404, 'not_found', 'Not found');

export const payloadTooLarge = (limit: number) =>
  new ApiError(413, 'payload_too_large', `Payload exceeds the limit of ${limit} bytes`, { limit: String(limit) });

export const unsupportedMediaType = (expected: string) =>
  new ApiError(415, 'unsupported_media_type', `Content-Type must be ${expected}`, { 'content-type': `expected ${expected}` });

export const idempotencyInFlight = () => new ApiError(409, 'idempotency_in_flight', 'A request with this idempotency key is still being processed');

/** 422 (uploads always; JSON endpoints unless reading idempotency-reused-status chooses 409). */
export const idempotencyKeyReused = (status = 422) =>
  new ApiError(status, 'idempotency_key_reused', 'The idempotency key was already used for a different request');

/** A request whose head or body did not arrive in time (MockOptions.requestTimeoutMs, bodyTimeoutMs). */
export const requestTimeout = (what: 'head' | 'body' | 'request', limitMs: number) =>
  new ApiError(408, 'request_timeout', `The request ${what === 'request' ? '' : `${what} `}did not arrive in time`, {
    [what]: what === 'body' ? `paused longer than ${limitMs} ms` : `not received within ${limitMs} ms`,
  });

export const headerTooLarge = (limit: number) =>
  new ApiError(431, 'header_too_large', `The request line and headers exceed ${limit} bytes`, { headers: `at most ${limit} bytes` });

export const methodNotAllowed = (method: string) =>
  new ApiError(405, 'method_not_allowed', `The method ${method} is not served`, { method: `${method} is not served` });

export const expectationFailed = () =>
  new ApiError(417, 'expectation_failed', 'Only Expect: 100-continue is supported', { expect: 'only 100-continue is supported' });

/**
 * A request whose body comes in a transfer coding the server does not apply (RFC 9112 §6.1: "A
 * server that receives a request message with a transfer coding it does not understand SHOULD
 * respond with 501").
 */
export const unsupportedTransferCoding = (coding: string) =>
  new ApiError(501, 'not_implemented', `The transfer coding ${coding} is not supported`, {
    'transfer-encoding': `${coding} is not supported; only chunked is`,
  });

/**
 * System errors the server may meet serving a request (Node's error codes), answered as what they
 * are: out of descriptors or memory is temporary (503), a full disk is storage (507); anything
 * else is 500. The answer never carries the error's own message, which names server paths.
 */
const SYSTEM_FAILURES = {
  EMFILE: [503, 'service_unavailable', 'The server cannot open more files right now'],
  ENFILE: [503, 'service_unavailable', 'The server cannot open more files right now'],
  ENOMEM: [503, 'service_unavailable', 'The server is out of memory right now'],
  ENOSPC: [507, 'insufficient_storage', 'The server has no room left to store the file'],
  EDQUOT: [507, 'insufficient_storage', 'The server has no room left to store the file'],
} as const satisfies Record<string, readonly [number, ErrorCode, string]>;

/** The envelope error of a failure inside the server (a system error or a bug): 5xx, with no detail of the server. */
export function internalFailure(err: unknown): ApiError {
  const code = (err as { code?: unknown; } | null)?.code;
  const known = typeof code === 'string' && Object.hasOwn(SYSTEM_FAILURES, code) ? SYSTEM_FAILURES[code as keyof typeof SYSTEM_FAILURES] : undefined;
  return known ? new ApiError(known[0], known[1], known[2]) : new ApiError(500, 'internal_error', 'Internal error');
}

/** The no-API-access plan answers every request with this (status 402, documented; reading plan-limit-status). */
export const planLimit = (resource: string, status = 402) =>
  new ApiError(status, 'plan_limit_exceeded', 'The plan of this team does not include API access', undefined, {
    current: 0,
    limit: 0,
    feature: 'api_access',
    plan: 'free',
    resource,
    upgrade_to: 'team',
  });

export type EnvelopeStyle = 'full' | 'short';

/** The JSON body of an error in the given envelope style. */
export function errorBody(err: ApiError, style: EnvelopeStyle = 'full'): Record<string, unknown> {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (style === 'short') return { error };
  if (err.extra) Object.assign(error, err.extra);
  return err.detail && Object.keys(err.detail).length > 0 ? { error, detail: err.detail } : { error };
}

/** The serialized full envelope of an error. */
export const errorJson = (err: ApiError): string => JSON.stringify(errorBody(err));

/** Not-found is sent byte-identically for missing ids and other teams' ids. */
export const NOT_FOUND_JSON = JSON.stringify(errorBody(notFound()));
