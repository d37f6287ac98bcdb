// Written faults of uploads, downloads and deletion (§4 Attachments, Files, upload rules; §8).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, Readable, Transform } from 'node:stream';
import type { Rec } from '../../../contract/json.js';
import { notFound } from '../../reference/errors.js';
import { deleteResult } from '../../reference/resources/common.js';
import { uploadRow } from '../../reference/resources/uploaded.js';
import type { Entry } from '../../reference/store.js';
import { UploadTooLarge } from '../../reference/uploads.js';
import { fault, only } from '../fault.js';
import { collectionOf, editRecords, operationsOf } from '../records.js';
import { letThrough } from '../refusals.js';
import { afterWrite } from '../writes.js';

const UPLOADS = only(['uploadAttachment', 'uploadFile']);

/** Flips the first byte of a stream. */
const flipFirstByte = () => {
  let first = true;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (first && chunk.length > 0) {
        chunk = Buffer.from(chunk);
        chunk[0] = chunk[0]! ^ 0xff;
        first = false;
      }
      done(null, chunk);
    },
  });
};

export const uploadFaults = [
  fault('upload-limit-not-enforced', ['UPLOAD-MAX-SIZE', 'LIMIT-UPLOAD-SIZE'], 'uploads of any size are accepted', () => ({ uploadLimit: () => undefined })),
  fault('upload-limit-too-strict', ['UPLOAD-MAX-SIZE', 'LIMIT-UPLOAD-SIZE'], 'uploads above 20,000,000 bytes are rejected',
    () => ({ uploadLimit: () => 20_000_000 })),
  fault('upload-oversize-stored', ['UPLOAD-MAX-SIZE', 'LIMIT-UPLOAD-SIZE'], 'an oversize upload answers 413 but a truncated record is stored', (ctx) => ({
    handle: async (ex, next) => {
      try {
        return await next();
      } catch (err) {
        if (!(err instanceof UploadTooLarge) || !UPLOADS(ex.operationId)) throw err;
        const { filename, mime, fields } = err.refused;
        const row = uploadRow(ctx, ex, { filename, mime, size: Number(err.detail?.limit ?? 0) }, fields);
        const entity = ex.operationId === 'uploadAttachment' ? { entity_type: fields.entity_type, entity_id: fields.entity_id } : {};
        collectionOf(ctx, ex.operationId)!.put(ex.principal.team, { ...row, ...entity }, { blobId: 'missing', size: 0 });
        throw err;
      }
    },
  })),
  fault('download-bytes-differ', ['UPLOAD-DOWNLOAD-BYTE-IDENTICAL'], 'downloads flip the first byte', () => ({
    // pipeline(), so a download its client abandons releases the blob's file as the reference's does.
    download: async (_ex, _e, next) => pipeline(await next(), flipFirstByte(), () => undefined),
  })),
  fault('download-empty-fails', ['UPLOAD-DOWNLOAD-BYTE-IDENTICAL'], 'the download of an empty upload fails (500) instead of answering no bytes', () => ({
    download: async (_ex, e, next) => {
      if (Number(e.extra.size) === 0) throw new Error('an empty blob has no stream');
      return next();
    },
  })),
  fault('upload-no-filename-5xx', ['EP-FILES-CREATE'], 'a file part without a filename crashes the upload with a 500', () => ({
    received: async (_ex, u) => {
      if (u.file && u.file.filename === '') throw new Error('a file part without a filename');
      return u;
    },
  })),
  fault('attachments-list-any-entity-type', ['EP-ATTACHMENTS-ENTITY-TYPE-INVALID'],
    'GET /attachments with an entity_type outside the four answers an empty page', () => ({
      respond: (ex, answer) =>
        ex?.operationId === 'listAttachments' && answer.status === 400 && answer.error?.api.detail?.entity_type !== undefined
          ? { status: 200, contentType: answer.contentType, headers: answer.headers, body: '{"data":[],"page":{"hasMore":false,"nextCursor":""}}' }
          : answer,
    })),
  fault('download-missing', ['EP-ATTACHMENTS-DOWNLOAD'], 'the attachment download answers 404', () => ({
    handle: (ex, next) => {
      if (ex.operationId === 'downloadAttachment') throw notFound();
      return next();
    },
  })),
  fault('download-encrypted-above-1mib', ['UPLOAD-DOWNLOAD-BYTE-IDENTICAL'], 'downloads of more than 1 MiB serve the stored bytes still encrypted', (ctx) => ({
    download: async (_ex, e, next) => {
      if (Number(e.extra.size) <= 1_048_576) return next();
      const file = ctx.blobs.pathOf(String(e.extra.blobId));
      const size = (await stat(file)).size;
      return createReadStream(file, { start: ctx.blobs.ivBytes, end: size - ctx.blobs.tagBytes - 1 });
    },
  })),
  fault('multipart-fields-after-file-ignored', ['UPLOAD-MULTIPART-ANY-ORDER'], 'multipart fields that come after the file part are ignored', () => ({
    received: async (_ex, u) => ({ ...u, fields: Object.fromEntries(Object.entries(u.fields).filter(([k]) => !u.fieldsAfterFile.includes(k))) }),
  })),
  fault('upload-file-part-optional', ['UPLOAD-FILE-PART-REQUIRED'], 'an upload without a file part creates an empty record', (ctx) => ({
    received: async (
      _ex,
      u,
    ) => (u.file ? u : { ...u, file: { blob: await ctx.blobs.write(Readable.from([])), filename: 'empty', mime: 'application/octet-stream' } }),
  })),
  fault('upload-category-dropped', ['UPLOAD-CATEGORY-STORED'], 'the category field of uploads is ignored: every upload sent with one is stored as "other"',
    (ctx) => ({
      handle: afterWrite(ctx, (ex) => UPLOADS(ex.operationId),
        ({ entry }) => (entry.row.category === undefined ? undefined : { row: { ...entry.row, category: 'other' } })),
    })),
  fault('deleted-attachment-downloadable', ['EP-DELETE-GONE'], 'a deleted attachment is gone from its list but still downloads', (ctx) => {
    const kept = new Map<string, Entry>();
    return {
      handle: async (ex, next) => {
        if (ex.operationId !== 'deleteAttachment') return next();
        const e = ctx.store.collections.attachments.get(ex.principal.team, ex.params.id ?? '');
        // a copy of the bytes outlives the record's own
        const copy = e && (await ctx.blobs.write(await ctx.blobs.read(String(e.extra.blobId))));
        const result = await next();
        if (e && copy && result.status < 300) kept.set(e.row.id, { ...e, extra: { ...e.extra, blobId: copy.blobId } });
        return result;
      },
      lookup: (ex, find, next) =>
        ex.operationId !== 'downloadAttachment' ? next() : letThrough(next, (err) => {
          const e = kept.get(find.id.toLowerCase());
          if (!e || e.team !== ex.principal.team) throw err;
          return e;
        }),
    };
  }),
  // Every answer that shows an upload (its create, a replay, GET, lists) shows the size one byte
  // short, as a deployment counting the bytes wrongly would: one wrong field, wherever it shows.
  fault('upload-size-wrong', ['EP-ATTACHMENTS-CREATE', 'EP-FILES-CREATE'], 'the size of an upload is reported one byte short', () => {
    const short = (o: Rec): Rec => ({ ...o, size: Math.max(0, Number(o.size) - 1) });
    const [file, attachment] = [editRecords('file', short), editRecords('attachment', short)];
    return { respond: (ex, answer) => attachment(ex, file(ex, answer)) };
  }),
  fault('attachment-entity-type-open', ['EP-ATTACHMENTS-ENTITY-TYPE-INVALID'], 'attachments accept any entity_type', () => ({
    validate: (ex, next) =>
      ex.operationId !== 'uploadAttachment' ? next() : letThrough(next, (err) => {
        const detail = Object.keys(err.detail ?? {});
        if (detail.length !== 1 || detail[0] !== 'entity_type' || !err.detail!.entity_type!.startsWith('must be one of')) throw err;
      }),
  })),
  fault('delete-not-removing', ['EP-DELETE-GONE', 'EP-FILES-DELETE'], 'DELETE answers success but the record stays', (ctx) => {
    const deletes = only(operationsOf('delete'));
    return {
      handle: async (ex, next) => {
        if (!deletes(ex.operationId)) return next();
        const col = collectionOf(ctx, ex.operationId)!;
        const e = col.get(ex.principal.team, ex.params.id ?? '');
        if (!e) return next(); // the reference's refusal: missing, or another team's
        return deleteResult();
      },
    };
  }),
  fault('files-at-documents', ['CHANGELOG-1-3-0-FILES-RENAME', 'EP-FILES-CREATE', 'EP-FILES-GET', 'EP-FILES-DELETE'],
    'the files resource answers under /documents instead of /files', () => ({
      routes: (t) => ({ ...t, routes: t.routes.map((r) => (r.path.startsWith('/files') ? { ...r, path: r.path.replace('/files', '/documents') } : r)) }),
    })),
  fault('attachments-missing', [
    'CHANGELOG-1-2-0-ATTACHMENTS',
    'EP-ATTACHMENTS-CREATE',
    'EP-ATTACHMENTS-LIST',
    'EP-ATTACHMENTS-DELETE',
    'EP-ATTACHMENTS-DOWNLOAD',
  ], 'the attachments routes do not exist (404)', () => ({ routes: (t) => ({ ...t, routes: t.routes.filter((r) => !r.path.startsWith('/attachments')) }) })),
] as const;
