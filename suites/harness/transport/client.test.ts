// The client against a local stub server: redaction, transcripts, curl, 429 handling, timeouts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { defaults, type Settings } from '../../../contract/settings.js';
import { addResponseInspector, resetTrafficForTests, RunStopped, stopTraffic, trafficStop } from '../run/context.js';
import { beginCheck, endCheck } from '../run/current.js';
import { alteredKey, ApiClient, TransportError } from './client.js';
import { curlCommand } from './curl.js';
import { retryAfterMs } from './retry.js';

const KEY = 'sk_live_abcdefghijklmnop';
const OTHER = 'sk_live_qrstuvwxyz012345';
let server: Server;
let baseUrl = '';
let hits429 = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.includes('/slow')) return void setTimeout(() => res.end('{}'), 2_000);
    if (req.url?.includes('/busy') && hits429++ < 2) {
      res.writeHead(429, { 'retry-after': '0' });
      return void res.end('{}');
    }
    res.writeHead(200, { 'content-type': 'application/json', 'x-inspect': req.url?.includes('/bad') ? 'bad' : 'ok' });
    res.end(JSON.stringify({ echoed: req.headers.authorization ?? null, url: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function client(over: Partial<Settings> = {}): ApiClient {
  return new ApiClient(
    {
      ...defaults,
      paths: { organizationCreate: defaults.organizationCreate },
      sortFields: {},
      shape: 'auto',
      readOnly: false,
      selection: { only: [], exclude: [] },
      mock: { deprecate: [] },
      viaPrism: false,
      keys: { team: KEY, otherTeam: OTHER },
      baseUrl,
      ...over,
    } as Settings & { baseUrl: string; },
  );
}

describe('the harness client', () => {
  test('transcripts, bodies and curl never carry a key', async () => {
    const api = client();
    const state = beginCheck();
    const res = await api.send({ method: 'POST', path: '/projects', json: { a: 1 }, idempotencyKey: 'k1' });
    await api.send({ method: 'GET', path: '/projects', auth: { authorization: `Token ${OTHER}` } });
    endCheck();
    expect((res.body as { echoed: string; }).echoed).toBe(`Bearer ${KEY}`);
    expect(state.requests).toBe(2);
    const shown = JSON.stringify(state.transcript);
    expect(shown).not.toContain(KEY);
    expect(shown).not.toContain(OTHER);
    expect(state.transcript[0]!.request.headers.authorization).toBe('Bearer $CONFORMANCE_API_KEY');
    expect(state.transcript[0]!.curl).toContain('"authorization: Bearer $CONFORMANCE_API_KEY"');
    expect(state.transcript[0]!.curl).toContain(`--data-raw '{"a":1}'`);
    expect(state.transcript[1]!.request.headers.authorization).toBe('Token $CONFORMANCE_API_KEY_OTHER_TEAM');
    await api.close();
  });

  test('a key sent altered or under another spelling of the scheme is sent as asked and shown by its setting name only', async () => {
    const api = client();
    const state = beginCheck();
    const sent: string[] = [];
    for (const auth of [{ key: 'team', alter: 'case' }, { key: 'team', alter: 'tail' }, { key: 'team', scheme: 'bearer' }] as const) {
      sent.push(((await api.send({ method: 'GET', path: '/projects', auth })).body as { echoed: string; }).echoed);
    }
    endCheck();
    expect(sent).toEqual([`Bearer ${alteredKey(KEY, 'case')}`, `Bearer ${alteredKey(KEY, 'tail')}`, `bearer ${KEY}`]);
    expect(alteredKey(KEY, 'case')).not.toBe(KEY);
    expect(alteredKey(KEY, 'tail').slice(0, -1)).toBe(KEY.slice(0, -1));
    const shown = JSON.stringify(state.transcript);
    for (const secret of [KEY, alteredKey(KEY, 'case'), alteredKey(KEY, 'tail')]) expect(shown).not.toContain(secret);
    expect(state.transcript.map((t) => t.request.headers.authorization)).toEqual([
      'Bearer $CONFORMANCE_API_KEY (letter case changed)',
      'Bearer $CONFORMANCE_API_KEY (last character changed)',
      'bearer $CONFORMANCE_API_KEY',
    ]);
    await api.close();
  });

  test('a 429 with Retry-After is retried, boundedly', async () => {
    const api = client();
    hits429 = 0;
    expect((await api.send({ method: 'GET', path: '/busy' })).status).toBe(200);
    hits429 = -10;
    const limited = client({ maxRetries: 1 });
    expect((await limited.send({ method: 'GET', path: '/busy' })).status).toBe(429);
    await api.close();
    await limited.close();
  });

  test('every request has a timeout', async () => {
    const api = client({ timeoutMs: 200 });
    await expect(api.send({ method: 'GET', path: '/slow' })).rejects.toBeInstanceOf(TransportError);
    await api.close();
  });

  test('a response inspector fails the running check', async () => {
    addResponseInspector((ex) => (ex.response?.headers['x-inspect'] === 'bad' ? 'inspector says no' : undefined));
    const api = client();
    const state = beginCheck();
    await api.send({ method: 'GET', path: '/ok' });
    await api.send({ method: 'GET', path: '/bad' });
    endCheck();
    expect(state.inspections).toHaveLength(1);
    expect(state.inspections[0]).toContain('inspector says no');
    await api.close();
  });

  test('Retry-After as seconds or HTTP-date', () => {
    expect(retryAfterMs('3', 0)).toBe(3000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', 0, Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(5000);
    expect(retryAfterMs(undefined, 2)).toBe(1000);
  });

  test('curl of a multipart upload names the file part and the key variable', () => {
    const cmd = curlCommand({
      method: 'POST',
      url: 'http://h/api/public/v1/files',
      headers: { authorization: 'Bearer $CONFORMANCE_API_KEY', 'content-type': 'multipart/form-data; boundary=x' },
      multipart: { fields: { category: 'contract' }, file: { name: 'f.bin', size: 10, contentType: 'application/octet-stream' } },
    });
    expect(cmd).toContain("head -c 10 /dev/urandom > 'f.bin'");
    expect(cmd).toContain("-F 'file=@f.bin;type=application/octet-stream'");
    expect(cmd).not.toContain('boundary');
  });
});

describe('stopping traffic', () => {
  beforeEach(() => resetTrafficForTests());
  afterEach(() => resetTrafficForTests());

  test('requests in a row without a response stop the run: later requests are refused at once, cleanup still goes out', async () => {
    const api = client({ timeoutMs: 150, stopAfterNoResponse: 3 });
    for (let i = 0; i < 2; i += 1) await expect(api.send({ method: 'GET', path: '/slow' })).rejects.toBeInstanceOf(TransportError);
    expect(trafficStop()).toBeUndefined();
    expect((await api.send({ method: 'GET', path: '/ok' })).status).toBe(200); // an answer resets the count
    for (let i = 0; i < 3; i += 1) await expect(api.send({ method: 'GET', path: '/slow' })).rejects.toBeInstanceOf(TransportError);
    expect(trafficStop()).toMatchObject({
      cause: 'target-unresponsive',
      message: expect.stringContaining('3 requests in a row got no response (last: GET /slow'),
    });
    const started = Date.now();
    await expect(api.send({ method: 'GET', path: '/ok' })).rejects.toBeInstanceOf(RunStopped);
    expect(Date.now() - started).toBeLessThan(50);
    expect((await api.send({ method: 'GET', path: '/ok', cleanup: true })).status).toBe(200);
    await api.close();
  });

  test('stopping aborts the requests in flight', async () => {
    const api = client({ timeoutMs: 5_000 });
    const pending = api.send({ method: 'GET', path: '/slow' });
    setTimeout(() => stopTraffic({ cause: 'interrupted', message: 'interrupted (SIGINT)' }), 100);
    const started = Date.now();
    await expect(pending).rejects.toBeInstanceOf(RunStopped);
    expect(Date.now() - started).toBeLessThan(1_000);
    await api.close();
  });
});
