// The mock under hostile clients: every resource a request takes is released however it ends
// (downloads and uploads abandoned at random points, many times: the descriptors and the heap of
// the process serving come back to where they started); every upload accepted downloads
// byte-identical under the name it was stored with, and the names that cannot be are refused;
// refusals reach clients that write their whole body before reading; repeated credentials and
// authorities are refused; internal failures answer 5xx in the envelope without server paths;
// a download its client never reads is ended; requests pipelined before bytes that are no request
// are each answered, in order, before the 400 that closes the connection; transfer codings other
// than chunked are refused with 501; an upload whose declared length is over the limit is refused
// before its body is read.
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
import { DEFAULT_DOWNLOAD_IDLE_TIMEOUT_MS, UPLOAD_LIMIT_BYTES } from './reference/context.js';
import { MAX_FILENAME_BYTES } from './reference/filenames.js';
import { formOverheadBytes } from './reference/multipart.js';
import { startTestMock, type TestMock } from './testing/client.js';
import { answersIn, exchange, filenameArb, type HostileRequest, type ReadAnswer, rfc8187 } from './testing/hostile.js';
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
    ['a declared length over the upload limit', 413, () => ({ ...refused([['Content-Length', '31400000']]), framed: true })],
    ['a transfer coding other than chunked', 501, () => ({ ...refused([['Transfer-Encoding', 'gzip, chunked']]), framed: true })],
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

/** Sends `data` on one connection and reads every answer until the server closes it (or `waitMs`). */
function pipelined(data: string | Buffer, methods: string[] = ['GET'], waitMs = 5_000): Promise<{ answers: ReadAnswer[]; rest: string; closed: boolean; }> {
  return new Promise((resolve) => {
    const socket = connect(port(), '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const { answers, rest } = answersIn(Buffer.concat(chunks), closed, methods);
      resolve({ answers, rest: rest.toString('latin1'), closed });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => done(true));
    socket.write(data);
  });
}

const jsonOf = (a: ReadAnswer | undefined) => JSON.parse(a?.body.toString('utf8') ?? 'null');
const organizationsNamed = async (name: string) => (await t.call('GET', `/organizations?q=${encodeURIComponent(name)}&limit=100`)).json.data.length as number;

const postOrganization = (body: string | Buffer, o: { length?: number; extra?: string; } = {}) =>
  Buffer.concat([
    Buffer.from(
      `POST ${API}/organizations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\nContent-Type: application/json\r\n${o.extra ?? ''}`
        + `Content-Length: ${o.length ?? Buffer.byteLength(body)}\r\n\r\n`,
    ),
    Buffer.from(body),
  ]);
const getProjects = (extra = '') => `GET ${API}/projects?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\n${extra}\r\n`;

