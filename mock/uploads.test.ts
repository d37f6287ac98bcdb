// Uploads: streaming limit, encryption at rest, byte-identical downloads, multipart errors.
import { readdir, readFile, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { FormData as UndiciFormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_LIMIT_BYTES } from './reference/context.js';
import { bigMultipart, startTestMock, type TestMock, uploadForm, walk } from './testing/client.js';

let t: TestMock;
let projectId: string;
beforeAll(async () => {
  t = await startTestMock();
  projectId = (await t.call('GET', '/projects?limit=1')).json.data[0].id;
});
afterAll(() => t.close());

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

describe('encryption at rest', () => {
  it('never writes the plaintext to the data directory, and downloads it byte-identically', async () => {
    const pattern = Buffer.from('RECOGNISABLE-PLAINTEXT-PATTERN-0123456789');
    const bytes = Buffer.concat(Array.from({ length: 2000 }, () => pattern));
    const a = await t.call('POST', '/attachments', {
      raw: uploadForm(bytes, { entity_type: 'project', entity_id: projectId, category: 'contract' }, 'p.txt', 'text/plain'),
    });
    expect(a.status).toBe(201);
    expect(a.json).toMatchObject({ entity_type: 'project', entity_id: projectId, size: bytes.length, category: 'contract', filename: 'p.txt' });
    const f = await t.call('POST', '/files', { raw: uploadForm(bytes) });
    expect(f.status).toBe(201);
    const files = await filesUnder(t.mock.dataDir);
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) expect((await readFile(file)).includes(pattern.subarray(0, 16))).toBe(false);
    const d = await t.call('GET', `/attachments/${a.json.id}/download`, { noValidate: true });
    expect(d.status).toBe(200);
    expect(d.headers['content-type']).toBe('text/plain');
    expect(Buffer.from(d.text).equals(bytes)).toBe(true);
  });

  it('downloads binary and empty payloads byte-identically', async () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from([0, 255, 1, 254, 10, 13]), Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256))]) {
      const a = await t.call('POST', '/attachments', { raw: uploadForm(bytes, { entity_type: 'project', entity_id: projectId }) });
      expect(a.json.size).toBe(bytes.length);
      const res = await fetch(`${t.mock.url}/api/public/v1/attachments/${a.json.id}/download`, { headers: { authorization: `Bearer ${t.keys.team}` } });
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('removes the stored bytes on delete', async () => {
    const before = (await filesUnder(t.mock.dataDir)).length;
    const a = await t.call('POST', '/attachments', {
      raw: uploadForm('x', { entity_type: 'organization', entity_id: (await t.call('GET', '/organizations?limit=1')).json.data[0].id }),
    });
    expect((await filesUnder(t.mock.dataDir)).length).toBe(before + 1);
    expect((await t.call('DELETE', `/attachments/${a.json.id}`)).json).toEqual({ success: true });
    await new Promise((r) => setTimeout(r, 50));
    expect((await filesUnder(t.mock.dataDir)).length).toBe(before);
    expect((await t.call('GET', `/attachments/${a.json.id}/download`)).status).toBe(404);
  });
});

describe('size limit (25 MiB = 26,214,400 bytes)', () => {
  it('accepts 25,000,000 bytes and exactly the limit', async () => {
    for (const size of [25_000_000, UPLOAD_LIMIT_BYTES]) {
      const { body, type } = bigMultipart(size);
      const r = await t.call('POST', '/files', { raw: body, headers: { 'content-type': type } });
      expect(r.status, String(size)).toBe(201);
      expect(r.json.size).toBe(size);
      await t.call('DELETE', `/files/${r.json.id}`);
    }
  });

  it('rejects one byte more with 413, stores nothing, and does not buffer the upload', async () => {
    const before = await filesUnder(t.mock.dataDir);
    const listBefore = (await walk(t, `/attachments?entity_type=project&entity_id=${projectId}`)).items.length;
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    const { body, type } = bigMultipart(UPLOAD_LIMIT_BYTES + 1, { entity_type: 'project', entity_id: projectId });
    const r = await t.call('POST', '/attachments', { raw: body, headers: { 'content-type': type } });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('payload_too_large');
    const big = bigMultipart(64 << 20);
    const r2 = await t.call('POST', '/files', { raw: big.body, headers: { 'content-type': big.type } });
    expect(r2.status).toBe(413);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(48 << 20);
    await new Promise((res) => setTimeout(res, 50));
    expect((await filesUnder(t.mock.dataDir)).sort()).toEqual(before.sort());
    expect((await walk(t, `/attachments?entity_type=project&entity_id=${projectId}`)).items.length).toBe(listBefore);
    for (const f of await filesUnder(t.mock.dataDir)) expect((await stat(f)).size).toBeLessThan(UPLOAD_LIMIT_BYTES + 64);
  });
});

describe('aborted uploads', () => {
  it('leave nothing behind and release the idempotency key', async () => {
    const before = (await filesUnder(t.mock.dataDir)).sort();
    const { type } = bigMultipart(1);
    const url = new URL(`${t.mock.url}/api/public/v1/files`);
    await new Promise<void>((resolve) => {
      const req = httpRequest(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.keys.team}`, 'content-type': type, 'idempotency-key': 'aborted', 'content-length': String(10 << 20) },
      });
      req.on('error', () => resolve());
      req.write(`--mockboundary7d1f\r\ncontent-disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`);
      req.write(Buffer.alloc(2 << 20, 0x62), () =>
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 100));
    });
    await new Promise((r) => setTimeout(r, 200));
    expect((await filesUnder(t.mock.dataDir)).sort()).toEqual(before);
    const retry = await t.call('POST', '/files', { raw: uploadForm('after abort'), headers: { 'idempotency-key': 'aborted' } });
    expect(retry.status).toBe(201);
  });
});

describe('multipart errors', () => {
  const fields = () => ({ entity_type: 'project', entity_id: projectId });
  it('rejects a missing file part, two file parts, missing or bad entity fields', async () => {
    const noFile = new UndiciFormData();
    noFile.append('entity_type', 'project');
    noFile.append('entity_id', projectId);
    const two = uploadForm('a', fields());
    two.append('file', new Blob(['b']), 'b.bin');
    const other = (await t.call('GET', '/projects?limit=1', { key: 'other' })).json.data[0].id;
    const cases: [UndiciFormData, number, string][] = [
      [noFile, 400, 'file'],
      [two, 400, 'file'],
      [uploadForm('a', { entity_id: projectId }), 400, 'entity_type'],
      [uploadForm('a', { entity_type: 'project' }), 400, 'entity_id'],
      [uploadForm('a', { entity_type: 'invoice', entity_id: projectId }), 400, 'entity_type'],
      [uploadForm('a', { entity_type: 'project', entity_id: 'nope' }), 400, 'entity_id'],
      [uploadForm('a', { entity_type: 'project', entity_id: other }), 400, 'entity_id'],
      [uploadForm('a', { entity_type: 'employee', entity_id: projectId }), 400, 'entity_id'],
    ];
    const before = (await filesUnder(t.mock.dataDir)).length;
    for (const [form, status, field] of cases) {
      const r = await t.call('POST', '/attachments', { raw: form });
      expect(r.status, field).toBe(status);
      expect(r.json.detail[field], field).toBeTypeOf('string');
    }
    expect((await filesUnder(t.mock.dataDir)).length).toBe(before);
  });
});
