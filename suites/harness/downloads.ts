// The attachment download (§4: "download of an attachment as a decrypted byte stream"), whose path
// is a setting (CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD): the bytes are hashed as they arrive.
import type { KeyName } from '../../contract/settings.js';
import type { CheckContext } from './check.js';
import { type Concerning, ensure, expectStatus } from './judge/assert.js';
import type { ApiResponse } from './transport/client.js';
import { sha256Of, type UploadFile } from './transport/upload.js';

/** Downloads attachment `id`; the download path must be configured (c.settings.paths.attachmentDownload). */
export async function download(c: CheckContext, id: unknown, auth: KeyName = 'team', accept?: string | null): Promise<ApiResponse> {
  const e = c.settings.paths.attachmentDownload;
  if (!e) throw new Error('the attachment download path is not configured (CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD)');
  // accept: an Accept header of the caller's (null: none at all), else the client's own
  const form = accept === undefined ? {} : accept === null ? { omit: ['accept'] } : { headers: { accept } };
  return c.api.send({ method: e.method, path: e.path.replace('{id}', String(id)), auth, consume: 'hash', timeoutMs: 120_000, ...form });
}

/** The attachment downloads byte for byte as `file`. */
export async function expectSameBytes(c: CheckContext, attachmentId: unknown, file: UploadFile, concerning?: Concerning): Promise<void> {
  const res = await download(c, attachmentId);
  expectStatus(res, '2xx', 'attachment download', concerning);
  ensure(res.length === file.size, `downloaded ${res.length} bytes, uploaded ${file.size}`, res, concerning);
  ensure(res.sha256 === (await sha256Of(file)), 'downloaded bytes differ from the uploaded ones', res, concerning);
}
