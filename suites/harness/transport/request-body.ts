// What a request sends (JSON, raw text, or a streamed multipart upload) and how the transcript
// shows it: never the upload bytes, never a key.
import { Readable } from 'node:stream';
import type { CurlInput } from './curl.js';
import { multipartBody, type UploadFile } from './upload.js';

export interface BodySpec {
  json?: unknown;
  rawBody?: string;
  /** `fileFirst`: the file part before the fields (multipart does not fix an order). */
  upload?: { fields: Record<string, string>; file: UploadFile; fileFirst?: boolean; };
}

export interface EncodedBody {
  body?: string | Readable;
  headers: Record<string, string>;
  /** The body as the transcript shows it (redacted by the caller when it is text). */
  shown?: string;
  multipart?: CurlInput['multipart'];
}

export function encodeBody(spec: BodySpec): EncodedBody {
  if (spec.json !== undefined) {
    const text = JSON.stringify(spec.json);
    return { body: text, shown: text, headers: { 'content-type': 'application/json' } };
  }
  if (spec.rawBody !== undefined) return { body: spec.rawBody, shown: spec.rawBody, headers: {} };
  if (!spec.upload) return { headers: {} };
  const { fields, file, fileFirst } = spec.upload;
  const mp = multipartBody(fields, file, fileFirst);
  return {
    body: Readable.from(mp.open()),
    headers: { 'content-type': mp.contentType, 'content-length': String(mp.length) },
    shown: `<multipart/form-data: ${fileFirst ? 'file part first, ' : ''}${
      JSON.stringify(fields)
    }, file ${file.filename} (${file.size} bytes, ${file.contentType})>`,
    multipart: { fields, file: { name: file.filename, size: file.size, contentType: file.contentType }, ...(fileFirst ? { fileFirst } : {}) },
  };
}
