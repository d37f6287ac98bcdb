// Employees (§4): POST and PATCH; §4 shows no GET or list of employees, so none exist. The PATCH is
// generic.ts's; the create has a rule of its own (below).
import type { RouteHandler } from '../pipeline.js';
import { nowIso, type Row } from '../store.js';
import { createdStatus, newId, pick, raw, writableFields } from './common.js';

/**
 * §2 Employee shows `is_active` and `skills` on every employee and §3 reads `is_active`: a create
 * that leaves them out makes an active employee with no skills.
 */
export const employeeRoutes: RouteHandler[] = [
  {
    operationId: 'createEmployee',
    scope: 'employees:write',
    body: 'employee-create',
    handler: (ctx, { principal, body }) => {
      const now = nowIso();
      const row: Row = { skills: [], is_active: true, ...pick(body, writableFields('employee-create')), id: newId(ctx), created_at: now, updated_at: now };
      return raw(createdStatus(ctx), ctx.render.show('employee', ctx.store.collections.employees.put(principal.team, row)));
    },
  },
];