describe('requests pipelined on one connection, then bytes that are no request', () => {
  it('a create followed by bytes that are no request: its 201, then the 400, in order, and the connection closed', async () => {
    const r = await pipelined(Buffer.concat([postOrganization('{"name":"pipelined-lost-1"}'), Buffer.from('XYZ\r\n\r\n')]));
    expect(r.answers.map((a) => a.status), r.rest).toEqual([201, 400]);
    expect(jsonOf(r.answers[0]).name).toBe('pipelined-lost-1');
    expect(jsonOf(r.answers[1]).detail.method).toBeTypeOf('string');
    expect(r.answers[1]!.headers.connection).toBe('close');
    expect(r.rest).toBe('');
    expect(r.closed).toBe(true);
    expect(await organizationsNamed('pipelined-lost-1')).toBe(1);
  });

  it("a Content-Length counted in characters, not UTF-8 bytes: the request's own answer first, then the 400 for the bytes left over", async () => {
    // 17 characters, 19 bytes: the first 17 bytes are the JSON object, the 2 left over are no request.
    const body = '{"name":"déjà"}XY';
    const r = await pipelined(postOrganization(body, { length: body.length }));
    expect(r.answers.map((a) => a.status), r.rest).toEqual([201, 400]);
    expect(jsonOf(r.answers[0]).name).toBe('déjà');
    expect(jsonOf(r.answers[1]).detail.method).toBeTypeOf('string');
    // A JSON body cut short is the request's own 400, which closes the connection: what follows is never read.
    const cut = await pipelined(postOrganization('{"name":"café"}', { length: '{"name":"café"}'.length }));
    expect(cut.answers.map((a) => [a.status, Object.keys(jsonOf(a).detail ?? {})]), cut.rest).toEqual([[400, ['body']]]);
  });

  it('every request read before the bytes is answered, in order, a download among them, then the 400', async () => {
    const up = await rawExchange(t.mock.url, uploadRequest(quoted('pipelined.bin'), Buffer.alloc(300_000, 9)), { waitMs: 5_000 });
    expect(up.status).toBe(201);
    const download = `GET ${API}/attachments/${up.json.id}/download HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\n\r\n`;
    const r = await pipelined(
      Buffer.concat([
        Buffer.from(getProjects()),
        Buffer.from(download),
        postOrganization('{"name":"pipelined-lost-2"}'),
        Buffer.from(getProjects()),
        Buffer.from('\x00\x01 not a request\r\n\r\n'),
      ]),
    );
    expect(r.answers.map((a) => a.status), r.rest.slice(0, 300)).toEqual([200, 200, 201, 200, 400]);
    expect(r.answers[1]!.body.equals(Buffer.alloc(300_000, 9))).toBe(true);
    expect(jsonOf(r.answers[2]).name).toBe('pipelined-lost-2');
    expect(validate('error', jsonOf(r.answers[4])).errors).toEqual([]);
    expect(r.closed).toBe(true);
  });

  it('a broken chunked body after a request still being answered: that answer first, then the 400 for the body', async () => {
    const chunked = `POST ${API}/organizations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\n`
      + `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\nzz\r\n`;
    const r = await pipelined(Buffer.concat([Buffer.from(getProjects()), Buffer.from(chunked)]));
    expect(r.answers.map((a) => a.status), r.rest).toEqual([200, 400]);
    expect(jsonOf(r.answers[1]).detail.body).toBe('malformed chunked encoding');
  });

  it('after a request with Connection: close, nothing that follows is processed (RFC 9112 §9.6)', async () => {
    const r = await pipelined(Buffer.concat([postOrganization('{"name":"pipelined-last"}', { extra: 'Connection: close\r\n' }), Buffer.from('XYZ\r\n\r\n')]));
    expect(r.answers.map((a) => a.status), r.rest).toEqual([201]);
    expect(r.answers[0]!.headers.connection).toBe('close');
    expect(r.rest).toBe('');
  });
});

