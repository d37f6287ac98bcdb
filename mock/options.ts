// The options of the mock's library entry (contract C3: start(options) → { url, settings, close }),
// typed with their documented defaults, the error of an option out of range, and a fault as the
// entry lists it. The package publishes these declarations (`./mock`): they name no type of the
// framework or of the reference's internals.
import type { MockKeys } from './reference/auth.js';
import type { ReadingChoice } from './reference/readings.js';
import type { Shape } from './reference/render.js';

export interface MockOptions {
  /** Port to listen on; default 0 (an ephemeral port). */
  port?: number;
  /** Only 127.0.0.1 is allowed. */
  host?: '127.0.0.1';
  /** Seed number of the fixture data; default 1. */
  seed?: number;
  /** Records per list and team in the fixture data (mock/seed/generate.ts populationCounts); default the small seed (55 projects). */
  population?: number;
  /** Response shape of projects and organizations (§2); default 'full'. */
  shape?: Shape;
  /** Name of one fault of mock/faults/ to switch on; default none. */
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
  /** Conforming alternatives to the mock's readings (mock/reference/readings.ts); default none. */
  readings?: ReadingChoice;
  /** Answer a plain GET of a read route before the framework, and keep list pages (mock/fast/); default true, never under a fault. */
  directReads?: boolean;
  /** Longest time to receive a whole request, head and body, in ms; default DEFAULT_REQUEST_TIMEOUT_MS (120 s). Then 408. */
  requestTimeoutMs?: number;
  /** Longest pause between two chunks of a request body, in ms; default DEFAULT_BODY_TIMEOUT_MS (30 s). Then 408. */
  bodyTimeoutMs?: number;
  /**
   * Longest time a download waits for its client to read, in ms; default DEFAULT_DOWNLOAD_IDLE_TIMEOUT_MS (30 s).
   * Then the download ends and the connection closes.
   */
  downloadIdleTimeoutMs?: number;
  /** Completed idempotency keys kept at most; default 10,000 (mock/reference/idempotency-store.ts IDEMPOTENCY_DEFAULTS). */
  idempotencyMaxKeys?: number;
  /** Bytes of responses kept for idempotent replays at most; default 16 MiB (mock/reference/idempotency-store.ts IDEMPOTENCY_DEFAULTS). */
  idempotencyMaxBytes?: number;
}

/** An option out of range: start() rejects with it before anything listens. */
export class MockOptionsError extends Error {}

/** A fault as the library entry lists it (`faults`): what start({ fault: name }) switches on. */
export interface FaultSummary {
  name: string;
  /** The requirement ids a conformance run against the mock must then report failed. */
  requirements: readonly string[];
  description: string;
  /** The project/organization shape the mock must serve for the fault to show. */
  shape: 'full' | 'legacy';
}

/** A fault a failure mode generated (faults/modes/): the category and mode, and the element it breaks. */
export interface FailureModeSummary extends FaultSummary {
  category: string;
  mode: string;
  element: string;
}
