// Request and body timeouts: a request whose head or body stops arriving is answered 408
// request_timeout in the §7 envelope, its connection closed, its partial upload removed
// and its idempotency key released.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validate } from '../specs/index.js';
import { MockOptionsError, start } from './index.js';
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_DOWNLOAD_IDLE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './reference/context.js';
import { clientErrorOf } from './reference/protocol.js';
import { startTestMock, type TestMock, uploadForm } from './testing/client.js';
import { rawExchange, type RawReply } from './testing/raw-http.js';

const BODY_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 1_500;

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock({ bodyTimeoutMs: BODY_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS });
});
afterAll(() => t.close());

const blobFiles = async () => readdir(join(t.mock.dataDir, 'blobs'));

function expect408(r: RawReply): void {
  expect(r.status, r.text.slice(0, 300)).toBe(408);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(validate('error', r.json).errors).toEqual([]);
  expect(r.json.error.code).toBe('request_timeout');
  expect(r.closed).toBe(true);
}

const boundary = 'stallboundary';
const uploadHead = (key: string, length: number) =>
  `POST /api/public/v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\n`
  + `Idempotency-Key: ${key}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`
  + `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="stall.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`;

describe('a body that stops part-way', () => {
  it('answers 408 in the envelope, closes, removes the partial upload and releases the idempotency key', async () => {
    const before = await blobFiles();
    const r = await rawExchange(t.mock.url, uploadHead('stalled', 1 << 20) + 'x'.repeat(64 * 1024), { waitMs: 5_000 });
    expect408(r);
    expect(r.ms).toBeLessThan(BODY_TIMEOUT_MS + 1_500);
    // The partial file goes once the handler sees its body fail, just after the answer.
    await vi.waitFor(async () => expect((await blobFiles()).sort()).toEqual(before.sort()), { timeout: 2_000, interval: 20 });
    const retry = await t.call('POST', '/files', { raw: uploadForm('after the stall'), headers: { 'idempotency-key': 'stalled' } });
    expect(retry.status).toBe(201);
  });

  it('answers 408 for a JSON body that stops part-way', async () => {
    const body = '{"name":"stalled org"';
    const r = await rawExchange(
      t.mock.url,
      `POST /api/public/v1/organizations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\nIdempotency-Key: stalled-json\r\n`
        + `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n${body}`,
      { waitMs: 5_000 },
    );
    expect408(r);
    const retry = await t.call('POST', '/organizations', { body: { name: 'after' }, headers: { 'idempotency-key': 'stalled-json' } });
    expect(retry.status).toBe(201);
  });

  it('lets a slow body through while its pauses stay under the body timeout', async () => {
    const body = '{"name":"slow but steady"}';
    const then = [...body].map((ch, i) => ({ afterMs: 50 + i * 40, data: ch }));
    const r = await rawExchange(
      t.mock.url,
      `POST /api/public/v1/organizations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\n`
        + `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      { waitMs: 5_000, then },
    );
    expect(r.status, r.text.slice(0, 300)).toBe(201);
  });
});

describe('the request timeout', () => {
  it("answers 408 for a request head that never ends, naming the head's timeout", async () => {
    const r = await rawExchange(t.mock.url, 'GET /api/public/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\n', { waitMs: 5_000 });
    expect408(r);
    expect(r.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(r.json.detail).toEqual({ head: `not received within ${REQUEST_TIMEOUT_MS} ms` });
  });

  it('names 60 s for a head and the request timeout for a whole request, by default', () => {
    const timeouts = { requestMs: DEFAULT_REQUEST_TIMEOUT_MS, bodyMs: DEFAULT_BODY_TIMEOUT_MS, downloadIdleMs: DEFAULT_DOWNLOAD_IDLE_TIMEOUT_MS };
    const timedOut = Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    expect(clientErrorOf(timedOut, timeouts, false).detail).toEqual({ head: 'not received within 60000 ms' });
    expect(clientErrorOf(timedOut, timeouts, true).detail).toEqual({ request: 'not received within 120000 ms' });
  });

  it('answers 408 for a body that trickles for longer than the request timeout', async () => {
    const then = Array.from({ length: 40 }, (_, i) => ({ afterMs: 100 + i * 100, data: 'y'.repeat(16) }));
    const r = await rawExchange(t.mock.url, uploadHead('trickle', 1 << 20), { waitMs: 6_000, then });
    expect408(r);
    expect(r.json.detail).toEqual({ request: `not received within ${REQUEST_TIMEOUT_MS} ms` });
    await vi.waitFor(async () => expect((await blobFiles()).filter((f) => f.endsWith('.part'))).toEqual([]), { timeout: 2_000, interval: 20 });
    const retry = await t.call('POST', '/files', { raw: uploadForm('after the trickle'), headers: { 'idempotency-key': 'trickle' } });
    expect(retry.status).toBe(201);
  });

  it('keeps serving', async () => {
    expect((await t.call('GET', '/projects?limit=1')).status).toBe(200);
  });
});

describe('options', () => {
  it('documents defaults of 30 s between body chunks and 120 s per request', () => {
    expect(DEFAULT_BODY_TIMEOUT_MS).toBe(30_000);
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(120_000);
  });

  it.each([
    [{ bodyTimeoutMs: 0 }],
    [{ bodyTimeoutMs: -1 }],
    [{ requestTimeoutMs: 1.5 }],
    [{ requestTimeoutMs: Number.NaN }],
    [{ downloadIdleTimeoutMs: 0 }],
  ])('rejects %j', async (o) => {
    await expect(start(o)).rejects.toBeInstanceOf(MockOptionsError);
  });
});

describe('conformance mock flags', () => {
  it('--body-timeout and --request-timeout set the timeouts of the mock it starts', async () => {
    const cli = fileURLToPath(new URL('../bin/cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'mock', '--port', '0', '--body-timeout', '200', '--request-timeout', '5000'], {
      env: { ...process.env, MOCK_API_KEY_TEAM_A: 'flag-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      await vi.waitFor(() => expect(out).toContain('CONFORMANCE_SORT_FIELDS'), { timeout: 20_000, interval: 100 });
      const url = /CONFORMANCE_BASE_URL='([^']+)'/.exec(out)![1]!;
      const r = await rawExchange(url,
        'POST /api/public/v1/organizations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer flag-key\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{',
        { waitMs: 5_000 });
      expect408(r);
      expect(r.ms).toBeLessThan(2_000);
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);
});
