// The list families of mock/fault-families.ts, for the page being built: which one applies to
// this request's operation and filters, and what it changes — nothing unless one is active.
import type { AppContext } from './context.js';
import { notFound } from './errors.js';
import { deletedStillListed, leakCursor, leakFilter, leakSearch, limitIgnoredAfterFirstPage, pageBoundaryRepeats } from './fault-families.js';
import type { FaultName } from './faults.js';
import type { TeamId } from './store.js';

export interface ListFaultEffects {
  /** The page draws from every team's records (a search or a filter that ignores the team). */
  allTeams: boolean;
  /** Deleted records are still shown. */
  keepRemoved: boolean;
  /** A page after the first has the default size, whatever limit says. */
  limitAfterFirst: boolean;
  /** Cursors carry the team they were issued to, and the page follows that team. */
  cursorTeam: boolean;
  /** Each page after the first starts with the last item of the page before. */
  boundaryRepeats: boolean;
}

const ID_FILTERS = ['project_id', 'employee_id', 'entity_id'];

export function listFaultEffects(ctx: AppContext, op: string, query: Record<string, unknown>): ListFaultEffects | undefined {
  const on = (name: FaultName) => ctx.faults.on(name);
  if (ctx.faults.active === undefined) return undefined;
  const filters = ID_FILTERS.filter((f) => query[f] !== undefined && query[f] !== '');
  // the view a request asks for: the plain list, or the list filtered by each id it gives
  const views = filters.length ? filters.map((f) => `${op}?${f}`) : [op];
  return {
    allTeams: (query.q !== undefined && query.q !== '' && on(leakSearch(op))) || views.some((v) => on(leakFilter(v))),
    keepRemoved: views.some((v) => on(deletedStillListed(v))),
    limitAfterFirst: on(limitIgnoredAfterFirstPage(op)),
    cursorTeam: on(leakCursor(op)),
    boundaryRepeats: views.some((v) => on(pageBoundaryRepeats(v))),
  };
}

/**
 * filter-other-team-distinguishable: a list filtered by the id of another team's record answers
 * 404, while the same filter naming no record answers an empty page — which tells the caller the
 * other team's id exists.
 */
export function refuseOtherTeamsFilter(ctx: AppContext, team: TeamId, query: Record<string, unknown>): void {
  if (!ctx.faults.on('filter-other-team-distinguishable')) return;
  const ids = ID_FILTERS.map((f) => query[f]).filter((v): v is string => typeof v === 'string' && v !== '');
  const cols = Object.values(ctx.store.collections);
  if (ids.some((id) => cols.some((col) => col.get(team, id, true) !== undefined && col.get(team, id) === undefined))) throw notFound();
}
