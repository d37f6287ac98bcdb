// The reference's limits (with their documented values) and the per-start context every stage sees.
import type { Authenticator } from './auth.js';
import type { BlobStore } from './blob-store.js';
import type { Hooks } from './hooks.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { CursorCodec } from './pagination.js';
import type { Readings } from './readings.js';
import type { Render, Shape } from './render.js';
import type { Store } from './store.js';

export const BASE_PATH = '/api/public/v1';
/** §4/§8 "25 MB" read as 25 MiB by default (reading upload-limit): uploads up to 26,214,400 bytes are accepted. */
export const UPLOAD_LIMIT_BYTES = 26_214_400;
/** JSON request bodies above 1 MiB answer 413. */
export const JSON_BODY_LIMIT_BYTES = 1_048_576;
/**
 * JSON request bodies nested deeper than this (arrays and objects) answer 400
 * bad_request, so no walk over a body (validation, fingerprint, serialization) meets
 * unbounded depth. The deepest shape the document gives a request is 3 levels.
 */
export const MAX_JSON_DEPTH = 64;
/** A request head (request line and headers) above 16 KiB answers 431 (Node's maxHeaderSize, set explicitly). */
export const MAX_HEADER_BYTES = 16_384;
/** Default of MockOptions.requestTimeoutMs: a whole request (head and body) must arrive within 120 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
/** Default of MockOptions.bodyTimeoutMs: a request body may pause at most 30 s between chunks. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** A request head must arrive within this long (or the request timeout, when shorter). */
export const HEADERS_TIMEOUT_MS = 60_000;
/**
 * Default of MockOptions.downloadIdleTimeoutMs: a download whose client reads nothing (the
 * socket takes no byte) for 30 s is ended, the connection closed and the blob's file closed.
 */
export const DEFAULT_DOWNLOAD_IDLE_TIMEOUT_MS = 30_000;
/**
 * A connection the server closes while its client may still be sending (protocol.ts): after the
 * answer and the server's FIN, what arrives is read and dropped, for at most 64 MiB, 10 s, and
 * 2 s without a byte, so a client that writes its whole body first (an upload of the 25 MB
 * limit, refused at its start) still reads the answer instead of a reset.
 */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;
export const LINGER_MAX_MS = 10_000;
export const LINGER_QUIET_MS = 2_000;

export interface Timeouts {
  requestMs: number;
  bodyMs: number;
  downloadIdleMs: number;
}

/** Deprecation/Sunset dates announced for deprecated operations. */
export const DEPRECATION_DATE = new Date(Date.UTC(2026, 0, 1));
export const SUNSET_DATE = new Date(Date.UTC(2027, 0, 1));

export interface AppContext {
  readonly basePath: string;
  readonly shape: Shape;
  readonly store: Store;
  readonly render: Render;
  readonly readings: Readings;
  readonly codec: CursorCodec;
  readonly idem: IdempotencyStore;
  readonly blobs: BlobStore;
  readonly auth: Authenticator;
  readonly deprecated: ReadonlySet<string>;
  readonly uploadLimit: number;
  /** What the upload limit counts (reading upload-limit): the file part's bytes, or the whole request body's. */
  readonly uploadLimitCounts: 'file' | 'request';
  readonly timeouts: Timeouts;
  /** Where behaviour is changed from outside the reference (none: the reference as written). */
  readonly hooks: Hooks;
}
