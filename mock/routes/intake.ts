// Capture intake (§1), at the chosen path POST /intake/captures.
// Body: { source: string, external_id: string, thread?: object, url?, title?, ... }.
// Deduplicates on (team, source, external_id): the first capture answers 201 with a
// pending review item; a repeat answers 200 with the same item. The proposed mapping
// names the team's project whose source_external_id equals external_id (else null).
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import type { Result, RouteHandlers } from '../route.js';
import { nowIso, type Row } from '../store.js';
import { createdStatus, json, newId } from './common.js';

/** The parts a capture is deduplicated on: exactly (source, external_id) within the team, or what a fault uses instead. */
function dedupeKey(ctx: AppContext, body: Record<string, unknown>): unknown[] {
  if (ctx.faults.on('capture-dedupe-on-external-id-only')) return [body.external_id];
  if (ctx.faults.on('capture-dedupe-includes-title')) return [body.source, body.external_id, body.title];
  return [body.source, body.external_id];
}

export const intakeRoutes: RouteHandlers = [
  {
    operationId: 'createCapture',
    scope: 'captures:write',
    handler: async (ctx, { principal, body }): Promise<Result> => {
      const detail: Record<string, string> = {};
      for (const k of ['source', 'external_id']) if (typeof body[k] !== 'string' || body[k] === '') detail[k] = 'required non-empty string';
      if (body.thread !== undefined && (typeof body.thread !== 'object' || body.thread === null || Array.isArray(body.thread))) {
        detail.thread = 'must be an object';
      }
      if (Object.keys(detail).length) throw badRequest('The capture is invalid', detail);
      const col = ctx.store.collections.captures;
      const team = principal.team;
      // A JSON array of the parts: no separator that a source or an external id could contain.
      const key = JSON.stringify(dedupeKey(ctx, body));
      if (!ctx.faults.on('capture-dedupe-broken')) {
        const crossTeam = ctx.faults.on('capture-dedupe-cross-team');
        const takenOver = ctx.faults.on('capture-dedupe-taken-over');
        const existing = col.entries(team, crossTeam || takenOver).find((e) => e.extra.dedupe === key);
        // the taken-over fault: one entry per (source, external_id) whichever the team; the last team to capture holds it
        if (existing && takenOver && existing.team !== team) existing.extra.dedupe = undefined;
        else if (existing) return json(ctx.faults.on('capture-repeat-status-wrong') ? 201 : 200, existing.row);
      }
      // the fault: no lock between looking for the thread and storing it
      if (ctx.faults.on('capture-concurrent-duplicates')) await new Promise((r) => setTimeout(r, 150));
      const project = ctx.store.collections.projects.entries(team).find((e) => e.row.source_external_id === body.external_id);
      const pid = project ? project.row.id : null;
      const row: Row = {
        id: newId(ctx),
        status: 'pending',
        source: body.source,
        external_id: body.external_id,
        proposed_project_id: pid,
        proposed_mapping: { project_id: pid, action: pid ? 'link' : 'create', confidence: pid ? 1 : 0 },
        created_at: nowIso(),
      };
      col.put(team, row, { dedupe: key });
      return json(createdStatus(ctx), row);
    },
  },
];
