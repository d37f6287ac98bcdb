// §4 Attachments and Files, Upload rules and §8 Limits: uploads are stored as sent, listed per
// entity, deleted, downloaded byte for byte; 25 MB is accepted (read as the file or as the whole
// request), more than 25 MiB refused.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import { check, type CheckContext } from './harness/check.js';
import { download, expectSameBytes } from './harness/downloads.js';
import { type Concerning, ensure, expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { expectPage, expectResource, needs } from './harness/judge/problems.js';
import { drawn, property } from './harness/property.js';
import { attachmentsOf, createEmployee, marker, testFile, uploadAttachment, uploadFile } from './harness/records.js';
import { type ApiResponse, TransportError } from './harness/transport/client.js';
import { echoes } from './harness/views.js';
import { notAsSent } from './harness/wrong-fields.js';

const MB25 = 25_000_000;
const MIB25 = 26_214_400;
/**
 * The file accepted under every reading of "25 MB": the limit may count the file part or the
 * whole multipart request (boundaries and fields too), so the request stays under 25,000,000 bytes.
 */
const ACCEPTED = MB25 - 4096;
const opts = { mutates: true };

/**
 * The record agrees with what was sent on every field it shows: a listed field left out is a
 * reading (RES-INHERENT-FIELDS), since the document does not say which fields are always present.
 * A field shown otherwise is the finding of that field (harness/wrong-fields.ts), whichever upload
 * showed it; with `ownRule`, the comparison is the check's own (the rule it checks is how the
 * request was sent, not the field) and fails it.
 */
function expectShown(c: CheckContext, record: Rec, sent: Rec, res: ApiResponse, what: 'file' | 'attachment', ownRule?: Concerning): void {
  needs(res, Object.keys(sent).map((k) => `/${k}`));
  const absent = Object.keys(sent).filter((k) => !(k in record));
  if (absent.length) c.reading(`fields.absent.${what}`, absent.join(','));
  const { differs: wrong, normalized } = echoes(sent, record);
  if (normalized.length) c.reading(`text.normal-form.${what}`, `stored in another Unicode normal form: ${normalized.join(', ')}`);
  if (wrong.length && ownRule) {
    fail(`the ${what} says ${wrong.map((k) => `${k}=${JSON.stringify(record[k])} (sent ${JSON.stringify(sent[k])})`).join(', ')}`, res, ownRule);
  }
  notAsSent(res, wrong, sent, record, { resource: `${what}s`, write: 'upload' });
}

async function anEntity(c: CheckContext): Promise<{ type: string; id: string; }> {
  return { type: 'employee', id: String((await createEmployee(c)).id) };
}

async function listIds(c: CheckContext, entity: { type: string; id: string; }): Promise<unknown[]> {
  const res = await attachmentsOf(c, entity);
  expectStatus(res, '2xx', 'GET /attachments');
  return expectPage(res, 'attachment').data.map((a) => a.id);
}

check([
  'EP-FILES-CREATE',
  'EP-FILES-GET',
  'RES-FILE-SHAPE',
  'UPLOAD-CATEGORY-STORED',
  'CHANGELOG-1-3-0-FILES-RENAME',
], 'POST /files stores filename, size and category; GET /files/{id} answers it', async (c) => {
  const file = testFile(c, 1234);
  const res = await uploadFile(c, file, { category: 'contract' });
  expectStatus(res, '2xx', 'POST /files');
  c.reading('create.status', String(res.status));
  const stored = expectResource(res, 'file');
  expectShown(c, stored, { filename: file.filename, size: file.size }, res, 'file');
  expectShown(c, stored, { category: 'contract' }, res, 'file');
  const got = await c.api.send({ method: 'GET', path: `/files/${stored.id}` });
  expectStatus(got, '2xx', 'GET /files/{id}');
  ensure(expectResource(got, 'file').id === stored.id, 'GET /files/{id} answered another file', got);
  expectStatus(await uploadFile(c, testFile(c, 10)), '2xx', 'POST /files without category');
}, opts);

check([
  'EP-ATTACHMENTS-CREATE',
  'EP-ATTACHMENTS-LIST',
  'EP-ATTACHMENTS-DELETE',
  'RES-ATTACHMENT-SHAPE',
  'RES-DELETE-RESULT',
  'LIST-ATTACHMENTS-FOR-ENTITY',
  'EP-DELETE-GONE',
  'UPLOAD-CATEGORY-STORED',
  'CHANGELOG-1-2-0-ATTACHMENTS',
], 'attachments: created for an entity, listed for exactly that entity, deleted for good', async (c) => {
  const [one, two] = [await anEntity(c), await anEntity(c)];
  const file = testFile(c, 2048);
  const res = await uploadAttachment(c, one, file, { category: 'contract' });
  expectStatus(res, '2xx', 'POST /attachments');
  const att = expectResource(res, 'attachment', { reads: ['entity_type', 'entity_id'] });
  ensure(att.entity_type === one.type && att.entity_id === one.id, 'the Attachment names another entity than the upload', res);
  expectShown(c, att, { filename: file.filename, size: file.size }, res, 'attachment');
  expectShown(c, att, { category: 'contract' }, res, 'attachment');
  expectStatus(await uploadAttachment(c, two, testFile(c, 16)), '2xx', 'POST /attachments without category');
  const ids = await listIds(c, one);
  ensure(ids.length === 1 && ids[0] === att.id, `GET /attachments for the entity lists ${ids.length} attachment(s), expected exactly the one created`);
  const del = await c.api.send({ method: 'DELETE', path: `/attachments/${att.id}` });
  expectStatus(del, '2xx', 'DELETE /attachments/{id}');
  c.ledger.gone(String(att.id));
  ensure(expectResource(del, 'delete-result', { reads: ['success'] }).success === true, 'success is not true', del);
  ensure((await listIds(c, one)).length === 0, 'the deleted attachment is still listed');
  // Gone from every view: its download answers as a missing id's does.
  if (c.settings.paths.attachmentDownload) {
    const [gone, missing] = [await download(c, att.id), await download(c, randomUUID())];
    ensure(!is2xx(gone) && gone.status === missing.status, `the deleted attachment's download answered ${gone.status}, a missing id's ${missing.status}`, gone,
      { requirement: 'EP-DELETE-GONE' });
  }
}, opts);

check([
  'EP-FILES-DELETE',
  'EP-DELETE-GONE',
], 'the file delete answers 2xx and the file is gone', async (c) => {
  const res = await uploadFile(c, testFile(c, 100));
  expectStatus(res, '2xx', 'POST /files');
  const id = String(expectResource(res, 'file').id);
  const e = c.settings.paths.fileDelete!;
  const del = await c.api.send({ method: e.method, path: e.path.replace('{id}', id) });
  expectStatus(del, '2xx', 'file delete');
  c.reading('file-delete.answer', `${del.status}${del.text ? '' : ' (no body)'}`);
  c.ledger.gone(id);
  expectStatus(await c.api.send({ method: 'GET', path: `/files/${id}` }), 404, 'GET of the deleted file');
}, { ...opts, needs: ['fileDelete'] });

check([
  'EP-ATTACHMENTS-ENTITY-TYPE-INVALID',
], 'POST /attachments with an entity_type outside the four values is refused, creating nothing', async (c) => {
  const entity = await anEntity(c);
  const res = await uploadAttachment(c, { type: 'invoice', id: entity.id }, testFile(c, 10));
  expectStatus(res, '4xx', 'POST /attachments with entity_type=invoice');
  ensure((await listIds(c, entity)).length === 0, 'an attachment was created');
}, opts);

check([
  'EP-ATTACHMENTS-LIST-PARAMS-REQUIRED',
  'EP-ATTACHMENTS-ENTITY-TYPE-INVALID',
], 'GET /attachments without entity_type or entity_id, or with an entity_type outside the four values, answers 4xx', async (c) => {
  const entity = await anEntity(c);
  for (
    const query of [{}, { entity_type: 'employee' }, { entity_id: entity.id }, { entity_type: 'invoice', entity_id: entity.id }] as Record<string, string>[]
  ) {
    expectStatus(await c.api.send({ method: 'GET', path: '/attachments', query }), '4xx', `GET /attachments?${new URLSearchParams(query)}`);
  }
}, opts);

check([
  'UPLOAD-FILE-PART-REQUIRED',
], 'uploads without a file part are refused, creating nothing', async (c) => {
  const entity = await anEntity(c);
  const boundary = 'conformanceNoFile';
  const part = (n: string, v: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`;
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  const files = await c.api.send({ method: 'POST', path: '/files', headers, rawBody: `${part('category', 'contract')}--${boundary}--\r\n` });
  if (is2xx(files) && typeof (files.body as Rec)?.id === 'string') c.ledger.add('file', String((files.body as Rec).id));
  expectStatus(files, '4xx', 'POST /files without a file part');
  const atts = await c.api.send({
    method: 'POST',
    path: '/attachments',
    headers,
    rawBody: `${part('entity_type', entity.type)}${part('entity_id', entity.id)}--${boundary}--\r\n`,
  });
  if (is2xx(atts) && typeof (atts.body as Rec)?.id === 'string') c.ledger.add('attachment', String((atts.body as Rec).id));
  expectStatus(atts, '4xx', 'POST /attachments without a file part');
  ensure((await listIds(c, entity)).length === 0, 'an attachment was created');
}, opts);

check([
  'EP-FILES-CREATE',
], 'POST /files whose file part names no filename is stored or refused, never a server error', async (c) => {
  // RFC 7578 §4.2: a file part SHOULD carry a filename, and may not; §4 does not say whether such a
  // part is a file. Storing it (with an empty or a made-up name) and refusing it are both readings.
  const boundary = 'conformanceNoFilename';
  const rawBody = `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: application/octet-stream\r\n\r\n${
    marker(c)
  }\r\n--${boundary}--\r\n`;
  const res = await c.api.send({ method: 'POST', path: '/files', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, rawBody });
  if (is2xx(res) && typeof (res.body as Rec)?.id === 'string') c.ledger.add('file', String((res.body as Rec).id));
  if (!is2xx(res)) expectStatus(res, '4xx', 'POST /files with a file part without filename');
  c.reading('upload.no-filename', is2xx(res) ? `stored as ${JSON.stringify((res.body as Rec)?.filename)}` : `refused with ${res.status}`);
}, opts);

check([
  'EP-ATTACHMENTS-DOWNLOAD',
  'UPLOAD-DOWNLOAD-BYTE-IDENTICAL',
], 'property: the download returns exactly the bytes uploaded', async (c) => {
  const entity = await anEntity(c);
  const small = fc.record({ size: fc.integer({ min: 1, max: 64 }), seed: fc.integer() });
  const large = fc.record({ size: fc.integer({ min: 65, max: 300_000 }), seed: fc.integer() });
  await property(fc.oneof(small, large), async ({ size, seed }) => {
    const file = testFile(c, size, seed);
    const res = await uploadAttachment(c, entity, file);
    expectStatus(res, '2xx', 'POST /attachments');
    await expectSameBytes(c, (res.body as Rec).id, file);
    // a small and a large file on every seed, their sizes drawn from it
  }, { numRuns: Math.min(c.settings.numRuns, 6), examples: [...drawn(small, 1), ...drawn(large, 1)] });
}, { ...opts, needs: ['attachmentDownload'] });

check([
  'EP-ATTACHMENTS-DOWNLOAD',
], 'the download answers the bytes under every Accept that admits any media type (*/*, weighted, in a list) and without Accept', async (c) => {
  // the download's media type is not shown (§4 "download of an attachment as a decrypted byte
  // stream"): an Accept that names one type may be refused, one that admits every type may not (RFC 9110 §12.5.1)
  const entity = await anEntity(c);
  const file = testFile(c, 40);
  const res = await uploadAttachment(c, entity, file);
  expectStatus(res, '2xx', 'POST /attachments');
  for (const accept of ['*/*', '*/*;q=0.8', 'application/json;q=0.9, */*;q=0.1', null]) {
    const got = await download(c, (res.body as Rec).id, 'team', accept);
    expectStatus(got, '2xx', `attachment download with ${accept === null ? 'no Accept' : `Accept: ${accept}`}`);
    ensure(got.length === file.size, `with ${accept === null ? 'no Accept' : `Accept: ${accept}`}: downloaded ${got.length} bytes, uploaded ${file.size}`, got);
  }
}, { ...opts, needs: ['attachmentDownload'] });

check([
  'UPLOAD-DOWNLOAD-BYTE-IDENTICAL',
  'EP-ATTACHMENTS-DOWNLOAD',
], 'an empty attachment, when accepted, downloads as no bytes', async (c) => {
  // §4 asks for "one `file` part" and sets no least size: a server may refuse an empty one (a reading),
  // but one it stores downloads as what was sent, nothing.
  const entity = await anEntity(c);
  const file = testFile(c, 0);
  const res = await uploadAttachment(c, entity, file);
  if (!is2xx(res)) {
    expectStatus(res, '4xx', 'POST /attachments of an empty file');
    c.reading('upload.empty', `refused with ${res.status}`);
    return;
  }
  await expectSameBytes(c, (res.body as Rec).id, file);
}, { ...opts, needs: ['attachmentDownload'] });

check([
  'UPLOAD-DOWNLOAD-BYTE-IDENTICAL',
  'EP-ATTACHMENTS-DOWNLOAD',
], 'a multi-megabyte attachment downloads byte-identical', async (c) => {
  const entity = await anEntity(c);
  const file = testFile(c, 3 * 1024 * 1024 + 5);
  const res = await uploadAttachment(c, entity, file, { timeoutMs: 120_000 });
  expectStatus(res, '2xx', `POST /attachments of ${file.size} bytes`);
  await expectSameBytes(c, (res.body as Rec).id, file);
}, { ...opts, needs: ['attachmentDownload'], timeout: 180_000 });

check([
  'UPLOAD-MULTIPART-ANY-ORDER',
], 'uploads with the file part before the fields store the fields as when they come first', async (c) => {
  const entity = await anEntity(c);
  const file = testFile(c, 777);
  const res = await uploadAttachment(c, entity, file, { category: 'contract', fileFirst: true });
  expectStatus(res, '2xx', 'POST /attachments with the file part first');
  const att = expectResource(res, 'attachment', { reads: ['entity_type', 'entity_id'] });
  ensure(att.entity_type === entity.type && att.entity_id === entity.id,
    `the Attachment names ${JSON.stringify({ entity_type: att.entity_type, entity_id: att.entity_id })}`, res);
  const order: Concerning = { requirement: 'UPLOAD-MULTIPART-ANY-ORDER' };
  expectShown(c, att, { category: 'contract' }, res, 'attachment', order);
  expectShown(c, att, { size: file.size }, res, 'attachment');
  ensure((await listIds(c, entity)).includes(att.id), 'the attachment is not listed for its entity');
  if (c.settings.paths.attachmentDownload) await expectSameBytes(c, att.id, file);
  const f = await uploadFile(c, testFile(c, 333), { category: 'contract', fileFirst: true });
  expectStatus(f, '2xx', 'POST /files with the file part first');
  expectShown(c, expectResource(f, 'file'), { category: 'contract' }, f, 'file', order);
}, opts);

/**
 * An upload of `size` bytes. A server may close the connection after refusing an oversize body
 * (RFC 9110 §15.5.14), so a request that got no response is sent once more under the same
 * idempotency key (a replay, never a second record) before it counts as 'closed'.
 */
async function sizeAnswer(
  c: CheckContext,
  endpoint: 'files' | 'attachments',
  entity: { type: string; id: string; },
  size: number,
  file = testFile(c, size),
): Promise<ApiResponse | 'closed'> {
  const o = { timeoutMs: 120_000, idempotencyKey: randomUUID() };
  for (let attempt = 0;; attempt += 1) {
    try {
      return endpoint === 'files' ? await uploadFile(c, file, o) : await uploadAttachment(c, entity, file, o);
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      if (attempt >= 1) return 'closed';
    }
  }
}

check([
  'UPLOAD-MAX-SIZE',
  'LIMIT-UPLOAD-SIZE',
  'UPLOAD-DOWNLOAD-BYTE-IDENTICAL',
],
  'a file of 25,000,000 bytes less 4 KiB (a request under 25 MB) is accepted on both endpoints and downloads byte-identical; more than 26,214,400 refused, storing nothing',
  async (c) => {
    const entity = await anEntity(c);
    const limit: Concerning = { requirement: ['UPLOAD-MAX-SIZE', 'LIMIT-UPLOAD-SIZE'] };
    for (const endpoint of ['files', 'attachments'] as const) {
      const file = testFile(c, ACCEPTED);
      const ok = await sizeAnswer(c, endpoint, entity, ACCEPTED, file);
      if (ok === 'closed') fail(`POST /${endpoint} of ${ACCEPTED} bytes: the connection was closed`, undefined, limit);
      expectStatus(ok, '2xx', `POST /${endpoint} of ${ACCEPTED} bytes`, limit);
      expectShown(c, ok.body as Rec, { size: ACCEPTED }, ok, endpoint === 'files' ? 'file' : 'attachment');
      // an upload near the limit comes back as it went in (a large download must not be served still encrypted)
      if (endpoint === 'attachments' && c.settings.paths.attachmentDownload) {
        await expectSameBytes(c, (ok.body as Rec).id, file, { requirement: 'UPLOAD-DOWNLOAD-BYTE-IDENTICAL' });
      }
      const before = endpoint === 'attachments' ? await listIds(c, entity) : [];
      const over = await sizeAnswer(c, endpoint, entity, MIB25 + 1);
      if (over !== 'closed') expectStatus(over, '4xx', `POST /${endpoint} of ${MIB25 + 1} bytes`, limit);
      else c.reading(`upload.${endpoint}.oversize`, 'connection closed before a response');
      // A refused file shows nowhere (files have no list); a refused attachment would show in its entity's list.
      if (endpoint === 'attachments') {
        const after = await listIds(c, entity);
        ensure(after.length === before.length, `an oversize upload stored an attachment (${before.length} → ${after.length})`, undefined, limit);
      }
    }
    const between = await sizeAnswer(c, 'files', entity, MIB25);
    c.reading('upload.limit', between !== 'closed' && is2xx(between) ? `${MIB25} accepted: 26214400 <= L` : `${ACCEPTED} <= L < ${MIB25}`);
  }, { ...opts, timeout: 180_000 });
