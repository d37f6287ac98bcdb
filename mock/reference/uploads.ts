// Multipart uploads (POST /attachments, POST /files): the file part is streamed into the
// encrypted blob store while its bytes are counted and hashed, never buffered whole. More than
// the limit (§4 upload rule 1, "Maximum upload size is 25 MB"; 26,214,400 bytes, reading
// upload-limit) answers 413 payload_too_large and leaves nothing behind. Idempotency (upload rules
// 2 and 3): the fingerprint is the file's SHA-256 plus the form fields, known only after the
// stream, so the key is claimed first and compared after.
import type { MultipartFile } from '@fastify/multipart';
import { SizeLimitExceeded, type StoredBlob } from './blob-store.js';

export type { ReceivedFile, ReceivedUpload };
import type { AppContext } from './context.js';
import { ApiError, badRequest, idempotencyKeyReused, payloadTooLarge } from './errors.js';
import type { Input, ReceivedFile, ReceivedUpload, Result } from './exchange.js';
import { canonicalJson } from './idempotency-store.js';
import { withIdempotency } from './idempotency.js';
import { checkInput } from './pipeline.js';
import { createdStatus } from './resources/common.js';

/** 413 for an upload over the limit; it says what was refused (the file's name and type, the fields). */
export class UploadTooLarge extends ApiError {
  constructor(limit: number, readonly refused: { filename: string; mime: string; fields: Record<string, string>; }) {
    const e = payloadTooLarge(limit);
    super(e.status, e.code, e.message, e.detail);
  }
}

/** The largest upload accepted, through the uploadLimit hook (undefined: no limit). */
function uploadLimit(ctx: AppContext): number | undefined {
  return ctx.hooks.uploadLimit ? ctx.hooks.uploadLimit(ctx.uploadLimit) : ctx.uploadLimit;
}

/** Reads every part; at most one file part is stored. Throws envelope errors (after cleanup). */
async function receive(ctx: AppContext, input: Input): Promise<ReceivedUpload> {
  const limit = uploadLimit(ctx);
  // Reading upload-limit=request-25000000: the whole request counts, so its declared length decides before a byte is stored.
  if (limit !== undefined && ctx.uploadLimitCounts === 'request' && Number(input.req.headers['content-length'] ?? 0) > limit) {
    input.reply.header('connection', 'close');
    throw payloadTooLarge(limit);
  }
  const fields: Record<string, string> = {};
  const fieldsAfterFile: string[] = [];
  let blob: StoredBlob | undefined;
  let file: Pick<MultipartFile, 'filename' | 'mimetype'> | undefined;
  let files = 0;
  let tooLarge = false;
  try {
    const parts = input.req.parts({ limits: { fileSize: limit === undefined ? Infinity : limit + 1, files: 2, fields: 20, fieldSize: 65_536, parts: 30 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        if (file) fieldsAfterFile.push(part.fieldname);
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
    return fail(new UploadTooLarge(limit ?? 0, { filename: file?.filename ?? '', mime: file?.mimetype ?? '', fields }));
  }
  if (files > 1) return fail(badRequest('Exactly one file part is allowed', { file: 'exactly one file part is allowed' }));
  const received = blob && file ? { blob, filename: file.filename, mime: file.mimetype || 'application/octet-stream' } : undefined;
  return { ...(received ? { file: received } : {}), fields, fieldsAfterFile };
}

/** An upload whose file part is present: what the checks let through. */
export type Upload = ReceivedUpload & { file: ReceivedFile; };

/**
 * Runs an upload endpoint: claim the idempotency key, receive, check (a file part is required, then
 * `check`), compare fingerprints, create with `create`; answers 201 (reading create-status: 200),
 * the replay, or the error.
 */
export function handleUpload(ctx: AppContext, input: Input, check: (u: Upload) => void, create: (u: Upload) => string): Promise<Result> {
  let upload: Upload | undefined;
  const discard = async (u: ReceivedUpload | undefined) => {
    if (u?.file) await ctx.blobs.remove(u.file.blob.blobId);
  };
  return withIdempotency(ctx, {
    ex: input,
    // A body that will never complete (client gone, body timeout) frees the key at once,
    // not after the partial file is removed: 'aborted' is emitted synchronously by the
    // request's destroy, so a retry can never find the key still in flight.
    onClaimed: (release) => input.req.raw.once('aborted', release),
    read: async () => {
      let received: ReceivedUpload | undefined;
      try {
        received = await receive(ctx, input);
        if (ctx.hooks.received) received = await ctx.hooks.received(input, received);
        const u = received;
        checkInput(ctx, input, () => {
          if (!u.file) throw badRequest('A file part is required', { file: 'a part named file is required' });
          check(u as Upload);
        });
      } catch (err) {
        await discard(received);
        throw err;
      }
      const u = received as Upload;
      upload = u;
      return {
        fingerprint: [input.req.url.split('?')[0]!, u.file.blob.sha256, u.file.filename, canonicalJson(u.fields)],
        discard: () => discard(u),
      };
    },
    reused: () => idempotencyKeyReused(),
    run: async () => ({ status: createdStatus(ctx), json: create(upload!) }),
  });
}
