// Written faults of authentication, scopes and plans (§5).
import { ALL_SCOPES, BEARER } from '../../reference/auth.js';
import type { Principal } from '../../reference/auth.js';
import type { AppContext } from '../../reference/context.js';
import { type ApiError, notFound } from '../../reference/errors.js';
import type { Exchange } from '../../reference/exchange.js';
import type { Hooks } from '../../reference/hooks.js';
import { fault } from '../fault.js';
import { collectionOf } from '../records.js';
import { letThrough, TEAM_A } from '../refusals.js';

/** An authenticate hook serving `instead(...)` where the reference refuses with `code` (undefined: refused still). */
const lift = (code: string, instead: (ex: Exchange, refusal: ApiError) => Principal | undefined): NonNullable<Hooks['authenticate']> => (ex, next) =>
  letThrough(next, (err) => {
    const p = err.code === code ? instead(ex, err) : undefined;
    if (!p) throw err;
    return p;
  });

const teamA = () => TEAM_A(ALL_SCOPES);
const ownKey = (ctx: AppContext) => (ex: Exchange) => ctx.auth.principalOf(ex.headers.authorization);

export const authFaults = [
  fault('auth-not-enforced', ['AUTH-BEARER-REQUIRED', 'AUTH-INVALID-KEY-NOT-SERVED'], 'requests without a key are served as team A', () => ({
    authenticate: lift('unauthorized', teamA),
  })),
  fault('invalid-key-accepted', ['AUTH-INVALID-KEY-NOT-SERVED'], 'any non-empty unknown bearer token is served as team A', () => ({
    authenticate: lift('unauthorized', (ex) => (BEARER.test(ex.headers.authorization ?? '') ? teamA() : undefined)),
  })),
  fault('file-reads-unauthenticated', ['AUTH-BEARER-REQUIRED', 'AUTH-INVALID-KEY-NOT-SERVED'],
    "GET /files/{id} and the attachment download skip authentication: without a key or with any key they serve team A's record", () => ({
      authenticate: lift('unauthorized', (ex) => (['getFile', 'downloadAttachment'].includes(ex.operationId) ? teamA() : undefined)),
    })),
  fault('scope-not-enforced', ['AUTH-READ-ONLY-KEY-NO-WRITE'], 'the read-only key may mutate', (ctx) => ({ authenticate: lift('forbidden', ownKey(ctx)) })),
  fault('plan-not-enforced', ['AUTH-PLAN-NO-API-ACCESS', 'LIMIT-PLAN-ERROR-FIELDS'], 'the key of the plan without API access is served', (ctx) => ({
    authenticate: lift('plan_limit_exceeded', ownKey(ctx)),
  })),
  fault('auth-after-lookup', ['AUTH-BEARER-REQUIRED', 'ISO-OTHER-TEAM-NO-EXISTENCE-LEAK'],
    "the record a path id names is looked up before the key is checked: without a key a missing id answers 404, an existing one (any team's) 401", (ctx) => ({
      authenticate: (ex, next) =>
        letThrough(next, (err) => {
          const id = ex.params.id;
          if (err.status === 401 && id !== undefined && !collectionOf(ctx, ex.operationId)?.find(id)) throw notFound();
          throw err;
        }),
    })),
] as const;
