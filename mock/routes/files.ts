// Attachments (files bound to an entity) and free-standing files (§4).
// Chosen paths: GET /attachments/{id}/download streams the decrypted bytes with the
// stored mime; DELETE /files/{id} answers the delete result. Deleting removes the
// stored (encrypted) bytes. Uploads: see mock/uploads.ts.
import { Transform } from 'node:stream';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { findOwn, ownReference } from '../lookup.js';
import type { Input, Result, RouteHandlers } from '../route.js';
import { type Entry, nowIso, type Row, type TeamId } from '../store.js';
import { handleUpload, type ReceivedUpload } from '../uploads.js';
import { deleteResult, newId, raw } from './common.js';
import { idFilter, listPage, SORT_FIELDS } from './list.js';

export const ENTITY_TYPES = ['project', 'organization', 'employee', 'contact'] as const;

function entityExists(ctx: AppContext, team: TeamId, type: string, id: string): boolean {
  const c = ctx.store.collections;
  if (type === 'contact') {
    if (ctx.faults.on('cross-team-reference-accepted')) return [...ctx.store.contacts.values()].some((s) => s.has(id));
    return ctx.store.contacts.get(team)?.has(id) ?? false;
  }
  const col = type === 'project' ? c.projects : type === 'organization' ? c.organizations : type === 'employee' ? c.employees : undefined;
  return col ? ownReference(ctx, col, team, id) !== undefined : ctx.faults.on('attachment-entity-type-open');
}

function uploadRow(ctx: AppContext, input: Input, u: ReceivedUpload): Row {
  const row: Row = {
    id: newId(ctx),
    filename: u.filename,
    mime: u.mime,
    size: ctx.faults.on('upload-size-wrong') ? Math.max(0, u.blob.size - 1) : u.blob.size,
    created_at: nowIso(),
    created_by: `api-key:team-${input.principal.team.toLowerCase()}`,
  };
  if (u.fields.category !== undefined) row.category = ctx.faults.on('upload-category-dropped') ? 'other' : u.fields.category;
  return row;
}

function checkEntity(ctx: AppContext, input: Input, u: ReceivedUpload): void {
  const { entity_type: type, entity_id: id } = u.fields;
  const detail: Record<string, string> = {};
  const openTypes = ctx.faults.on('attachment-entity-type-open');
  if (!type) detail.entity_type = 'required';
  else if (!openTypes && !(ENTITY_TYPES as readonly string[]).includes(type)) detail.entity_type = `must be one of ${ENTITY_TYPES.join(', ')}`;
  if (!id) detail.entity_id = 'required';
  else if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) detail.entity_id = 'must be a UUID';
  if (Object.keys(detail).length) throw badRequest('Invalid attachment fields', detail);
  if (!entityExists(ctx, input.principal.team, type!, id!.toLowerCase())) throw badRequest('Unknown entity', { entity_id: `no such ${type}` });
}

/** Attachments deleted under the deleted-attachment-downloadable fault, by id: their bytes stay. */
const stillDownloadable = new WeakMap<AppContext, Map<string, Entry>>();

async function download(ctx: AppContext, input: Input): Promise<void> {
  const kept = stillDownloadable.get(ctx)?.get(String(input.params.id).toLowerCase());
  const e = kept?.team === input.principal.team ? kept : findOwn(ctx, ctx.store.collections.attachments, input.principal.team, input.params.id!, 'read');
  if (ctx.faults.on('download-missing')) throw notFound();
  // the fault: a download of more than 1 MiB served as stored, still encrypted
  const encrypted = ctx.faults.on('download-encrypted-above-1mib') && Number(e.extra.size) > 1_048_576;
  let body = encrypted ? await ctx.blobs.readStored(String(e.extra.blobId)) : await ctx.blobs.read(String(e.extra.blobId));
  if (ctx.faults.on('download-bytes-differ')) {
    let first = true;
    body = body.pipe(new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (first && chunk.length > 0) {
          chunk = Buffer.from(chunk);
          chunk[0] = chunk[0]! ^ 0xff;
          first = false;
        }
        done(null, chunk);
      },
    }));
  }
  const name = encodeURIComponent(String(e.row.filename));
  input.reply
    .code(200)
    .header('content-type', String(e.row.mime || 'application/octet-stream'))
    .header('content-length', String(e.extra.size))
    .header('content-disposition', `attachment; filename*=UTF-8''${name}`);
  await input.reply.send(body);
}

