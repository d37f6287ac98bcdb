// The idempotency sequence of every mutating route, JSON and upload alike (§4 Idempotency):
// claim the key in its scope (team and operation), read the request, answer a replay or refuse a
// key reused with another request, run it, and keep its answer; a failure or a 5xx releases the
// key so that a retry runs again. The switchable faults of this sequence live here, once.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from './context.js';
import { type ApiError, idempotencyInFlight } from './errors.js';
import type { Result } from './exchange.js';
import { idempotencyRace, idempotencyRaceHidden } from './fault-families.js';
import type { Claim } from './idempotency.js';
import { deferRefusal } from './refusal-faults.js';

export interface IdempotentRequest {
  operationId: string;
  team: string;
  /** The Idempotency-Key header; none: the request simply runs. */
  key: string | undefined;
  req: FastifyRequest;
  /** Reads the request (an upload receives its file here) and gives its fingerprint; `discard` drops what reading kept. */
  read(): Promise<{ fingerprint: string; discard?: () => Promise<void>; }>;
  /** The refusal of a key reused with another request. */
  reused(): ApiError;
  run(): Promise<Result>;
  /** Given the release of a fresh claim (an upload frees its key the moment its client goes away). */
  onClaimed?(release: () => void): void;
}

/** A claim that holds nothing: the idempotency-race fault forgets that a key is in flight. */
const NO_CLAIM: Claim = { kind: 'claimed', complete() {}, release() {} };

export async function withIdempotency(ctx: AppContext, r: IdempotentRequest): Promise<{ result: Result; replayed: boolean; }> {
  const key = ctx.faults.on('replay-missing') ? undefined : r.key;
  if (key === undefined) {
    await r.read();
    return { result: await r.run(), replayed: false };
  }
  const race = ctx.faults.on(idempotencyRace(r.operationId));
  const scope = ctx.faults.on('idempotency-key-across-teams') ? [r.operationId] : [r.team, r.operationId];
  // Fingerprints are compared below, once the request is read: an upload's is known only then.
  const hidden = ctx.faults.on(idempotencyRaceHidden(r.operationId));
  const claim = race ? NO_CLAIM : ctx.idem.claim(scope, key, undefined);
  if (claim.kind === 'in-flight' && hidden) return runThenAnswerFirst(ctx, r, scope, key);
  if (claim.kind === 'in-flight') throw idempotencyInFlight();
  if (claim.kind === 'reused') throw r.reused();
  const release = () => (claim.kind === 'claimed' ? claim.release() : undefined);
  if (claim.kind === 'claimed') r.onClaimed?.(release);
  let read: Awaited<ReturnType<IdempotentRequest['read']>>;
  try {
    read = await r.read();
  } catch (err) {
    release();
    throw err;
  }
  if (claim.kind === 'replay') {
    const reused = claim.fingerprint !== read.fingerprint && !ctx.faults.on('idem-422-missing');
    if (!reused) {
      await read.discard?.();
      return { result: claim.response, replayed: true };
    }
    const refusal = r.reused();
    if (!deferRefusal(ctx, r.req, 'reused-key', refusal)) {
      await read.discard?.();
      if (ctx.faults.on('idem-key-dropped-on-refusal')) ctx.idem.forget(scope, key);
      throw refusal;
    }
    return { result: await r.run(), replayed: false }; // applied-when-refused: runs as if new
  }
  try {
    // Both race faults widen the window in which concurrent requests meet.
    if (race || hidden) await new Promise((done) => setTimeout(done, 20));
    const result = await r.run();
    if (result.status < 500) claim.complete(read.fingerprint, result);
    else claim.release();
    return { result, replayed: false };
  } catch (err) {
    claim.release();
    throw err;
  }
}

/** The idempotency-race-hidden fault: the request runs as if new, then answers what the request holding the key stored. */
async function runThenAnswerFirst(ctx: AppContext, r: IdempotentRequest, scope: string[], key: string): Promise<{ result: Result; replayed: boolean; }> {
  await r.read();
  const own = await r.run();
  for (let waited = 0; waited < 2_000; waited += 10) {
    const claim = ctx.idem.claim(scope, key, undefined);
    if (claim.kind === 'replay') return { result: claim.response, replayed: true };
    if (claim.kind === 'claimed') {
      claim.release();
      break;
    }
    await new Promise((done) => setTimeout(done, 10));
  }
  return { result: own, replayed: false };
}
