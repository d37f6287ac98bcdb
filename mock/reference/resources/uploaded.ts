// What attachments and files share (§2: a File has the same fields as an Attachment without the
// entity): the record an upload creates, the download of its bytes, and deletion. Chosen path:
// GET /attachments/{id}/download streams the decrypted bytes with the stored mime, as an
// attachment under the stored name (filenames.ts), never to be sniffed or run as a page: the type
// is the uploader's (`text/html` included), so the download says `nosniff` and sandboxes anything
// a browser would render anyway.
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import type { Exchange, Result } from '../exchange.js';
import { contentDisposition } from '../filenames.js';
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

/** What every download says besides its type and name: take the type as given, and run nothing in it. */
const DOWNLOAD_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' } as const;

/** The stored bytes of an entry, decrypted (§2 "File bytes are encrypted at rest"), through the download hook. */
export async function downloadOf(ctx: AppContext, ex: Exchange, e: Entry): Promise<Result> {
  // A blob gone between the lookup and the read is a record deleted meanwhile: missing, as the record is now.
  const next = () =>
    ctx.blobs.read(String(e.extra.blobId)).catch((err: unknown) => {
      throw (err as { code?: string; }).code === 'ENOENT' ? notFound() : err;
    });
  const stream = ctx.hooks.download ? await ctx.hooks.download(ex, e, next) : await next();
  return {
    status: 200,
    json: '',
    stream,
    contentType: String(e.row.mime || 'application/octet-stream'),
    headers: {
      'content-length': String(e.extra.size),
      'content-disposition': contentDisposition(String(e.row.filename ?? '')),
      ...DOWNLOAD_HEADERS,
    },
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