/** Reading file-delete=204: the file delete (result "not specified", §4) answers 204 with no body. */
function remove(ctx: AppContext, col: 'attachments' | 'files', input: Input): Result {
  const c = ctx.store.collections[col];
  const e: Entry = findOwn(ctx, c, input.principal.team, input.params.id!, 'delete');
  if (!ctx.faults.on('delete-not-removing')) {
    c.delete(e);
    if (col === 'attachments' && ctx.faults.on('deleted-attachment-downloadable')) {
      if (!stillDownloadable.has(ctx)) stillDownloadable.set(ctx, new Map());
      stillDownloadable.get(ctx)!.set(String(e.row.id), e);
    } else {
      void ctx.blobs.remove(String(e.extra.blobId));
    }
  }
  return col === 'files' && ctx.readings.value('file-delete') === '204' ? { status: 204, json: '' } : deleteResult(ctx);
}

export const attachmentRoutes: RouteHandlers = [
  {
    operationId: 'uploadAttachment',
    scope: 'attachments:write',
    kind: 'multipart',
    handler: (ctx, input) =>
      handleUpload(ctx, input, 'uploadAttachment', (u) => checkEntity(ctx, input, u), (u) => {
        const row = { ...uploadRow(ctx, input, u), entity_type: u.fields.entity_type, entity_id: u.fields.entity_id!.toLowerCase() };
        return ctx.views.attachment(ctx.store.collections.attachments.put(input.principal.team, row, { blobId: u.blob.blobId, size: u.blob.size }));
      }, (u) => {
        ctx.store.collections.attachments.put(input.principal.team, {
          ...uploadRow(ctx, input, u),
          entity_type: u.fields.entity_type,
          entity_id: u.fields.entity_id,
        }, { blobId: 'missing', size: 0 });
      }),
  },
  {
    operationId: 'listAttachments',
    scope: 'attachments:read',
    kind: 'read',
    handler: (ctx, input) => {
      const q = input.query;
      const type = typeof q.entity_type === 'string' ? q.entity_type : undefined;
      const id = idFilter(q, 'entity_id');
      const optional = ctx.faults.on('attachments-params-optional');
      const detail: Record<string, string> = {};
      if (!type) { if (!optional) detail.entity_type = 'required'; }
      else if (!(ENTITY_TYPES as readonly string[]).includes(type)) detail.entity_type = `must be one of ${ENTITY_TYPES.join(', ')}`;
      if (!id && !optional) detail.entity_id = 'required';
      if (Object.keys(detail).length) throw badRequest('Invalid query parameters', detail);
      const ignoreId = ctx.faults.on('attachments-filter-ignored');
      return listPage(ctx, input, {
        col: ctx.store.collections.attachments,
        sortFields: SORT_FIELDS.attachments,
        searchField: 'filename',
        secondary: true,
        filtered: true,
        filter: (e) => (!type || e.row.entity_type === type) && (ignoreId || !id || e.row.entity_id === id),
        view: (e) => ctx.views.attachment(e),
      });
    },
  },
  {
    operationId: 'deleteAttachment',
    scope: 'attachments:write',
    handler: (ctx, input) => remove(ctx, 'attachments', input),
  },
  {
    operationId: 'downloadAttachment',
    scope: 'attachments:read',
    kind: 'stream',
    handler: (ctx, input) => download(ctx, input),
  },
];

export const fileRoutes: RouteHandlers = [
  {
    operationId: 'uploadFile',
    scope: 'files:write',
    kind: 'multipart',
    handler: (ctx, input) =>
      handleUpload(ctx, input, 'uploadFile', () => undefined, (u) =>
        ctx.views.file(ctx.store.collections.files.put(input.principal.team, uploadRow(ctx, input, u), { blobId: u.blob.blobId, size: u.blob.size })), (u) => {
        ctx.store.collections.files.put(input.principal.team, uploadRow(ctx, input, u), { blobId: 'missing', size: 0 });
      }),
  },
  {
    operationId: 'getFile',
    scope: 'files:read',
    kind: 'read',
    handler: (ctx, { principal, params }) => raw(200, ctx.views.file(findOwn(ctx, ctx.store.collections.files, principal.team, params.id!, 'read'))),
  },
  {
    operationId: 'deleteFile',
    scope: 'files:write',
    handler: (ctx, input) => remove(ctx, 'files', input),
  },
];
