// The mock under hostile clients: every resource a request takes is released however it ends
// (downloads and uploads abandoned at random points, many times: the descriptors and the heap of
// the process serving come back to where they started); every upload accepted downloads
// byte-identical under the name it was stored with, and the names that cannot be are refused;
// refusals reach clients that write their whole body before reading; repeated credentials and
// authorities are refused; internal failures answer 5xx in the envelope without server paths;
// a download its client never reads is ended.
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validate } from '../specs/index.js';
import { prng } from './index.js';
import { DEFAULT_DOWNLOAD_IDLE_TIMEOUT_MS } from './reference/context.js';
import { MAX_FILENAME_BYTES } from './reference/filenames.js';
import { startTestMock, type TestMock } from './testing/client.js';
import { exchange, filenameArb, type HostileRequest, rfc8187 } from './testing/hostile.js';
import { rawExchange, type RawReply } from './testing/raw-http.js';

const DOWNLOAD_IDLE_MS = 600;

let t: TestMock;
let projectId: string;
beforeAll(async () => {
  t = await startTestMock({ downloadIdleTimeoutMs: DOWNLOAD_IDLE_MS, bodyTimeoutMs: 1_000 });
  projectId = (await t.call('GET', '/projects?limit=1')).json.data[0].id;
});
afterAll(() => t.close());

const port = () => Number(new URL(t.mock.url).port);
const API = '/api/public/v1';

/** A multipart upload to POST /attachments of `bytes`, with the file name parameter(s) given as raw bytes. */
function uploadRequest(nameParam: Buffer, bytes: Buffer, mime = 'application/octet-stream'): Buffer {
  const b = 'hostileboundary';
  const body = Buffer.concat([
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="entity_type"\r\n\r\nproject\r\n`),
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="entity_id"\r\n\r\n${projectId}\r\n`),
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"`),
    nameParam,
    Buffer.from(`\r\nContent-Type: ${mime}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return Buffer.concat([
    Buffer.from(
      `POST ${API}/attachments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\n`
        + `Content-Type: multipart/form-data; boundary=${b}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    ),
    body,
  ]);
}

const downloadHead = (id: string) =>
  `GET ${API}/attachments/${id}/download HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\nConnection: close\r\n\r\n`;

/** Everything a download answers, as bytes. */
function download(id: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer; }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port(), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = all.toString('latin1', 0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      resolve({ status: Number(head[0]!.split(' ')[1]), headers, body: all.subarray(end + 4) });
    });
    socket.write(downloadHead(id));
  });
}

/** The file name a Content-Disposition gives (RFC 6266 §4.3: filename* over filename), as a client reads it. */
function nameIn(disposition: string): string | undefined {
  const ext = /;\s*filename\*=UTF-8''([^;\s]*)/i.exec(disposition);
  if (ext) {
    const bytes = ext[1]!.replace(/%([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  const plain = /;\s*filename="((?:[^"\\]|\\.)*)"/.exec(disposition);
  return plain ? plain[1]!.replace(/\\(.)/g, '$1') : undefined;
}

/** The name the mock stores for one a client sends, by the rules of mock/reference/filenames.ts; undefined: refused. */
function storedName(sent: string): string | undefined {
  const whole = Buffer.from(sent, 'utf8').toString('utf8'); // a lone surrogate goes out as U+FFFD
  const i = Math.max(whole.lastIndexOf('/'), whole.lastIndexOf('\\'));
  const last = i < 0 ? whole : whole.slice(i + 1);
  const name = last === '.' || last === '..' ? '' : last;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name) || Buffer.byteLength(name) > MAX_FILENAME_BYTES) return undefined;
  return name;
}

const quoted = (name: string) => Buffer.from(`; filename="${name.replace(/["\\]/g, (c) => `\\${c}`)}"`, 'utf8');
const extended = (name: string) => Buffer.from(`; filename*=UTF-8''${rfc8187(name)}`);

