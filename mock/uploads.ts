// Multipart uploads (POST /attachments, POST /files): the file part is streamed into
// the encrypted blob store while its bytes are counted and hashed — never buffered
// whole. More than the limit (26,214,400 bytes; reading upload-limit) answers 413 payload_too_large and
// leaves nothing behind. Idempotency: the fingerprint is the file's SHA-256 plus the
// form fields, known only after the stream, so the key is claimed first and compared after.
import type { MultipartFile } from '@fastify/multipart';
import { Readable } from 'node:stream';
import { SizeLimitExceeded, type StoredBlob } from './blob-store.js';
import type { AppContext } from './context.js';
import { ApiError, badRequest, idempotencyKeyReused, payloadTooLarge } from './errors.js';
import { canonicalJson, fingerprintOf } from './idempotency.js';
import { withIdempotency } from './idempotent.js';
import { storeLess } from './mutation-faults.js';
import type { Input } from './route.js';
import { sendJson } from './route.js';
import { createdStatus } from './routes/common.js';

export interface ReceivedUpload {
  blob: StoredBlob;
  filename: string;
  mime: string;
  fields: Record<string, string>;
}

/** The effective limit under the active fault (undefined: unlimited). */
export function effectiveLimit(ctx: AppContext): number | undefined {
  if (ctx.faults.on('upload-limit-not-enforced')) return undefined;
  if (ctx.faults.on('upload-limit-too-strict')) return 20_000_000;
  return ctx.uploadLimit;
}

/** Reads every part; exactly one file part is stored. Throws envelope errors (after cleanup). */
async function receive(ctx: AppContext, input: Input): Promise<ReceivedUpload> {
  const limit = effectiveLimit(ctx);
  // Reading upload-limit=request-25000000: the whole request counts, so its declared length decides before a byte is stored.
  if (limit !== undefined && ctx.uploadLimitCounts === 'request' && Number(input.req.headers['content-length'] ?? 0) > limit) {
    input.reply.header('connection', 'close');
    throw payloadTooLarge(limit);
  }
  const fields: Record<string, string> = {};
  let blob: StoredBlob | undefined;
  let file: Pick<MultipartFile, 'filename' | 'mimetype'> | undefined;
  let files = 0;
  let tooLarge = false;
  try {
    const parts = input.req.parts({ limits: { fileSize: limit === undefined ? Infinity : limit + 1, files: 2, fields: 20, fieldSize: 65_536, parts: 30 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (!(file && ctx.faults.on('multipart-fields-after-file-ignored'))) fields[part.fieldname] = String(part.value);
        continue;
      }
      files++;
      if (files > 1 || part.fieldname !== 'file' || tooLarge) {
        part.file.resume();
        continue;
      }
      file = { filename: part.filename, mimetype: part.mimetype };
      try {
        blob = await ctx.blobs.write(part.file, limit);
      } catch (err) {
        if (!(err instanceof SizeLimitExceeded)) throw err;
        tooLarge = true;
        break; // the rest of the body is discarded by the HTTP server after the response
      }
    }
  } catch (err) {
    if (blob) await ctx.blobs.remove(blob.blobId);
    if (err instanceof ApiError) throw err;
    const e = err as { statusCode?: number; code?: string; message?: string; };
    if (e.code === 'FST_FILES_LIMIT') throw badRequest('Exactly one file part is allowed', { file: 'exactly one file part is allowed' });
    throw badRequest('The multipart body is malformed', { body: e.message ?? 'malformed multipart body' });
  }
  const fail = async (error: ApiError): Promise<never> => {
    if (blob) await ctx.blobs.remove(blob.blobId);
    throw error;
  };
  if (tooLarge) {
    // The rest of the body is not read: the connection closes after the 413 (RFC 9110 §15.5.14), so a client still
    // sending it never reuses a connection the server has given up on.
    input.reply.header('connection', 'close');
    if (ctx.faults.on('upload-oversize-stored') && file) {
      // The fault stores a record for the rejected upload (without bytes).
      const truncated: ReceivedUpload = { blob: { blobId: 'missing', size: limit ?? 0, sha256: '' }, filename: file.filename, mime: file.mimetype, fields };
      (input as Input & { oversize?: ReceivedUpload; }).oversize = truncated;
    }
    return fail(payloadTooLarge(limit ?? 0));
  }
  if (files > 1) return fail(badRequest('Exactly one file part is allowed', { file: 'exactly one file part is allowed' }));
  if (!blob || !file) {
    if (!ctx.faults.on('upload-file-part-optional')) return fail(badRequest('A file part is required', { file: 'a part named file is required' }));
    blob = await ctx.blobs.write(Readable.from([]));
    file = { filename: 'empty', mimetype: 'application/octet-stream' };
  }
  return { blob, filename: file.filename, mime: file.mimetype || 'application/octet-stream', fields };
}

/**
 * Runs an upload endpoint: claim the idempotency key, receive, validate with `check`,
 * compare fingerprints, create with `create`, answer 201 (reading create-status: 200) (or the replay / the error).
 */
export async function handleUpload(
  ctx: AppContext,
  input: Input,
  operationId: string,
  check: (u: ReceivedUpload) => void,
  create: (u: ReceivedUpload) => string,
  onOversize?: (u: ReceivedUpload) => void,
): Promise<void> {
  let upload: ReceivedUpload | undefined;
  const { result, replayed } = await withIdempotency(ctx, {
    operationId,
    team: input.principal.team,
    key: input.idempotencyKey,
    req: input.req,
    // A body that will never complete (client gone, body timeout) frees the key at once,
    // not after the partial file is removed: 'aborted' is emitted synchronously by the
    // request's destroy, so a retry can never find the key still in flight.
    onClaimed: (release) => input.req.raw.once('aborted', release),
    read: async () => {
      try {
        upload = await receive(ctx, input);
        check(upload);
      } catch (err) {
        const oversize = (input as Input & { oversize?: ReceivedUpload; }).oversize;
        if (oversize && onOversize) onOversize(oversize);
        if (upload) await ctx.blobs.remove(upload.blob.blobId);
        throw err;
      }
      const received = upload;
      return {
        fingerprint: fingerprintOf(input.req.url.split('?')[0]!, received.blob.sha256, received.filename, canonicalJson(received.fields)),
        discard: () => ctx.blobs.remove(received.blob.blobId),
      };
    },
    reused: () => idempotencyKeyReused(),
    run: async () => {
      const json = create(upload!);
      storeLess(ctx, operationId, input.principal.team, json);
      return { status: createdStatus(ctx), json };
    },
  });
  sendJson(input.reply, result, replayed);
}
