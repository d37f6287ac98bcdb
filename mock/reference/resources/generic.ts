// List, get, create, patch and delete, written once over the registry (specs/registry.ts): a
// resource's routes come from its operations, scopes, filters, sort fields, references and
// embeddings. A resource overrides an operation only where the document gives it a rule of its
// own (index.ts lists each override and its rule).
import { type Collection, type Resource, resources } from '../../../specs/registry.js';
import type { Operation } from '../../../specs/surface.js';
import type { AppContext } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import type { Exchange } from '../exchange.js';
import { filtersOf, listPage } from '../lists.js';
import { findOwn, ownReference } from '../lookup.js';
import type { RouteHandler } from '../pipeline.js';
import { nowIso, type Row } from '../store.js';
import { createdStatus, deleteResult, newId, patchedRow, pick, raw, writableFields } from './common.js';

/** The body fields of an operation that name one record of one other collection (`employee_id`; not an entity chosen by a sibling `*_type`). */
const referenceFields = (op: Operation): { field: string; to: Collection; }[] =>
  op.fields.flatMap((f) => (f.references?.length === 1 ? [{ field: f.name, to: f.references[0] as Collection }] : []));

/**
 * Every reference of the body checked (§1: a record of another team is reported as missing); the
 * refusal names each one that names no record of the team.
 */
export function checkReferences(ctx: AppContext, ex: Exchange, op: Operation): void {
  const detail: Record<string, string> = {};
  for (const { field, to } of referenceFields(op)) {
    const id = ex.body[field];
    if (typeof id !== 'string') continue;
    try {
      ownReference(ctx, ex, ctx.store.collections[to], id, field);
    } catch (err) {
      if (!(err instanceof ApiError) || !err.detail) throw err;
      Object.assign(detail, err.detail);
    }
  }
  if (Object.keys(detail).length) throw badRequest('Unknown reference', detail);
}

/** References are stored as the canonical lowercase UUID, whatever case the body gave (§2: identifiers are UUIDs). */
function lowerReferences(op: Operation, row: Row): Row {
  for (const { field } of referenceFields(op)) if (typeof row[field] === 'string') row[field] = (row[field] as string).toLowerCase();
  return row;
}

/** §7: the short error envelope is allowed on the older shapes' list and update: those of a resource §2 shows in two shapes. */
const legacyErrorsOf = (r: Resource, op: Operation): { legacyErrors?: true; } =>
  r.legacy && (op.kind === 'list' || op.kind === 'patch') ? { legacyErrors: true } : {};

/** The generic route of each of a resource's list, get, create, patch and delete. */
export function genericRoutes(r: Resource): RouteHandler[] {
  const out: RouteHandler[] = [];
  const { list, get, create, patch, delete: del } = r.operations;
  const col = (ctx: AppContext) => ctx.store.collections[r.collection];
  const show = (ctx: AppContext) => (e: Parameters<AppContext['render']['show']>[1]) => ctx.render.show(r.kind, e);
  // a list's items embed other collections' records: its pages are stale when those change
  const embedded = resources().filter((x) => x.embeddedIn.some((e) => e.parent === r.collection)).map((x) => x.collection);
  if (list) {
    out.push({
      operationId: list.op,
      scope: r.scopes.read,
      ...legacyErrorsOf(r, list),
      kind: 'read',
      handler: (ctx, ex) =>
        listPage(ctx, ex, {
          col: col(ctx),
          sortFields: r.sort,
          searchField: r.search ?? 'id',
          filters: filtersOf(ex.query, r.filters.map((f) => f.name)),
          ...(embedded.length ? { dependsOn: embedded.map((c) => ctx.store.collections[c]) } : {}),
          view: show(ctx),
        }),
    });
  }
  if (get) {
    out.push({
      operationId: get.op,
      scope: r.scopes.read,
      kind: 'read',
      handler: (ctx, ex) => raw(200, show(ctx)(findOwn(ctx, ex, col(ctx), ex.params.id!, 'read'))),
    });
  }
  if (create?.body) {
    const body = create.body;
    out.push({
      operationId: create.op,
      scope: r.scopes.write,
      body,
      handler: (ctx, ex) => {
        checkReferences(ctx, ex, create);
        const now = nowIso();
        const row: Row = lowerReferences(create, { ...pick(ex.body, writableFields(body)), id: newId(ctx), created_at: now, updated_at: now });
        return raw(createdStatus(ctx), show(ctx)(col(ctx).put(ex.principal.team, row)));
      },
    });
  }
  if (patch?.body) {
    const body = patch.body;
    out.push({
      operationId: patch.op,
      scope: r.scopes.write,
      body,
      ...legacyErrorsOf(r, patch),
      handler: (ctx, ex) => {
        const e = findOwn(ctx, ex, col(ctx), ex.params.id!, 'write');
        checkReferences(ctx, ex, patch);
        return raw(200, show(ctx)(col(ctx).replace(e, lowerReferences(patch, patchedRow(e.row, ex.body, body)))));
      },
    });
  }
  if (del) {
    out.push({
      operationId: del.op,
      scope: r.scopes.write,
      handler: (ctx, ex) => {
        col(ctx).delete(findOwn(ctx, ex, col(ctx), ex.params.id!, 'delete'));
        return deleteResult();
      },
    });
  }
  return out;
}