describe('file names', () => {
  it('come back unchanged with accents, CJK, emoji and combining marks, in both parameters', async () => {
    for (
      const name of ['résumé.pdf', '日本語の文書.txt', '😀 party 🎉.png', 'e\u0301te\u0301.txt', 'Ελληνικά.doc', "it's (1) 50%.txt", 'a"b.txt', ' spaced ']
    ) {
      for (const param of [quoted(name), extended(name)]) {
        const up = await rawExchange(t.mock.url, uploadRequest(param, Buffer.from('x')));
        expect(up.status, `${name}: ${up.body}`).toBe(201);
        expect(up.json.filename).toBe(name);
        const d = await download(up.json.id);
        expect(d.headers['content-disposition']).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[!#$&+\-.^_`|~0-9A-Za-z%]+$/);
        expect(nameIn(d.headers['content-disposition']!)).toBe(name);
      }
    }
  });

  it('that cannot be served back are refused with 400 and detail.filename', async () => {
    const refused: Buffer[] = [
      Buffer.from("; filename*=utf-16le''%00%D8"),
      Buffer.from("; filename*=UTF-8''%FF%FE"),
      Buffer.from("; filename*=UTF-8''%ZZ"),
      Buffer.concat([Buffer.from('; filename="'), Buffer.from([0xc3, 0x28]), Buffer.from('"')]),
      quoted('tab\there'),
      extended('new\nline'),
      extended('\u0000'),
      quoted('é'.repeat(MAX_FILENAME_BYTES)),
    ];
    for (const param of refused) {
      const r = await rawExchange(t.mock.url, uploadRequest(param, Buffer.from('x')));
      expect(r.status, `${param.toString('latin1')}: ${r.body}`).toBe(400);
      expect(validate('error', r.json).errors).toEqual([]);
      expect(r.json.detail.filename).toBeTypeOf('string');
    }
  });

  it('every upload accepted downloads byte-identical under the name stored, for any name and bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        filenameArb,
        fc.constantFrom(quoted, extended),
        fc.uint8Array({ maxLength: 70_000 }).map((b) => Buffer.from(b)),
        fc.constantFrom('application/octet-stream', 'text/html', 'image/svg+xml', 'text/plain; charset=utf-8'),
        async (name, encode, bytes, mime) => {
          fc.pre(!/[\r\n]/.test(name) || encode === extended); // a quoted parameter cannot hold a line break
          const up = await rawExchange(t.mock.url, uploadRequest(encode(name), bytes, mime), { waitMs: 5_000 });
          const expected = storedName(name);
          if (expected === undefined) {
            expect(up.status, up.body).toBe(400);
            expect(up.json.detail.filename).toBeTypeOf('string');
            return;
          }
          expect(up.status, up.body).toBe(201);
          const record = up.json;
          expect(record.filename).toBe(expected);
          const d = await download(record.id);
          expect(d.status).toBe(200);
          expect(d.body.equals(bytes)).toBe(true);
          expect(d.headers['content-type']).toBe(record.mime);
          expect(d.headers['x-content-type-options']).toBe('nosniff');
          expect(d.headers['content-security-policy']).toBe('sandbox');
          expect(nameIn(d.headers['content-disposition']!) ?? '').toBe(expected);
        },
      ),
      { seed: 2024, numRuns: 150 },
    );
  }, 120_000);
});

/** Descriptors of the process serving (this one), and those open on the mock's blob files. */
function descriptors(): { all: number; blobs: number; } {
  let blobs = 0;
  const fds = readdirSync('/proc/self/fd');
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(t.mock.dataDir)) blobs++;
    } catch {
      // closed meanwhile
    }
  }
  return { all: fds.length, blobs };
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMiB = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

