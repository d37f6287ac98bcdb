// Assignments (§4): list (filtered by project_id and employee_id), get, create, patch, delete.
// References in bodies (employee_id, project_id) must name records of the caller's team;
// otherwise 400 bad_request with detail, exactly as for an id that does not exist.
import type { AppContext } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import type { Exchange } from '../exchange.js';
import { filtersOf, listPage, SORT_FIELDS } from '../lists.js';
import { findOwn, ownReference } from '../lookup.js';
import type { RouteHandler } from '../pipeline.js';
import { nowIso, type Row } from '../store.js';
import { createdStatus, deleteResult, newId, patchedRow, pick, raw, writableFields } from './common.js';

/** Every reference of the body checked; the refusal names each one that names no record of the team. */
function checkReferences(ctx: AppContext, ex: Exchange): void {
  const c = ctx.store.collections;
  const detail: Record<string, string> = {};
  for (const [field, col] of [['employee_id', c.employees], ['project_id', c.projects]] as const) {
    const id = ex.body[field];
    if (typeof id !== 'string') continue;
    try {
      ownReference(ctx, ex, col, id, field);
    } catch (err) {
      if (!(err instanceof ApiError) || !err.detail) throw err;
      Object.assign(detail, err.detail);
    }
  }
  if (Object.keys(detail).length) throw badRequest('Unknown reference', detail);
}

const lowerIds = (row: Row): Row => {
  for (const k of ['employee_id', 'project_id']) if (typeof row[k] === 'string') row[k] = (row[k] as string).toLowerCase();
  return row;
};

export const assignmentRoutes: RouteHandler[] = [
  {
    operationId: 'listAssignments',
    scope: 'assignments:read',
    kind: 'read',
    handler: (ctx, ex) =>
      listPage(ctx, ex, {
        col: ctx.store.collections.assignments,
        sortFields: SORT_FIELDS.assignments,
        searchField: 'role',
        filters: filtersOf(ex.query, ['project_id', 'employee_id']),
        dependsOn: [ctx.store.collections.employees],
        view: (e) => ctx.render.assignment(e),
      }),
  },
  {
    operationId: 'getAssignment',
    scope: 'assignments:read',
    kind: 'read',
    handler: (ctx, ex) => raw(200, ctx.render.assignment(findOwn(ctx, ex, ctx.store.collections.assignments, ex.params.id!, 'read'))),
  },
  {
    operationId: 'createAssignment',
    scope: 'assignments:write',
    body: 'assignment-create',
    handler: (ctx, ex) => {
      checkReferences(ctx, ex);
      const now = nowIso();
      const row: Row = lowerIds({ ...pick(ex.body, writableFields('assignment-create')), id: newId(ctx), created_at: now, updated_at: now });
      return raw(createdStatus(ctx), ctx.render.assignment(ctx.store.collections.assignments.put(ex.principal.team, row)));
    },
  },
  {
    operationId: 'updateAssignment',
    scope: 'assignments:write',
    body: 'assignment-patch',
    handler: (ctx, ex) => {
      const col = ctx.store.collections.assignments;
      const e = findOwn(ctx, ex, col, ex.params.id!, 'write');
      checkReferences(ctx, ex);
      return raw(200, ctx.render.assignment(col.replace(e, lowerIds(patchedRow(e.row, ex.body, 'assignment-patch')))));
    },
  },
  {
    operationId: 'deleteAssignment',
    scope: 'assignments:write',
    handler: (ctx, ex) => {
      const col = ctx.store.collections.assignments;
      col.delete(findOwn(ctx, ex, col, ex.params.id!, 'delete'));
      return deleteResult();
    },
  },
];