describe('transfer codings', () => {
  const chunkedPost = (codings: string[], name: string) => {
    const body = JSON.stringify({ name });
    return `POST ${API}/organizations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\nContent-Type: application/json\r\n`
      + codings.map((c) => `Transfer-Encoding: ${c}\r\n`).join('')
      + `\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  };

  it.each([
    [['gzip, chunked'], 'gzip'],
    [['identity, chunked'], 'identity'],
    [['x-custom;q=1, chunked'], 'x-custom'],
    [['deflate', 'chunked'], 'deflate'],
  ])('%j: 501 not_implemented naming %s, nothing stored, the connection closed (RFC 9112 §6.1)', async (codings, coding) => {
    const name = `coding-${coding}`;
    const r = await pipelined(chunkedPost(codings, name));
    expect(r.answers.map((a) => a.status), r.rest).toEqual([501]);
    const json = jsonOf(r.answers[0]);
    expect(validate('error', json).errors).toEqual([]);
    expect(json.error.code).toBe('not_implemented');
    expect(json.detail['transfer-encoding']).toContain(coding);
    expect(r.closed).toBe(true);
    expect(await organizationsNamed(name)).toBe(0);
  });

  it('chunked twice is malformed (400), chunked alone is read', async () => {
    const twice = await pipelined(chunkedPost(['chunked, chunked'], 'coding-twice'));
    expect(twice.answers.map((a) => [a.status, jsonOf(a).detail]), twice.rest).toEqual([[400, { 'transfer-encoding': 'is not valid' }]]);
    const once = await pipelined(chunkedPost(['chunked'], 'coding-once') + getProjects('Connection: close\r\n'));
    expect(once.answers.map((a) => a.status), once.rest).toEqual([201, 200]);
  });
});

describe('framing headers', () => {
  const post = (headers: string) =>
    `POST ${API}/organizations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\nContent-Type: application/json\r\n${headers}\r\n2\r\n{}\r\n0\r\n\r\n`;
  it.each([
    ['two Content-Length', 'Content-Length: 2\r\nContent-Length: 3\r\n', 'may be given once only'],
    ['two equal Content-Length', 'Content-Length: 2\r\nContent-Length: 2\r\n', 'may be given once only'],
    ['Content-Length, then Transfer-Encoding', 'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n', 'may not be sent with Transfer-Encoding'],
    ['Transfer-Encoding, then Content-Length', 'Transfer-Encoding: chunked\r\nContent-Length: 2\r\n', 'may not be sent with Transfer-Encoding'],
    ['a Content-Length that is no number', 'Content-Length: 2x\r\n', 'is not a valid length'],
  ])('%s: 400 whose detail says so', async (_, headers, detail) => {
    const r = await pipelined(post(headers));
    expect(r.answers.map((a) => [a.status, jsonOf(a).detail]), r.rest).toEqual([[400, { 'content-length': detail }]]);
  });
});

describe('an upload whose declared length is over the limit', () => {
  const head = (length: number) =>
    `POST ${API}/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.keys.team}\r\n`
    + `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${length}\r\n\r\n--x\r\n`
    + `Content-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`;

  it('is refused with 413 before its body is read, when no form of that length holds a file within the limit', async () => {
    const declared = 31_400_000;
    expect(declared).toBeGreaterThan(UPLOAD_LIMIT_BYTES + formOverheadBytes('x'));
    const socket = connect(port(), '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.write(head(declared));
    socket.write(Buffer.alloc(64 * 1024, 0x61));
    await vi.waitFor(() => expect(got).toMatch(/^HTTP\/1\.1 413 [\s\S]*\r\n\r\n\{/), { timeout: 3_000, interval: 20 });
    expect(got.toLowerCase()).toContain('connection: close');
    expect(socket.bytesWritten).toBeLessThan(1 << 20);
    const json = JSON.parse(got.slice(got.indexOf('\r\n\r\n') + 4));
    expect(json.error.code).toBe('payload_too_large');
    socket.destroy();
  });

  it('is read while it arrives when a form of that length may still hold a file within the limit', async () => {
    const socket = connect(port(), '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.write(head(UPLOAD_LIMIT_BYTES + formOverheadBytes('x')));
    socket.write(Buffer.alloc(64 * 1024, 0x61));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(got).toBe('');
    socket.destroy();
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

describe('an empty Idempotency-Key (reading empty-idempotency-key: §4 gives the key as an optional string, no form)', () => {
  it('is no key by default: each request runs', async () => {
    const a = await t.call('POST', '/organizations', { body: { name: 'empty key 1' }, headers: { 'idempotency-key': '' } });
    const b = await t.call('POST', '/organizations', { body: { name: 'empty key 2' }, headers: { 'idempotency-key': '' } });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.id).not.toBe(b.json.id);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
  });

  it('is refused as a malformed key under the other reading, and nothing is stored', async () => {
    const refusing = await startTestMock({ readings: { 'empty-idempotency-key': 'refuse' } });
    try {
      const r = await refusing.call('POST', '/organizations', { body: { name: 'empty key refused' }, headers: { 'idempotency-key': '' } });
      expect(r.status).toBe(400);
      expect(r.json.detail['idempotency-key']).toBe('may not be empty');
      expect((await refusing.call('GET', '/organizations?q=empty%20key%20refused')).json.data).toEqual([]);
      expect((await refusing.call('POST', '/organizations', { body: { name: 'a key' }, headers: { 'idempotency-key': 'k' } })).status).toBe(201);
    } finally {
      await refusing.close();
    }
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
