// Projects (§4): the PATCH with the §3 state rules (list and get by id are generic.ts's).
// Readings: a stage change is written as `stage` ({ id } or { key }, or a key string),
// or `stage_id` / `stage_key`; archiving is PATCH `archived_at` (a timestamp) or
// `status: "archived"`; closing is PATCH with `close_reason`, `close_reason_category`,
// `closed_at` or `status: "closed"`; unarchiving is a `status` other than archived. A null is
// refused on every field §2 does not type as nullable (all of a project's writable fields), as
// on every other write. Server-managed fields (id, created_at, updated_at, stage_changed_at,
// archived_from_*) are ignored in bodies; updated_at is bumped.
import { validate } from '../../../specs/index.js';
import type { AppContext } from '../context.js';
import { unreadableDates } from '../dates.js';
import { badRequest } from '../errors.js';
import { findOwn } from '../lookup.js';
import { checkInput, type RouteHandler } from '../pipeline.js';
import { findStage, nowIso, type Row, type TeamId } from '../store.js';
import { pick, raw, writableFields } from './common.js';

function stageRef(body: Record<string, unknown>): { id?: unknown; key?: unknown; } | undefined {
  const s = body.stage;
  if (typeof s === 'string') return { key: s };
  if (s && typeof s === 'object') return { id: (s as Row).id, key: (s as Row).key };
  if (body.stage_id !== undefined) return { id: body.stage_id };
  if (body.stage_key !== undefined) return { key: body.stage_key };
  return undefined;
}

/** The body validated against specs/schemas/project-patch.json: a null is refused where the field is not typed nullable. */
function checkPatchBody(body: Record<string, unknown>): void {
  const res = validate('project-patch', body);
  const dates = unreadableDates('project-patch', body);
  if (res.valid && Object.keys(dates).length === 0) return;
  const detail: Record<string, string> = { ...dates };
  for (const e of res.errors) detail[e.path.replace(/^\//, '').replace(/\//g, '.') || 'body'] ??= e.message;
  throw badRequest('The request body is invalid', detail);
}

export function applyProjectPatch(ctx: AppContext, team: TeamId, cur: Row, body: Record<string, unknown>): Row {
  const now = nowIso();
  const next: Row = { ...cur, ...pick(body, writableFields('project-patch')) };
  const ref = stageRef(body);
  if (ref) {
    const stage = findStage(ctx.store, team, ref);
    if (!stage) throw badRequest('Unknown stage', { stage: 'must name a stage of this team by id or key' });
    if (stage.id !== (cur.stage as Row | undefined)?.id) {
      next.stage = stage;
      next.stage_changed_at = now;
    }
  }
  const archiving = !cur.archived_at && (typeof body.archived_at === 'string' || body.status === 'archived');
  if (archiving) {
    next.archived_at = typeof body.archived_at === 'string' ? body.archived_at : now;
    next.status = 'archived';
    if (cur.stage) next.archived_from_stage = cur.stage;
    if (cur.status !== undefined) next.archived_from_status = cur.status;
  } else if (cur.archived_at && typeof body.status === 'string' && body.status !== 'archived') {
    delete next.archived_at; // unarchived by a status change; the archived_from_* record stays
  }
  const closing = ['close_reason', 'close_reason_category', 'closed_at'].some((k) => body[k] !== undefined) || body.status === 'closed';
  if (closing) {
    const kept = (k: string, fallback: unknown) => body[k] ?? cur[k] ?? fallback;
    next.closed_at = typeof body.closed_at === 'string' ? body.closed_at : now;
    next.close_reason = kept('close_reason', '');
    next.close_reason_category = kept('close_reason_category', 'other');
    for (const k of ['close_reason', 'close_reason_category']) if (next[k] === undefined) delete next[k];
    if (body.status === undefined && !archiving) next.status = 'closed';
  }
  next.id = cur.id;
  next.created_at = cur.created_at;
  next.updated_at = now;
  return next;
}

/** The project's own rules: the PATCH of §3 (stage and state transitions). List and get are generic. */
export const projectRoutes: RouteHandler[] = [
  {
    // The body is checked here rather than by the route (body: 'project-patch'), before the §3 rules read it.
    operationId: 'updateProject',
    scope: 'projects:write',
    legacyErrors: true,
    handler: (ctx, ex) => {
      checkInput(ctx, ex, () => checkPatchBody(ex.body));
      const col = ctx.store.collections.projects;
      const e = findOwn(ctx, ex, col, ex.params.id!, 'write');
      return raw(200, ctx.render.project(col.replace(e, applyProjectPatch(ctx, e.team, e.row, ex.body))));
    },
  },
];
