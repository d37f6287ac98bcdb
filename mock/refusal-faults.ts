// The applied-when-refused faults (mock/fault-families.ts): a refusal is not answered where it
// arises but kept on the request; the request goes on as if allowed, and the kept refusal is
// answered instead of the result. Where the refusal arises deep in a handler (another team's
// record found by findOwn), the request is found through an AsyncLocalStorage scope that exists
// only while such a fault is active.
import type { FastifyRequest } from 'fastify';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Authenticator, type Principal } from './auth.js';
import type { AppContext } from './context.js';
import type { ApiError } from './errors.js';
import { appliedWhenRefused, type Refusal } from './fault-families.js';

const DEFERRED = Symbol('deferred refusal');
type Deferring = FastifyRequest & { [DEFERRED]?: ApiError; };

const scope = new AsyncLocalStorage<FastifyRequest>();

const operationOf = (req: FastifyRequest): string | undefined => (req.routeOptions.config as { operationId?: string; } | undefined)?.operationId;

/** Whether any applied-when-refused fault is active (nothing below costs anything otherwise). */
export const refusalFaultActive = (ctx: AppContext): boolean => ctx.faults.active?.startsWith('applied-when-refused:') === true;

/** Runs fn with the request findable by deferCrossTeam, when a cross-team refusal fault is active. */
export function withRequest<T>(ctx: AppContext, req: FastifyRequest, fn: () => T): T {
  return ctx.faults.active?.startsWith('applied-when-refused:cross-team:') ? scope.run(req, fn) : fn();
}

/** Under the fault for (refusal, this request's operation): keeps `error` for later and answers true. */
export function deferRefusal(ctx: AppContext, req: FastifyRequest, refusal: Refusal, error: ApiError): boolean {
  const op = operationOf(req);
  if (op === undefined || !ctx.faults.on(appliedWhenRefused(refusal, op))) return false;
  (req as Deferring)[DEFERRED] ??= error;
  return true;
}

/** Another team's record was named: under the fault, use it and answer `error` afterwards. */
export function deferCrossTeam(ctx: AppContext, error: ApiError): boolean {
  const req = scope.getStore();
  return req !== undefined && deferRefusal(ctx, req, 'cross-team', error);
}

/** The refusal to answer instead of the request's result, if one was kept. */
export const deferredRefusal = (req: FastifyRequest): ApiError | undefined => (req as Deferring)[DEFERRED];

/**
 * An authentication refusal under its applied-when-refused fault: the principal to go on with
 * (team A for a missing key; the key's own team, every scope, for a missing scope), the refusal kept.
 */
export function liftAuthRefusal(ctx: AppContext, req: FastifyRequest, err: ApiError): Principal | undefined {
  if (err.code === 'unauthorized') return deferRefusal(ctx, req, 'no-key', err) ? Authenticator.TEAM_A_FALLBACK : undefined;
  if (err.code !== 'forbidden') return undefined;
  const own = ctx.auth.principalOf(req.headers.authorization);
  return own && deferRefusal(ctx, req, 'read-only', err) ? { ...own, scopes: Authenticator.TEAM_A_FALLBACK.scopes } : undefined;
}
