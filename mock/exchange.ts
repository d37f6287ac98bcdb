// What a route handler receives and answers: the request as the pipeline hands it on, and the
// JSON result it sends. Apart from route.ts so the stages around a handler (idempotency, mutation
// faults) can name them without importing the pipeline that calls them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal, Scope } from './auth.js';
import type { PageArena } from './page-arena.js';

/** A JSON result; `json` is already serialized (a Buffer when cached pre-encoded). */
export interface Result {
  status: number;
  json: string | Buffer;
  /** Default JSON_TYPE (mock/route.ts). */
  contentType?: string;
}

/**
 * What a read handler sees: the matched request alone, no framework objects, so that the same
 * handler answers inside fastify and before it (mock/direct-reads.ts).
 */
export interface ReadInput {
  principal: Principal;
  params: { id?: string; };
  query: Record<string, unknown>;
  /** The request target as received (path and query): the page cache's key. */
  url: string;
  operationId: string;
  scope: Scope;
  /** Where a list page may be built when the caller sends it before building another (mock/page-arena.ts). */
  arena?: PageArena;
}

export interface Input extends ReadInput {
  body: Record<string, unknown>;
  req: FastifyRequest;
  reply: FastifyReply;
  idempotencyKey?: string;
}
