// Employees (POST, PATCH — §4 shows no GET or list), assignments (list, get, create,
// patch, delete) and CVs (list). References in bodies (employee_id, project_id) must
// name records of the caller's team; otherwise 400 bad_request with detail, exactly as
// for an id that does not exist.
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { findOwn, ownReference } from '../lookup.js';
import type { Input, Result, RouteHandlers } from '../route.js';
import { nowIso, type Row } from '../store.js';
import { createdStatus, deleteResult, newId, pick, raw, writableFields } from './common.js';
import { idFilter, listPage, SORT_FIELDS } from './list.js';

function checkRefs(ctx: AppContext, input: Input, body: Record<string, unknown>): void {
  const c = ctx.store.collections;
  const team = input.principal.team;
  const detail: Record<string, string> = {};
  if (body.employee_id !== undefined && !ownReference(ctx, c.employees, team, body.employee_id)) detail.employee_id = 'no such employee';
  if (body.project_id !== undefined && !ownReference(ctx, c.projects, team, body.project_id)) detail.project_id = 'no such project';
  if (Object.keys(detail).length) throw badRequest('Unknown reference', detail);
}

function patchRow(ctx: AppContext, cur: Row, body: Record<string, unknown>, schemaName: 'employee-patch' | 'assignment-patch' | 'organization-patch'): Row {
  return { ...cur, ...pick(body, writableFields(schemaName)), id: cur.id, created_at: cur.created_at, updated_at: nowIso() };
}

export const employeeRoutes: RouteHandlers = [
  {
    operationId: 'createEmployee',
    scope: 'employees:write',
    body: 'employee-create',
    handler: (ctx, { principal, body }): Result => {
      const now = nowIso();
      const row: Row = { skills: [], is_active: true, ...pick(body, writableFields('employee-create')), id: newId(ctx), created_at: now, updated_at: now };
      if (ctx.faults.on('create-fields-dropped')) row.first_name = 'Unnamed';
      return raw(createdStatus(ctx), ctx.views.employee(ctx.store.collections.employees.put(principal.team, row)));
    },
  },
  {
    operationId: 'updateEmployee',
    scope: 'employees:write',
    body: 'employee-patch',
    handler: (ctx, { principal, params, body }): Result => {
      const col = ctx.store.collections.employees;
      const e = findOwn(ctx, col, principal.team, params.id!, 'write');
      if (ctx.faults.on('patch-ignored')) return raw(200, ctx.views.employee(e));
      const next = patchRow(ctx, e.row, body, 'employee-patch');
      if (ctx.faults.on('is-active-not-persisted')) next.is_active = e.row.is_active;
      return raw(200, ctx.views.employee(ctx.faults.on('patch-not-persisted') ? { ...e, row: next } : col.replace(e, next)));
    },
  },
];

export const assignmentRoutes: RouteHandlers = [
  {
    operationId: 'listAssignments',
    scope: 'assignments:read',
    kind: 'read',
    handler: (ctx, input) => {
      const employeeId = idFilter(input.query, 'employee_id');
      const given = idFilter(input.query, 'project_id');
      const projectId = employeeId !== undefined && ctx.faults.on('assignments-filter-combined-ignores-project') ? undefined : given;
      const ignore = ctx.faults.on('list-filter-ignored');
      return listPage(ctx, input, {
        col: ctx.store.collections.assignments,
        sortFields: SORT_FIELDS.assignments,
        searchField: 'role',
        dependsOn: [ctx.store.collections.employees],
        filtered: given !== undefined || employeeId !== undefined,
        filter: ignore ? undefined : (e) => (!projectId || e.row.project_id === projectId) && (!employeeId || e.row.employee_id === employeeId),
        view: (e) => ctx.views.assignment(e),
      });
    },
  },
  {
    operationId: 'getAssignment',
    scope: 'assignments:read',
    kind: 'read',
    handler: (ctx, { principal, params }) =>
      raw(200, ctx.views.assignment(findOwn(ctx, ctx.store.collections.assignments, principal.team, params.id!, 'read'))),
  },
  {
    operationId: 'createAssignment',
    scope: 'assignments:write',
    body: 'assignment-create',
    handler: (ctx, input): Result => {
      checkRefs(ctx, input, input.body);
      const now = nowIso();
      const row: Row = { ...pick(input.body, writableFields('assignment-create')), id: newId(ctx), created_at: now, updated_at: now };
      if (typeof row.employee_id === 'string') row.employee_id = row.employee_id.toLowerCase();
      if (typeof row.project_id === 'string') row.project_id = row.project_id.toLowerCase();
      if (ctx.faults.on('create-fields-dropped')) delete row.project_id;
      return raw(createdStatus(ctx), ctx.views.assignment(ctx.store.collections.assignments.put(input.principal.team, row)));
    },
  },
  {
    operationId: 'updateAssignment',
    scope: 'assignments:write',
    body: 'assignment-patch',
    handler: (ctx, input): Result => {
      const col = ctx.store.collections.assignments;
      const e = findOwn(ctx, col, input.principal.team, input.params.id!, 'write');
      checkRefs(ctx, input, input.body);
      if (ctx.faults.on('patch-ignored')) return raw(200, ctx.views.assignment(e));
      const next = patchRow(ctx, e.row, input.body, 'assignment-patch');
      return raw(200, ctx.views.assignment(ctx.faults.on('patch-not-persisted') ? { ...e, row: next } : col.replace(e, next)));
    },
  },
  {
    operationId: 'deleteAssignment',
    scope: 'assignments:write',
    handler: (ctx, { principal, params }): Result => {
      const col = ctx.store.collections.assignments;
      const e = findOwn(ctx, col, principal.team, params.id!, 'delete');
      if (!ctx.faults.on('delete-not-removing')) col.delete(e);
      return deleteResult(ctx);
    },
  },
];

export const cvRoutes: RouteHandlers = [
  {
    operationId: 'listCvs',
    scope: 'cvs:read',
    kind: 'read',
    handler: (ctx, input) => {
      const employeeId = idFilter(input.query, 'employee_id');
      const ignore = ctx.faults.on('list-filter-ignored');
      return listPage(ctx, input, {
        col: ctx.store.collections.cvs,
        sortFields: SORT_FIELDS.cvs,
        searchField: 'name',
        secondary: true,
        filtered: employeeId !== undefined,
        filter: ignore || !employeeId ? undefined : (e) => e.row.employee_id === employeeId,
        view: (e) => ctx.views.cv(e),
      });
    },
  },
];
