// Typed configuration (with documented defaults) and the per-start context every route sees.
import type { Authenticator, MockKeys } from './auth.js';
import type { BlobStore } from './blob-store.js';
import type { Faults } from './faults.js';
import type { IdempotencyStore } from './idempotency.js';
import type { PageCache } from './page-cache.js';
import type { CursorCodec, SortedViews } from './pagination.js';
import type { ReadingChoice, Readings } from './readings.js';
import type { Store } from './store.js';
import type { Shape, Views } from './views.js';

export interface MockOptions {
  /** Port to listen on; default 0 (an ephemeral port). */
  port?: number;
  /** Only 127.0.0.1 is allowed. */
  host?: '127.0.0.1';
  /** Seed number of the fixture data; default 1. */
  seed?: number;
  /** Records per list and team in the fixture data (mock/seed.ts populationCounts); default the small seed (55 projects). */
  population?: number;
  /** Response shape of projects and organizations (§2); default 'full'. */
  shape?: Shape;
  /** Name of one fault of mock/faults.ts to switch on; default none. */
  fault?: string;
  /** operationIds (e.g. listProjects) or 'METHOD /path' of operations to mark deprecated. */
  deprecate?: string[];
  /** Directory of the encrypted blob store; default a fresh temp dir removed at close. */
  dataDir?: string;
  /** API keys; each absent key is random per start. */
  keys?: Partial<MockKeys>;
  /** AES-256 key for blobs at rest (32 bytes, or 64 hex chars); default random per start. */
  encryptionKey?: Buffer | string;
  /** Adds unknown fields to every resource (clients must ignore them, §9); default false. */
  extraFields?: boolean;
  /** Conforming alternatives to the mock's readings (mock/readings.ts); default none. */
  readings?: ReadingChoice;
  /** Answer a plain GET of a read route before the framework (mock/direct-reads.ts); default true, never under a fault. */
  directReads?: boolean;
  /** Longest time to receive a whole request, head and body, in ms; default DEFAULT_REQUEST_TIMEOUT_MS (120 s). Then 408. */
  requestTimeoutMs?: number;
  /** Longest pause between two chunks of a request body, in ms; default DEFAULT_BODY_TIMEOUT_MS (30 s). Then 408. */
  bodyTimeoutMs?: number;
  /** Completed idempotency keys kept at most; default 10,000 (mock/idempotency.ts IDEMPOTENCY_DEFAULTS). */
  idempotencyMaxKeys?: number;
  /** Bytes of responses kept for idempotent replays at most; default 16 MiB (mock/idempotency.ts IDEMPOTENCY_DEFAULTS). */
  idempotencyMaxBytes?: number;
}

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

export interface Timeouts {
  requestMs: number;
  bodyMs: number;
}

/** Deprecation/Sunset dates announced for deprecated operations. */
export const DEPRECATION_DATE = new Date(Date.UTC(2026, 0, 1));
export const SUNSET_DATE = new Date(Date.UTC(2027, 0, 1));

export interface AppContext {
  readonly basePath: string;
  readonly shape: Shape;
  readonly store: Store;
  readonly views: Views;
  readonly faults: Faults;
  readonly readings: Readings;
  readonly codec: CursorCodec;
  readonly sorted: SortedViews;
  readonly pages: PageCache;
  readonly idem: IdempotencyStore;
  readonly blobs: BlobStore;
  readonly auth: Authenticator;
  readonly deprecated: ReadonlySet<string>;
  readonly uploadLimit: number;
  /** What the upload limit counts (reading upload-limit): the file part's bytes, or the whole request body's. */
  readonly uploadLimitCounts: 'file' | 'request';
  readonly timeouts: Timeouts;
}
