// Employees (§4): POST and PATCH; §4 shows no GET or list of employees, so none exist.
import { findOwn } from '../lookup.js';
import type { RouteHandler } from '../pipeline.js';
import { nowIso, type Row } from '../store.js';
import { createdStatus, newId, patchedRow, pick, raw, writableFields } from './common.js';

export const employeeRoutes: RouteHandler[] = [
  {
    operationId: 'createEmployee',
    scope: 'employees:write',
    body: 'employee-create',
    handler: (ctx, { principal, body }) => {
      const now = nowIso();
      const row: Row = { skills: [], is_active: true, ...pick(body, writableFields('employee-create')), id: newId(ctx), created_at: now, updated_at: now };
      return raw(createdStatus(ctx), ctx.render.employee(ctx.store.collections.employees.put(principal.team, row)));
    },
  },
  {
    operationId: 'updateEmployee',
    scope: 'employees:write',
    body: 'employee-patch',
    handler: (ctx, ex) => {
      const col = ctx.store.collections.employees;
      const e = findOwn(ctx, ex, col, ex.params.id!, 'write');
      return raw(200, ctx.render.employee(col.replace(e, patchedRow(e.row, ex.body, 'employee-patch'))));
    },
  },
];
