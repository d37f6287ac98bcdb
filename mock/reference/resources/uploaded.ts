// What attachments and files share (§2: a File has the same fields as an Attachment without the
// entity): the record an upload creates, the download of its bytes, and deletion. Chosen path:
// GET /attachments/{id}/download streams the decrypted bytes with the stored mime.
import type { AppContext } from '../context.js';
import type { Exchange, Result } from '../exchange.js';
import { findOwn } from '../lookup.js';
import { keptText } from '../nulls.js';
import { type Entry, nowIso, type Row } from '../store.js';
import type { ReceivedFile } from '../uploads.js';
import { deleteResult, newId } from './common.js';

/** The record of an uploaded file (§2 File); `category` only when the upload gave one. */
export function uploadRow(
  ctx: AppContext,
  ex: Exchange,
  file: Pick<ReceivedFile, 'filename' | 'mime'> & { size: number; },
  fields: Record<string, string>,
): Row {
  const row: Row = {
    id: newId(ctx),
    filename: keptText(ctx, file.filename),
    mime: file.mime,
    size: file.size,
    created_at: nowIso(),
    created_by: `api-key:team-${ex.principal.team.toLowerCase()}`,
  };
  if (fields.category !== undefined) row.category = keptText(ctx, fields.category);
  return row;
}

/** The stored bytes of an entry, decrypted (§2 "File bytes are encrypted at rest"), through the download hook. */
export async function downloadOf(ctx: AppContext, ex: Exchange, e: Entry): Promise<Result> {
  const next = () => ctx.blobs.read(String(e.extra.blobId));
  const stream = ctx.hooks.download ? await ctx.hooks.download(ex, e, next) : await next();
  const name = encodeURIComponent(String(e.row.filename));
  return {
    status: 200,
    json: '',
    stream,
    contentType: String(e.row.mime || 'application/octet-stream'),
    headers: { 'content-length': String(e.extra.size), 'content-disposition': `attachment; filename*=UTF-8''${name}` },
  };
}

/** Deletes the caller's record and its stored bytes. Reading file-delete=204: the file delete (result "not specified", §4) answers 204 with no body. */
export function removeUploaded(ctx: AppContext, ex: Exchange, col: 'attachments' | 'files'): Result {
  const c = ctx.store.collections[col];
  const e = findOwn(ctx, ex, c, ex.params.id!, 'delete');
  c.delete(e);
  void ctx.blobs.remove(String(e.extra.blobId));
  return col === 'files' && ctx.readings.value('file-delete') === '204' ? { status: 204, json: '' } : deleteResult();
}
