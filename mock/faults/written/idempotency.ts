// Written faults of idempotency (§4 "Every mutating endpoint takes an optional header
// idempotency-key"; upload rules 2 and 3).
import { badRequest } from '../../reference/errors.js';
import type { Claim } from '../../reference/idempotency-store.js';
import { fault } from '../fault.js';

/** A claim that holds nothing: the key is not held while the request runs, and its answer is not kept. */
const NO_CLAIM: Claim = { kind: 'claimed', complete() {}, release() {} };

export const idempotencyFaults = [
  fault('replay-missing', ['IDEM-REPLAY', 'UPLOAD-IDEM-REPLAY'], 'idempotency keys are ignored: a retry creates again', () => ({
    idempotency: { claim: async () => NO_CLAIM },
  })),
  fault('idem-422-missing', ['UPLOAD-IDEM-DIFFERENT-FILE-422', 'ERR-IDEM-DIFFERENT-FILE'], 'a reused key with a different request replays the first response',
    () => ({
      // the fingerprint is the path alone: any request to it with the key replays the first
      idempotency: { fingerprint: (_ex, parts) => parts.slice(0, 1) },
    })),
  fault('idem-key-dropped-on-refusal', ['IDEM-REPLAY', 'UPLOAD-IDEM-REPLAY'],
    'refusing a reused key with another request forgets the key: the first request, sent again, runs again', (ctx) => ({
      idempotency: {
        reused: (_ex, _refusal, { scope, key }) => {
          ctx.idem.forget(scope, key);
          return 'refuse';
        },
      },
    })),
  fault('idem-header-rejected', ['IDEM-HEADER-ACCEPTED'], 'requests carrying an idempotency-key header answer 400', () => ({
    handle: (ex, next) => {
      if (ex.idempotencyKey !== undefined) throw badRequest('Unexpected header', { 'idempotency-key': 'is not supported' });
      return next();
    },
  })),
  fault('idempotency-key-across-teams', ['ISO-IDEMPOTENCY-PER-TEAM'],
    "idempotency keys are not scoped by team: another team's request with the same key gets this team's answer", () => ({
      idempotency: { scope: (ex, scope) => scope.filter((part) => part !== ex.principal.team) },
    })),
] as const;
