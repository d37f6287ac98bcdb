// Organizations (§4): list, create (POST /organizations, the chosen path), PATCH.
// No GET by id and no DELETE are shown, so none exist. Addresses in bodies carry no
// id; the server assigns one to each address it stores.
import { randomUUID } from 'node:crypto';
import { findOwn } from '../lookup.js';
import type { Result, RouteHandlers } from '../route.js';
import { nowIso, type Row } from '../store.js';
import { createdStatus, newId, pick, raw, writableFields } from './common.js';
import { listPage, SORT_FIELDS } from './list.js';

function withAddressIds(addresses: unknown, previous: unknown): unknown[] | undefined {
  if (!Array.isArray(addresses)) return undefined;
  const prev = Array.isArray(previous) ? (previous as Row[]) : [];
  return addresses.map((a: Row, i) => ({ ...a, id: prev.find((p) => p.id === a.id)?.id ?? randomUUID(), is_default: a.is_default ?? i === 0 }));
}

export const organizationRoutes: RouteHandlers = [
  {
    operationId: 'listOrganizations',
    scope: 'organizations:read',
    legacyErrors: true,
    kind: 'read',
    handler: (ctx, input) =>
      listPage(ctx, input, {
        col: ctx.store.collections.organizations,
        sortFields: SORT_FIELDS.organizations,
        searchField: 'name',
        view: (e) => ctx.views.organization(e),
      }),
  },
  {
    operationId: 'createOrganization',
    scope: 'organizations:write',
    body: 'organization-create',
    handler: (ctx, { principal, body }): Result => {
      const now = nowIso();
      const row: Row = {
        name: '',
        roles: [],
        last_activity_at: null,
        ...pick(body, writableFields('organization-create')),
        addresses: withAddressIds(body.addresses, []) ?? [],
        id: newId(ctx),
        created_at: now,
        updated_at: now,
      };
      return raw(createdStatus(ctx), ctx.views.organization(ctx.store.collections.organizations.put(principal.team, row)));
    },
  },
  {
    operationId: 'updateOrganization',
    scope: 'organizations:write',
    body: 'organization-patch',
    legacyErrors: true,
    handler: (ctx, { principal, params, body }): Result => {
      const col = ctx.store.collections.organizations;
      const e = findOwn(ctx, col, principal.team, params.id!, 'write');
      if (ctx.faults.on('patch-ignored')) return raw(200, ctx.views.organization(e));
      const next: Row = { ...e.row, ...pick(body, writableFields('organization-patch')), id: e.row.id, created_at: e.row.created_at, updated_at: nowIso() };
      const addresses = withAddressIds(body.addresses, e.row.addresses);
      if (addresses) next.addresses = addresses;
      return raw(200, ctx.views.organization(ctx.faults.on('patch-not-persisted') ? { ...e, row: next } : col.replace(e, next)));
    },
  },
];
