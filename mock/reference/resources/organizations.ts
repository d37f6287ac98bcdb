// Organizations (§4): list (generic.ts's), create (POST /organizations, the chosen path), PATCH.
// No GET by id and no DELETE are shown, so none exist. The create and the PATCH have a rule of
// their own: §2 Address has an `id` that bodies do not carry, so the server assigns one to each
// address it stores (and keeps it for an address a PATCH sends again).
import { randomUUID } from 'node:crypto';
import { findOwn } from '../lookup.js';
import type { RouteHandler } from '../pipeline.js';
import { nowIso, type Row } from '../store.js';
import { createdStatus, newId, patchedRow, pick, raw, writableFields } from './common.js';

function withAddressIds(addresses: unknown, previous: unknown): unknown[] | undefined {
  if (!Array.isArray(addresses)) return undefined;
  const prev = Array.isArray(previous) ? (previous as Row[]) : [];
  return addresses.map((a: Row, i) => ({ ...a, id: prev.find((p) => p.id === a.id)?.id ?? randomUUID(), is_default: a.is_default ?? i === 0 }));
}

export const organizationRoutes: RouteHandler[] = [
  {
    operationId: 'createOrganization',
    scope: 'organizations:write',
    body: 'organization-create',
    handler: (ctx, { principal, body }) => {
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
      return raw(createdStatus(ctx), ctx.render.show('organization', ctx.store.collections.organizations.put(principal.team, row)));
    },
  },
  {
    operationId: 'updateOrganization',
    scope: 'organizations:write',
    body: 'organization-patch',
    legacyErrors: true,
    handler: (ctx, ex) => {
      const col = ctx.store.collections.organizations;
      const e = findOwn(ctx, ex, col, ex.params.id!, 'write');
      const next = patchedRow(e.row, ex.body, 'organization-patch');
      const addresses = withAddressIds(ex.body.addresses, e.row.addresses);
      if (addresses) next.addresses = addresses;
      return raw(200, ctx.render.show('organization', col.replace(e, next)));
    },
  },
];
