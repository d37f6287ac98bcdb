// Finding a record within the caller's team, by path id or by a body's reference. Another team's
// record is answered exactly like a missing id (§1 "A record that belongs to another team is
// reported as missing, the same as an id that does not exist", §4): the same 404 not_found, byte
// for byte; a body reference to one is the same 400 as a reference to nothing.
import type { AppContext } from './context.js';
import { badRequest, notFound } from './errors.js';
import type { Exchange } from './exchange.js';
import type { Access, Find } from './hooks.js';
import type { Collection, Entry } from './store.js';

function find(ctx: AppContext, ex: Exchange, f: Find, refuse: () => Error): Entry {
  const next = (): Entry => {
    const own = f.collection.get(ex.principal.team, f.id);
    if (!own) throw refuse();
    return own;
  };
  return ctx.hooks.lookup ? ctx.hooks.lookup(ex, f, next) : next();
}

/** The caller's record a path id names, or 404 not_found. */
export function findOwn(ctx: AppContext, ex: Exchange, collection: Collection, id: string, access: Exclude<Access, 'reference'>): Entry {
  return find(ctx, ex, { collection, id, access }, notFound);
}

/** The field a reference to a record of `collection` is given in (employee_id, project_id, entity_id). */
const referenceField = (collection: Collection): string => `${collection.name.replace(/s$/, '')}_id`;

/** The caller's record a body's reference names (employee_id, project_id, entity_id), or 400 bad_request with detail. */
export function ownReference(ctx: AppContext, ex: Exchange, collection: Collection, id: string, field = referenceField(collection)): Entry {
  const refusal = () => badRequest('Unknown reference', { [field]: `no such ${collection.name.replace(/s$/, '')}` });
  return find(ctx, ex, { collection, id: id.toLowerCase(), access: 'reference', field }, refusal);
}
