// Capture intake (§1), at the chosen path POST /intake/captures.
// Body: { source: string, external_id: string, thread?: object, url?, title?, ... }.
// Deduplicates on (team, source, external_id): the first capture answers 201 with a
// pending review item; a repeat answers 200 with the same item ("A repeat capture of the same
// thread returns the existing item with status 200 instead of creating another"). The proposed
// mapping names the team's project whose source_external_id equals external_id (else null).
import { badRequest } from '../errors.js';
import { checkInput, type RouteHandler } from '../pipeline.js';
import { nowIso, type Row } from '../store.js';
import { createdStatus, json, newId } from './common.js';

/** The thread a capture is of, within its team: (source, external_id), as a JSON array (no separator a part could contain). */
export const threadKey = (body: Record<string, unknown>): string => JSON.stringify([body.source, body.external_id]);

export const intakeRoutes: RouteHandler[] = [
  {
    operationId: 'createCapture',
    scope: 'captures:write',
    handler: (ctx, ex) => {
      const { principal, body } = ex;
      checkInput(ctx, ex, () => {
        const detail: Record<string, string> = {};
        for (const k of ['source', 'external_id']) if (typeof body[k] !== 'string' || body[k] === '') detail[k] = 'required non-empty string';
        if (body.thread !== undefined && (typeof body.thread !== 'object' || body.thread === null || Array.isArray(body.thread))) {
          detail.thread = 'must be an object';
        }
        if (Object.keys(detail).length) throw badRequest('The capture is invalid', detail);
      });
      const col = ctx.store.collections.captures;
      const team = principal.team;
      const thread = threadKey(body);
      const existing = col.entries(team).find((e) => e.extra.thread === thread);
      if (existing) return json(200, existing.row);
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
      col.put(team, row, { thread });
      return json(createdStatus(ctx), row);
    },
  },
];
