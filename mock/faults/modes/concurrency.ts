// Concurrency and the idempotency key's scope: request state shared between concurrent requests, a
// lost update between concurrent PATCHes, an in-flight request run twice; a key matched without
// its operation or its body, checked after the handler ran, or before authentication.
import type { Principal } from '../../reference/auth.js';
import type { Exchange, Result } from '../../reference/exchange.js';
import type { Claim } from '../../reference/idempotency-store.js';
import type { Row } from '../../reference/store.js';
import { collectionOf } from '../records.js';
import { letThrough } from '../refusals.js';
import { before } from '../writes.js';
import type { OperationElement } from './elements.js';
import { mine, type Mode, mode, pause } from './mode.js';

/** A claim that holds nothing: the key is not held while the request runs, and its answer not kept. */
const NO_CLAIM: Claim = { kind: 'claimed', complete() {}, release() {} };

/** How long a request waits where a race can meet it. */
const WINDOW_MS = 25;

const SERVER_FIELDS = new Set(['id', 'created_at', 'updated_at']);
const mutating = (r: OperationElement) => r.op.method !== 'get';

export const concurrencyModes: Mode[] = [
  mode<'route'>({
    category: 'concurrency',
    mode: 'request-state-shared',
    kind: 'route',
    requirements: (r) => (r.op.kind === 'list' ? ['ISO-LIST-OWN-TEAM-ONLY'] : ['ISO-OTHER-TEAM-AS-MISSING', 'ISO-GET-OTHER-TEAM-404']),
    words: (r) => `${r.op.op} keeps the caller in a module variable: a request that overlaps another is served as the first one's team`,
    hooks: (r) => {
      let current: Principal | undefined;
      let inFlight = 0;
      return {
        authenticate: (ex, next) => {
          const p = next();
          if (!mine(r.op.op)(ex)) return p;
          inFlight += 1;
          if (inFlight > 1 && current) return current;
          current = p;
          return p;
        },
        respond: (ex, a) => {
          if (mine(r.op.op)(ex) && inFlight > 0 && ex.principal.scopes.size > 0) {
            inFlight -= 1;
            if (inFlight === 0) current = undefined;
          }
          return a;
        },
        handle: async (ex, next) => {
          if (mine(r.op.op)(ex)) await pause(WINDOW_MS);
          return next();
        },
      };
    },
  }),
  mode<'route'>({
    category: 'concurrency',
    mode: 'lost-update',
    kind: 'route',
    applies: (r) => r.op.kind === 'patch',
    requirements: () => ['EP-PATCH-PERSISTS'],
    words: (r) => `${r.op.op} reads the record, waits, and writes back all of it: of two concurrent PATCHes, the second undoes the first`,
    hooks: (r, ctx) => ({
      handle: async (ex, next) => {
        if (!mine(r.op.op)(ex)) return next();
        const snapshot = before(ctx, ex);
        await pause(WINDOW_MS);
        const result = await next();
        const col = collectionOf(ctx, r.op.op);
        const entry = snapshot && col?.get(ex.principal.team, snapshot.row.id);
        if (!snapshot || !entry || result.status >= 300) return result;
        const row: Row = { ...entry.row };
        let changed = false;
        for (const [k, v] of Object.entries(snapshot.row)) {
          if (k in ex.body || SERVER_FIELDS.has(k) || JSON.stringify(row[k]) === JSON.stringify(v)) continue;
          row[k] = v;
          changed = true;
        }
        if (changed) col!.replace(entry, row);
        return result;
      },
    }),
  }),
  mode<'route'>({
    category: 'concurrency',
    mode: 'in-flight-run-twice',
    kind: 'route',
    applies: mutating,
    requirements: () => ['IDEM-REPLAY'],
    words: (r) => `${r.op.op} holds no lock on a key while its request runs: a retry in flight runs again`,
    hooks: (r) => ({
      idempotency: {
        claim: async (ex, _scope, _key, next) => {
          if (!mine(r.op.op)(ex)) return next();
          const claim = next();
          if (claim.kind !== 'in-flight') {
            await pause(WINDOW_MS);
            return claim;
          }
          return NO_CLAIM;
        },
      },
    }),
  }),
];

export const idempotencyModes: Mode[] = [
  mode<'route'>({
    category: 'idempotency',
    mode: 'key-without-operation',
    kind: 'route',
    // the operation's own requests alone are keyed without it, and a create's path is always the
    // same: only a request on another record (its id in the path) tells the fault
    applies: (r) => mutating(r) && r.op.path.includes('{id}'),
    requirements: () => ['IDEM-REPLAY'],
    words: (r) => `${r.op.op} keys its idempotency records by team and key alone: a key used on another operation replays that one's answer`,
    hooks: (r) => ({
      idempotency: {
        scope: (ex, scope) => (mine(r.op.op)(ex) ? scope.filter((p) => p !== ex.operationId) : scope),
        fingerprint: (ex, parts) => (mine(r.op.op)(ex) ? parts.slice(1) : parts),
      },
    }),
  }),
  mode<'route'>({
    category: 'idempotency',
    mode: 'key-without-body',
    kind: 'route',
    // a DELETE has no body to leave out
    applies: (r) => mutating(r) && r.op.kind !== 'delete',
    requirements: (r) => (r.op.multipart ? ['UPLOAD-IDEM-DIFFERENT-FILE-422', 'IDEM-REPLAY'] : ['IDEM-REPLAY']),
    words: (r) => `${r.op.op} matches a key without its body: the same key with another request replays the first answer`,
    hooks: (r) => ({ idempotency: { fingerprint: (ex, parts) => (mine(r.op.op)(ex) ? parts.slice(0, 1) : parts) } }),
  }),
  mode<'route'>({
    category: 'idempotency',
    mode: 'key-checked-after-handler',
    kind: 'route',
    applies: mutating,
    requirements: () => ['IDEM-REPLAY'],
    words: (r) => `${r.op.op} runs the request, then looks its key up: a retry answers the stored response but has run again`,
    hooks: (r) => {
      const replays = new WeakMap<Exchange, Claim>();
      return {
        idempotency: {
          claim: async (ex, _scope, _key, next) => {
            const claim = next();
            if (!mine(r.op.op)(ex) || claim.kind !== 'replay') return claim;
            replays.set(ex, claim);
            return NO_CLAIM;
          },
        },
        handle: async (ex, next): Promise<Result> => {
          const own = await next();
          const replay = replays.get(ex);
          return replay?.kind === 'replay' ? { ...replay.response, replayed: true } : own;
        },
      };
    },
  }),
  mode<'route'>({
    category: 'idempotency',
    mode: 'key-before-authentication',
    kind: 'route',
    applies: mutating,
    requirements: () => ['AUTH-BEARER-REQUIRED', 'AUTH-INVALID-KEY-NOT-SERVED'],
    words: (r) => `${r.op.op} looks its idempotency key up before authentication: a replay is served to a request without a valid API key`,
    hooks: (r) => {
      const keyed = new Map<string, Principal>();
      return {
        authenticate: (ex, next) => {
          if (!mine(r.op.op)(ex)) return next();
          const key = ex.headers['idempotency-key'];
          return letThrough(() => {
            const p = next();
            if (typeof key === 'string' && key !== '') keyed.set(key, p);
            return p;
          }, (err) => {
            const p = typeof key === 'string' ? keyed.get(key) : undefined;
            if (!p) throw err;
            return p;
          });
        },
      };
    },
  }),
];
