// Written faults of requests in flight together: the mistakes a server makes when two requests meet
// between an await and the next — a read-modify-write that saves its stale copy over a concurrent
// update, and request state kept where every request shares it.
import type { Principal } from '../../reference/auth.js';
import { fault, only } from '../fault.js';
import { collectionOf, operationsOf } from '../records.js';

const PATCHES = only(operationsOf('patch'));
const WRITES = only([...operationsOf('post'), ...operationsOf('patch')]);
/** The window between reading and writing in which a concurrent request lands. */
const WINDOW_MS = 80;
const pause = () => new Promise((done) => setTimeout(done, WINDOW_MS));

export const concurrencyFaults = [
  fault('patch-lost-update', ['EP-PATCH-PERSISTS', 'EP-PATCH-PARTIAL'],
    'a PATCH reads the record, awaits, then saves its whole copy with the named fields set: a PATCH of another field that landed meanwhile is lost', (ctx) => ({
      handle: async (ex, next) => {
        const col = collectionOf(ctx, ex.operationId);
        const read = PATCHES(ex.operationId) && col && ex.params.id !== undefined ? col.get(ex.principal.team, ex.params.id) : undefined;
        if (!col || !read || Object.keys(ex.body).length === 0) return next();
        const stale = { ...read.row };
        await pause();
        const result = await next();
        const now = col.get(ex.principal.team, ex.params.id!);
        if (now && result.status < 300) {
          const kept = Object.fromEntries(Object.keys(ex.body).concat('updated_at').filter((k) => k in now.row).map((k) => [k, now.row[k]]));
          col.replace(now, { ...stale, ...kept });
        }
        return result;
      },
    })),
  fault('request-principal-shared', ['ISO-LIST-OWN-TEAM-ONLY', 'ISO-OTHER-TEAM-AS-MISSING'],
    'the caller is kept in one module-level variable: a write that awaits runs as whoever authenticated last, another team if its request came in between',
    () => {
      let last: Principal | undefined;
      return {
        authenticate: (_ex, next) => (last = next()),
        handle: async (ex, next) => {
          if (!WRITES(ex.operationId)) return next();
          await pause();
          if (last) ex.principal = last;
          return next();
        },
      };
    }),
] as const;
