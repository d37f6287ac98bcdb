// Refusals let through: a stage's refusal is caught and the request goes on as if allowed. Where
// the refusal is still answered (the applied-when-refused family: refused, but applied anyway), it
// is kept on the exchange and answered in place of the result.
import type { Principal } from '../reference/auth.js';
import { ApiError, errorJson } from '../reference/errors.js';
import type { Exchange } from '../reference/exchange.js';
import type { Hooks } from '../reference/hooks.js';
import { JSON_TYPE } from '../reference/pipeline.js';

const kept = new WeakMap<Exchange, ApiError>();

/** Keeps `refusal` to answer in place of the request's result (the first one kept wins). */
export function keepRefusal(ex: Exchange, refusal: ApiError): void {
  if (!kept.has(ex)) kept.set(ex, refusal);
}

/** Answers a kept refusal in place of whatever the request answered. */
export const answerKeptRefusal: NonNullable<Hooks['respond']> = (ex, answer) => {
  const refusal = ex && kept.get(ex);
  if (!refusal) return answer;
  const headers: Record<string, string> = { ...answer.headers };
  delete headers['idempotent-replayed'];
  if (refusal.status === 401) headers['www-authenticate'] = 'Bearer';
  return { status: refusal.status, contentType: JSON_TYPE, headers, body: errorJson(refusal), error: { api: refusal, envelope: 'full' } };
};

/** Calls `next`; a refusal it throws goes to `onRefusal`, whose value is used instead (it may throw again). */
export function letThrough<T>(next: () => T, onRefusal: (refusal: ApiError) => T): T {
  try {
    return next();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return onRefusal(err);
  }
}

/** Who a request whose key was refused is served as: team A, with every scope. */
export const TEAM_A = (all: readonly string[]): Principal => ({ team: 'A', scopes: new Set(all), apiAccess: true });
