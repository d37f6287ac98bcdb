// Finding a record by path id within the caller's team. Another team's record is
// answered exactly like a missing id (§1, §4): the same 404 not_found, byte for byte.
// The isolation and id faults are the explicit branches below.
import type { AppContext } from './context.js';
import { ApiError, badRequest, notFound } from './errors.js';
import { deferCrossTeam } from './refusal-faults.js';
import type { Collection, Entry, TeamId } from './store.js';

export type Access = 'read' | 'write' | 'delete';

/** Hex digits of an id, ignoring the version and variant nibbles (malformed-id-accepted). */
const looseKey = (id: string): string => {
  const hex = id.toLowerCase().replace(/[^0-9a-f]/g, '').slice(0, 32);
  return hex.slice(0, 12) + hex.slice(13, 16) + hex.slice(17);
};

export function findOwn(ctx: AppContext, col: Collection, team: TeamId, id: string, access: Access): Entry {
  const f = ctx.faults;
  let own = col.get(team, id);
  if (!own && f.on('malformed-id-accepted')) own = col.entries(team).find((e) => looseKey(e.row.id) === looseKey(id));
  if (own) {
    if (access === 'read' && f.on('get-by-id-wrong-record')) return col.entries(team).find((e) => e !== own) ?? own;
    return own;
  }
  const other = col.get(team, id, true);
  if (other) {
    if (access === 'read' && f.on('other-team-readable')) return other;
    if (access === 'write' && f.on('other-team-patchable')) return other;
    if (access === 'delete' && f.on('other-team-deletable')) return other;
    if (access !== 'read' && deferCrossTeam(ctx, notFound())) return other;
    if (f.on('not-found-distinguishable')) throw new ApiError(403, 'forbidden', 'This record belongs to another team');
    if (f.on('not-found-says-other-team')) throw new ApiError(404, 'not_found', 'This record belongs to another team');
    if (f.on('not-found-leaks-record')) {
      throw new ApiError(404, 'not_found', 'Not found', { id: other.row.id, title: String(other.row.title ?? other.row.name ?? other.row.filename ?? '') });
    }
  }
  throw notFound();
}

/** A body reference (employee_id, project_id, entity_id) must name a record of the caller's team. */
export function ownReference(ctx: AppContext, col: Collection, team: TeamId, id: unknown): Entry | undefined {
  if (typeof id !== 'string') return undefined;
  const own = col.get(team, id, ctx.faults.on('cross-team-reference-accepted'));
  if (own) return own;
  const other = col.get(team, id, true);
  const field = `${col.name.replace(/s$/, '')}_id`;
  // refused with the status of a missing reference, but in words that say the record exists
  if (other && ctx.faults.on('reference-says-other-team')) {
    throw badRequest('The referenced record belongs to another team', { [field]: 'belongs to another team' });
  }
  return other && deferCrossTeam(ctx, badRequest('Unknown reference', { [field]: 'no such record' })) ? other : undefined;
}