describe('abandoned requests', () => {
  it('1,000 downloads and 200 uploads abandoned at random points leave no descriptor, blob or memory behind', async () => {
    const size = 1 << 20;
    const up = await rawExchange(t.mock.url, uploadRequest(quoted('big.bin'), Buffer.alloc(size, 7)), { waitMs: 5_000 });
    expect(up.status).toBe(201);
    const id = up.json.id as string;
    // One complete download first, so everything a download keeps for good is there before counting.
    expect((await download(id)).body.length).toBe(size);
    const blobsBefore = (await readdir(join(t.mock.dataDir, 'blobs'))).sort();
    const before = descriptors();
    const heapBefore = heapMiB();
    const random = prng(7);
    const abandon = (kind: number): Promise<void> =>
      new Promise((resolve) => {
        const socket = connect(port(), '127.0.0.1');
        let got = 0;
        const quit = () => {
          socket.destroy();
          resolve();
        };
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
        if (kind < 4) {
          // A download: abandoned before any answer, after its first chunk, part-way, or never read.
          const after = [0, 1, Math.floor(random() * size), -1][kind]!;
          socket.write(downloadHead(id));
          if (after === 0) setImmediate(quit);
          else if (after > 0) socket.on('data', (d: Buffer) => (got += d.length) >= after && quit());
          else {
            socket.pause();
            setTimeout(quit, 5 + random() * 20);
          }
        } else {
          // An upload: abandoned part-way through its file part.
          const total = 256 * 1024;
          const head = uploadRequest(quoted('gone.bin'), Buffer.alloc(total, 1));
          socket.write(head.subarray(0, Math.floor(random() * head.length)), () => setTimeout(quit, random() * 5));
        }
      });
    const kinds = [...Array.from({ length: 1_000 }, (_, i) => i % 4), ...Array.from({ length: 200 }, () => 4)].sort(() => random() - 0.5);
    const started = Date.now();
    for (let i = 0; i < kinds.length; i += 8) await Promise.all(kinds.slice(i, i + 8).map(abandon));
    const ms = Date.now() - started;
    // At most as many as before (a keep-alive connection of an earlier test may have closed meanwhile), none on a blob.
    await vi.waitFor(() => {
      const now = descriptors();
      expect(now.blobs).toBe(0);
      expect(now.all).toBeLessThanOrEqual(before.all);
    }, { timeout: 10_000, interval: 50 });
    expect((await readdir(join(t.mock.dataDir, 'blobs'))).sort()).toEqual(blobsBefore);
    const heapAfter = heapMiB();
    console.log(
      `abandoned 1,000 downloads and 200 uploads in ${ms} ms: descriptors ${before.all} → ${descriptors().all} (blob files open: ${before.blobs} → 0), `
        + `heap ${heapBefore.toFixed(1)} → ${heapAfter.toFixed(1)} MiB`,
    );
    expect(heapAfter - heapBefore).toBeLessThan(16);
    expect((await download(id)).body.length).toBe(size);
  }, 120_000);

  it('a download its client never reads is ended after the idle timeout', async () => {
    expect(DEFAULT_DOWNLOAD_IDLE_TIMEOUT_MS).toBe(30_000);
    const size = 24 << 20;
    const up = await rawExchange(t.mock.url, uploadRequest(quoted('idle.bin'), Buffer.alloc(size, 3)), { waitMs: 10_000 });
    expect(up.status).toBe(201);
    const socket = connect(port(), '127.0.0.1');
    socket.pause();
    socket.write(downloadHead(up.json.id));
    await vi.waitFor(() => expect(descriptors().blobs).toBe(1), { timeout: 2_000, interval: 20 });
    // The file is closed once the download has been idle for the timeout, though the client never read a byte.
    const started = Date.now();
    await vi.waitFor(() => expect(descriptors().blobs).toBe(0), { timeout: DOWNLOAD_IDLE_MS + 3_000, interval: 20 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(DOWNLOAD_IDLE_MS / 2);
    let received = 0;
    socket.on('data', (d: Buffer) => (received += d.length));
    socket.resume();
    await new Promise((resolve) => socket.once('close', resolve));
    expect(received).toBeLessThan(size);
  }, 30_000);
});

describe('refusals while the body is still arriving', () => {
  const key = () => t.keys.team;
  const cases: [string, number, () => HostileRequest][] = [
    ['a head over 16 KiB', 431, () => refused([['X-Padding', 'p'.repeat(20_000)]])],
    ['a control character in a header', 400, () => refused([['X-Control', 'a\x01b']])],
    ['an unsupported Expect', 417, () => refused([['Expect', 'teapot']])],
    ['conflicting Content-Length', 400, () => ({ ...refused([['Content-Length', String(4 << 20)], ['Content-Length', '5']]), framed: true })],
    ['two Host headers', 400, () => refused([['Host', 'example.test']])],
    ['two Authorization headers', 400, () => refused([['Authorization', `Bearer ${t.keys.other}`]])],
    ['no key', 401, () => ({ ...refused([]), headers: [['Host', '127.0.0.1'], ['Content-Type', 'multipart/form-data; boundary=x']] })],
    ['a part that is not form-data', 400, () => ({
      ...refused([]),
      body: Buffer.concat([Buffer.from('--x\r\nContent-Disposition: attachment; name="file"\r\n\r\n'), Buffer.alloc(4 << 20, 0x20)]),
    })],
  ];
  function refused(extra: [string, string][]): HostileRequest {
    return {
      method: 'POST',
      target: `${API}/files`,
      headers: [['Host', '127.0.0.1'], ['Authorization', `Bearer ${key()}`], ['Content-Type', 'multipart/form-data; boundary=x'], ...extra],
      body: Buffer.alloc(4 << 20, 0x20),
      framed: false,
      plan: { kind: 'write-first' },
    };
  }
  it.each(cases)('%s: %i reaches a client that writes 4 MiB before it reads, 3 times out of 3', async (_, status, make) => {
    for (let i = 0; i < 3; i++) {
      const o = await exchange(t.mock.url, make(), 10_000);
      expect(o.kind === 'answered' ? o.status : o).toBe(status);
      if (o.kind === 'answered') expect(validate('error', JSON.parse(o.body.toString())).errors).toEqual([]);
    }
  });
});

describe('repeated headers', () => {
  const get = (extra: string) =>
    rawExchange(t.mock.url,
      `GET ${API}/projects?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\n${extra}Connection: close\r\n\r\n`);
  it.each([
    ['authorization', `Authorization: Bearer nope\r\n`],
    ['authorization', `authorization: Bearer ${'x'}\r\n`],
    ['host', 'Host: example.test\r\n'],
    ['idempotency-key', 'Idempotency-Key: a\r\nIdempotency-Key: b\r\n'],
  ])('two %s headers answer 400 in the envelope, before any layer reads either', async (name, extra) => {
    const r: RawReply = await get(extra);
    expect(r.status, r.body).toBe(400);
    expect(validate('error', r.json).errors).toEqual([]);
    expect(r.json.detail[name]).toBeTypeOf('string');
  });

  it('one of each is served', async () => {
    expect((await get('Idempotency-Key: a\r\n')).status).toBe(200);
  });
});

describe('an empty Idempotency-Key', () => {
  it('is no key: each request runs (§4 gives the key as an optional string; refusing "" would reject what §4 allows)', async () => {
    const a = await t.call('POST', '/organizations', { body: { name: 'empty key 1' }, headers: { 'idempotency-key': '' } });
    const b = await t.call('POST', '/organizations', { body: { name: 'empty key 2' }, headers: { 'idempotency-key': '' } });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.id).not.toBe(b.json.id);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('internal failures', () => {
  it('answer 5xx in the envelope, naming no server path, and the mock recovers', async () => {
    const blobs = join(t.mock.dataDir, 'blobs');
    const kept = await readdir(blobs);
    const moved = `${blobs}-away`;
    await rm(moved, { recursive: true, force: true });
    await rename(blobs, moved);
    try {
      const r = await rawExchange(t.mock.url, uploadRequest(quoted('x.bin'), Buffer.from('x')));
      expect(r.status, r.body).toBeGreaterThanOrEqual(500);
      expect(validate('error', r.json).errors).toEqual([]);
      expect(r.text).not.toContain(t.mock.dataDir);
      expect(r.text).not.toMatch(/ENOENT|\/tmp\//);
    } finally {
      await rm(blobs, { recursive: true, force: true });
      await rename(moved, blobs);
    }
    expect((await readdir(blobs)).length).toBe(kept.length);
    const again = await rawExchange(t.mock.url, uploadRequest(quoted('x.bin'), Buffer.from('x')));
    expect(again.status).toBe(201);
  });

  it('out of descriptors: 503 in the envelope with Retry-After, then served again', async () => {
    const cli = fileURLToPath(new URL('../bin/cli.ts', import.meta.url));
    const child = spawn('bash', ['-c', `ulimit -n 100 && exec "${process.execPath}" --import tsx "${cli}" mock --port 0`], {
      env: { ...process.env, MOCK_API_KEY_TEAM_A: 'fd-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const held: Socket[] = [];
    try {
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      await vi.waitFor(() => expect(out).toContain('CONFORMANCE_SORT_FIELDS'), { timeout: 30_000, interval: 100 });
      const url = /CONFORMANCE_BASE_URL='([^']+)'/.exec(out)![1]!;
      const upload = (socket: Socket) =>
        new Promise<string>((resolve) => {
          const body = '--b\r\nContent-Disposition: form-data; name="file"; filename="x.txt"\r\n\r\nhello\r\n--b--\r\n';
          let got = '';
          socket.on('data', (d) => (got += d));
          socket.on('close', () => resolve(got));
          socket.write(
            `POST ${API}/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer fd-key\r\nContent-Type: multipart/form-data; boundary=b\r\n`
              + `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
          );
        });
      const open = () =>
        new Promise<Socket>((resolve) => {
          const s = connect(Number(new URL(url).port), '127.0.0.1', () => resolve(s));
          s.on('error', () => undefined);
        });
      const first = await open();
      // Idle connections until the mock holds every descriptor it may.
      for (let i = 0; i < 120; i++) held.push(await open());
      await vi.waitFor(() => expect(readdirSync(`/proc/${child.pid}/fd`).length).toBeGreaterThanOrEqual(99), { timeout: 5_000, interval: 50 });
      const r = await upload(first);
      expect(r).toMatch(/^HTTP\/1\.1 503 /);
      expect(r.toLowerCase()).toContain('retry-after: 1');
      const json = JSON.parse(r.slice(r.indexOf('\r\n\r\n') + 4));
      expect(validate('error', json).errors).toEqual([]);
      expect(json.error.code).toBe('service_unavailable');
      expect(r).not.toMatch(/\/tmp\/|api-mock-|ENFILE|EMFILE/);
      for (const s of held.splice(0)) s.destroy();
      await vi.waitFor(async () => expect(await upload(await open())).toMatch(/^HTTP\/1\.1 201 /), { timeout: 5_000, interval: 100 });
    } finally {
      for (const s of held) s.destroy();
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
