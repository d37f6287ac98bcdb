// What flows through the pipeline: the request as every stage and handler sees it (Exchange), and
// the JSON result a handler answers (Result). Apart from pipeline.ts so the stages around a handler
// (idempotency, lookups, lists) and the hooks (hooks.ts) can name them without importing the
// pipeline that calls them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Principal, Scope } from './auth.js';
import type { StoredBlob } from './blob-store.js';
import type { Collection, Entry, TeamId } from './store.js';

/** What a handler answers: JSON already serialized (a Buffer when built from pre-encoded items), or a stream. */
export interface Result {
  status: number;
  /** The JSON body ('' for none). */
  json: string | Buffer;
  /** Default JSON_TYPE (pipeline.ts). */
  contentType?: string;
  /** Headers of the answer beside its content type. */
  headers?: Record<string, string>;
  /** A body streamed instead of `json` (a download). */
  stream?: Readable;
  /** The stored answer of an earlier request with the same idempotency key. */
  replayed?: boolean;
  /** What a list page shows and was built from: whoever keeps answers needs it to know when one is stale. */
  page?: PageBasis;
}

/** The stored entries and fields a list page was built from (lists.ts). */
export interface PageBasis {
  /** The collections read: the listed one first, then those its items embed. */
  collections: readonly Collection[];
  team: TeamId;
  /** The entries the page shows. */
  items: readonly Entry[];
  /** The fields the page's order, filters and search read. */
  fields: readonly string[];
  /** Whether a filter reads fields the store does not know of (any change may matter). */
  opaque: boolean;
}

/** Memory a list page may be built in when the caller sends it before building another. */
export interface PageBuffers {
  take(size: number): Buffer | undefined;
}

/** The request as the stages see it: matched to its operation, authenticated, its input parsed. */
export interface Exchange {
  readonly operationId: string;
  readonly method: string;
  /** The request target as received (path and query). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** Who the request is served as (set by authentication). */
  principal: Principal;
  scope: Scope | undefined;
  params: { id?: string; };
  query: Record<string, unknown>;
  /** A JSON body (an empty object when there is none). */
  body: Record<string, unknown>;
  idempotencyKey?: string;
  /** Where a list page may be built (set by a caller that sends it at once). */
  buffers?: PageBuffers;
}

/** An exchange served by the framework: uploads and downloads read and write the request themselves. */
export interface Input extends Exchange {
  req: FastifyRequest;
  reply: FastifyReply;
}

/** The file part of an upload as stored. */
export interface ReceivedFile {
  blob: StoredBlob;
  filename: string;
  mime: string;
}

export interface ReceivedUpload {
  /** The part named `file`, when one was sent. */
  file?: ReceivedFile;
  fields: Record<string, string>;
  /** The fields sent after the file part (§4 fixes no order of parts). */
  fieldsAfterFile: string[];
}
