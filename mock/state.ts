// The per-start state of the mock (contract C3's start() serves it): the options checked, the seed
// data loaded into a store, the readings and the fault's hooks set on the reference's context, and
// the route table the reference serves. No server yet: start() (index.ts) builds one on it, and
// tests build two on one state to compare them (fast/direct-reads.test.ts).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { faultNamed, UnknownFault } from './faults/index.js';
import { type MockOptions, MockOptionsError } from './options.js';
import { routeTable } from './reference/app.js';
import { Authenticator, type MockKeys, resolveKeys } from './reference/auth.js';
import { BlobStore } from './reference/blob-store.js';
import { type AppContext, BASE_PATH, DEFAULT_BODY_TIMEOUT_MS, DEFAULT_DOWNLOAD_IDLE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './reference/context.js';
import type { Hooks } from './reference/hooks.js';
import { IdempotencyStore } from './reference/idempotency-store.js';
import { type ServedOpenApi, servedOpenApi } from './reference/openapi.js';
import { CursorCodec } from './reference/pagination.js';
import type { RouteTable } from './reference/pipeline.js';
import { ReadingError, Readings } from './reference/readings.js';
import { Render, type Shape } from './reference/render.js';
import { createStore } from './reference/store.js';
import { generateSeed } from './seed/generate.js';
import { loadSeed } from './seed/load.js';

function checkOptions(o: MockOptions): void {
  if (o.host !== undefined && o.host !== '127.0.0.1') throw new MockOptionsError(`host must be 127.0.0.1 (got ${String(o.host)})`);
  if (o.port !== undefined && !(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535)) {
    throw new MockOptionsError(`port must be an integer 0-65535 (got ${String(o.port)})`);
  }
  if (o.shape !== undefined && o.shape !== 'full' && o.shape !== 'legacy') throw new MockOptionsError(`shape must be full or legacy (got ${String(o.shape)})`);
  if (o.seed !== undefined && !Number.isSafeInteger(o.seed)) throw new MockOptionsError(`seed must be an integer (got ${String(o.seed)})`);
  if (o.population !== undefined && !(Number.isInteger(o.population) && o.population >= 1 && o.population <= 1_000_000)) {
    throw new MockOptionsError(`population must be an integer 1-1000000 (got ${String(o.population)})`);
  }
  for (const name of ['requestTimeoutMs', 'bodyTimeoutMs', 'downloadIdleTimeoutMs', 'idempotencyMaxKeys', 'idempotencyMaxBytes'] as const) {
    const v = o[name];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 1)) throw new MockOptionsError(`${name} must be a positive integer (got ${String(v)})`);
  }
}

function encryptionKey(k: MockOptions['encryptionKey']): Buffer {
  if (k === undefined) return randomBytes(32);
  const buf = typeof k === 'string' ? Buffer.from(k, 'hex') : k;
  if (buf.length !== 32) throw new MockOptionsError('encryptionKey must be 32 bytes (64 hex characters)');
  return buf;
}

/** The per-start state of a mock (context, routes, served description, keys) before any server is built on it. */
export interface MockState {
  ctx: AppContext;
  /** The routes the reference serves, as the fault (if any) edited them. */
  table: RouteTable;
  openapi: ServedOpenApi;
  keys: MockKeys;
  dataDir: string;
  /** Removes the data directory when it was made here (no dataDir option). */
  dispose(): Promise<void>;
}

/** What start() serves, without a server. */
export async function createState(options: MockOptions = {}): Promise<MockState> {
  checkOptions(options);
  let readings: Readings;
  let fault: ReturnType<typeof faultNamed> | undefined;
  try {
    readings = new Readings(options.readings);
    fault = options.fault === undefined ? undefined : faultNamed(options.fault);
  } catch (err) {
    throw err instanceof ReadingError || err instanceof UnknownFault ? new MockOptionsError(err.message) : err;
  }
  const shape = options.shape ?? 'full';
  const keys = resolveKeys(options.keys);
  const key = encryptionKey(options.encryptionKey);
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'api-mock-')));
  const dispose = () => (ownsDir ? rm(dataDir, { recursive: true, force: true }) : Promise.resolve());
  try {
    const organizationShape: Shape = readings.value('organization-shape') === 'other' ? (shape === 'full' ? 'legacy' : 'full') : shape;
    const openapi = servedOpenApi({
      deprecate: options.deprecate ?? [],
      shape: organizationShape === shape ? shape : 'either',
      baseUrl: 'http://127.0.0.1:4010',
    });
    const store = loadSeed(createStore(), generateSeed(options.seed ?? 1, options.population));
    const hooks: Hooks = {};
    const ctx: AppContext = {
      basePath: BASE_PATH,
      shape,
      store,
      render: new Render(store, { project: shape, organization: organizationShape }, options.extraFields === true, readings.value('timestamp-format')),
      readings,
      codec: new CursorCodec(undefined, readings.value('cursor-format') === 'signed'),
      idem: new IdempotencyStore(Date.now, {
        ...(options.idempotencyMaxKeys !== undefined ? { maxKeys: options.idempotencyMaxKeys } : {}),
        ...(options.idempotencyMaxBytes !== undefined ? { maxBytes: options.idempotencyMaxBytes } : {}),
      }),
      blobs: await BlobStore.open(dataDir, key),
      auth: new Authenticator(keys, readings),
      deprecated: openapi.deprecatedOperations,
      uploadLimit: Number(readings.value('upload-limit').replace(/^request-/, '')),
      uploadLimitCounts: readings.value('upload-limit').startsWith('request-') ? 'request' : 'file',
      timeouts: {
        requestMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        bodyMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
        downloadIdleMs: options.downloadIdleTimeoutMs ?? DEFAULT_DOWNLOAD_IDLE_TIMEOUT_MS,
      },
      hooks,
    };
    const { routes, ...faultHooks } = fault?.hooks(ctx) ?? {};
    Object.assign(hooks, faultHooks);
    const table = routeTable(openapi, routes);
    return { ctx: { ...ctx, basePath: table.basePath }, table, openapi, keys, dataDir, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
