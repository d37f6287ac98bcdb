// Multipart uploads (POST /attachments, POST /files): the body is read by the reference's own
// multipart reader (multipart.ts) chunk by chunk, and the file part is written into the encrypted
// blob store as it arrives, counted and hashed, never buffered whole. More than the limit (§4
// upload rule 1, "Maximum upload size is 25 MB"; 26,214,400 bytes, reading upload-limit) answers
// 413 payload_too_large and leaves nothing behind, at once when the declared Content-Length is more
// than any form within the limit can be (multipart.ts formOverheadBytes); a malformed body or a
// file name that cannot be stored (filenames.ts) answers 400 at the chunk where it shows. Whatever ends the request (its
// answer, an error, the client going away, a timeout), the blob being written is closed and
// removed. An answer given before the whole body is read closes the connection, and the server
// reads and drops the rest of the body for a bounded while first (protocol.ts), so a client still
// sending it reads the answer. Idempotency (upload rules 2 and 3): the fingerprint is the file's
// SHA-256 plus the form fields, known only after the stream, so the key is claimed first and
// compared after.
import { type BlobWriter, SizeLimitExceeded, type StoredBlob } from './blob-store.js';

export type { ReceivedFile, ReceivedUpload };
import type { AppContext } from './context.js';
import { ApiError, badRequest, idempotencyKeyReused, payloadTooLarge } from './errors.js';
import type { Input, ReceivedFile, ReceivedUpload, Result } from './exchange.js';
import { canonicalJson } from './idempotency-store.js';
import { withIdempotency } from './idempotency.js';
import { boundaryOf, FormError, formOverheadBytes, FormReader } from './multipart.js';
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

const onlyOneFile = () => badRequest('Exactly one file part is allowed', { file: 'exactly one file part is allowed' });

/** A file part without Content-Type is bytes (RFC 7578 §4.4 lets the sender say otherwise). */
const DEFAULT_FILE_TYPE = 'application/octet-stream';

/** Reads every part; at most one file part is stored. Throws envelope errors (after cleanup). */
async function receive(ctx: AppContext, input: Input): Promise<ReceivedUpload> {
  const limit = uploadLimit(ctx);
  const req = input.req.raw;
  // Reading upload-limit=request-25000000: the whole request counts, so its declared length decides before a byte is stored.
  if (limit !== undefined && ctx.uploadLimitCounts === 'request' && Number(req.headers['content-length'] ?? 0) > limit) {
    input.reply.header('connection', 'close');
    throw payloadTooLarge(limit);
  }
  // Field names are the client's: kept where no name can reach a prototype.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const fieldsAfterFile: string[] = [];
  let writer: BlobWriter | undefined;
  let blob: StoredBlob | undefined;
  let file: { filename: string; mime: string; } | undefined;
  let files = 0;
  try {
    const boundary = boundaryOf(String(req.headers['content-type'] ?? ''));
    // A declared length above the limit and all a form may hold besides its file holds a file over
    // the limit (or is refused anyway): answered before a byte of it is read.
    if (limit !== undefined && Number(req.headers['content-length'] ?? 0) > limit + formOverheadBytes(boundary)) throw payloadTooLarge(limit);
    const reader = new FormReader(boundary);
    // Not destroyed when the loop ends early: the connection outlives a refusal (see above).
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      for (const event of reader.push(chunk as Buffer)) {
        if (event.kind === 'field') {
          fields[event.name] = event.value;
          if (file) fieldsAfterFile.push(event.name);
        } else if (event.kind === 'file-start') {
          if (++files > 1) throw onlyOneFile();
          if (event.name !== 'file') continue; // its bytes are dropped; it still counts as the one file part
          if (!event.filename.ok) throw badRequest('The file name cannot be stored', { filename: event.filename.problem });
          file = { filename: event.filename.name, mime: event.mime ?? DEFAULT_FILE_TYPE };
          writer = await ctx.blobs.create(limit);
        } else if (event.kind === 'file-data') {
          if (writer) await writer.write(event.bytes);
        } else if (writer) {
          blob = await writer.finish();
          writer = undefined;
        }
      }
    }
    reader.end();
  } catch (err) {
    await writer?.abort();
    if (blob) await ctx.blobs.remove(blob.blobId);
    // Answered before the body is read: the connection closes after the answer (RFC 9110 §15.5.14
    // for a 413), so a client still sending never reuses a connection the server has given up on.
    if (!req.readableEnded) input.reply.header('connection', 'close');
    if (err instanceof SizeLimitExceeded) {
      throw new UploadTooLarge(limit ?? 0, { filename: file?.filename ?? '', mime: file?.mime ?? '', fields: { ...fields } });
    }
    if (err instanceof FormError) throw badRequest('The multipart body is malformed', { [err.field]: err.problem });
    throw err;
  }
  const received = blob && file ? { blob, filename: file.filename, mime: file.mime } : undefined;
  return { ...(received ? { file: received } : {}), fields: { ...fields }, fieldsAfterFile };
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
