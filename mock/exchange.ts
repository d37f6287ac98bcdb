// What a route handler receives and answers: the request as the pipeline hands it on, and the
// JSON result it sends. Apart from route.ts so the stages around a handler (idempotency, mutation
// faults) can name them without importing the pipeline that calls them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from './auth.js';

/** A JSON result; `json` is already serialized (a Buffer when cached pre-encoded). */
export interface Result {
  status: number;
  json: string | Buffer;
}

export interface Input {
  principal: Principal;
  params: { id?: string; };
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  req: FastifyRequest;
  reply: FastifyReply;
  idempotencyKey?: string;
}
