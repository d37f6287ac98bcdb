// The idempotency sequence of every mutating route, JSON and upload alike (§4: "Every mutating
// endpoint takes an optional header idempotency-key"; upload rules 2 and 3): claim the key in its
// scope (team and operation), read the request, answer a replay or refuse a key reused with
// another request, run it, and keep its answer; a failure or a 5xx releases the key so that a
// retry runs again. The key store and the fingerprint are in idempotency-store.ts.
import type { AppContext } from './context.js';
import { type ApiError, idempotencyInFlight } from './errors.js';
import type { Exchange, Result } from './exchange.js';
import { fingerprintOf } from './idempotency-store.js';

export interface IdempotentRequest {
  ex: Exchange;
  /** Reads the request (an upload receives its file here) and gives the parts of its fingerprint; `discard` drops what reading kept. */
  read(): Promise<{ fingerprint: readonly string[]; discard?: () => Promise<void>; }>;
  /** The refusal of a key reused with another request. */
  reused(): ApiError;
  run(): Promise<Result>;
  /** Given the release of a fresh claim (an upload frees its key the moment its client goes away). */
  onClaimed?(release: () => void): void;
}

export async function withIdempotency(ctx: AppContext, r: IdempotentRequest): Promise<Result> {
  const { ex } = r;
  const key = ex.idempotencyKey;
  if (key === undefined) {
    await r.read();
    return r.run();
  }
  const hooks = ctx.hooks.idempotency;
  const own = [ex.principal.team, ex.operationId];
  const scope = hooks?.scope ? hooks.scope(ex, own) : own;
  // Fingerprints are compared below, once the request is read: an upload's is known only then.
  const claim = hooks?.claim ? await hooks.claim(ex, scope, key, () => ctx.idem.claim(scope, key, undefined)) : ctx.idem.claim(scope, key, undefined);
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
  const fingerprint = fingerprintOf(...(hooks?.fingerprint ? hooks.fingerprint(ex, read.fingerprint) : read.fingerprint));
  if (claim.kind === 'replay') {
    if (claim.fingerprint === fingerprint) {
      await read.discard?.();
      return { ...claim.response, replayed: true };
    }
    const refusal = r.reused();
    if ((hooks?.reused?.(ex, refusal, { scope, key }) ?? 'refuse') === 'refuse') {
      await read.discard?.();
      throw refusal;
    }
    return r.run(); // a reused key let through runs as a new request
  }
  try {
    const result = await r.run();
    if (result.status < 500) claim.complete(fingerprint, result);
    else claim.release();
    return result;
  } catch (err) {
    claim.release();
    throw err;
  }
}
