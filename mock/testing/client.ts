// Test support for mock/*.test.ts: start the mock in-process, call it with undici, and
// validate every JSON response body against the specs/ schema its route answers with.
import { Readable } from 'node:stream';
import { FormData, request } from 'undici';
import { type SchemaName, validate, validatePage } from '../../specs/index.js';
import { type MockOptions, type RunningMock, start } from '../index.js';

export const API = '/api/public/v1';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export type KeyName = 'team' | 'other' | 'readOnly' | 'noApi' | 'none' | string;

export interface CallOptions {
  key?: KeyName;
  body?: unknown;
  /** A raw body (string or bytes or form data) sent as is. */
  raw?: string | Buffer | FormData | AsyncIterable<Uint8Array>;
  headers?: Record<string, string>;
  /** Skip schema validation (responses without a schema, e.g. downloads). */
  noValidate?: boolean;
}

/** The schema a response of `METHOD path` must satisfy; 'page:<item>' for lists. */
export function schemaFor(method: string, path: string, status: number, shape: 'full' | 'legacy'): string | undefined {
  const p = path.split('?')[0]!.replace(API, '').replace(/^\/(projects|assignments|employees|organizations|attachments|files)\/[^/]+/, '/$1/{id}');
  if (status >= 400) {
    const legacyRoute = shape === 'legacy'
      && ((method === 'GET' && /^\/(projects|organizations)$/.test(p)) || (method === 'PATCH' && /^\/(projects|organizations)\/\{id\}$/.test(p)));
    return legacyRoute ? 'error-short' : 'error';
  }
  const project = shape === 'legacy' ? 'project-legacy' : 'project';
  const organization = shape === 'legacy' ? 'organization-legacy' : 'organization';
  const table: Record<string, string> = {
    'GET /projects': `page:${project}`,
    'GET /projects/{id}': project,
    'PATCH /projects/{id}': project,
    'GET /assignments': 'page:assignment',
    'GET /assignments/{id}': 'assignment',
    'POST /assignments': 'assignment',
    'PATCH /assignments/{id}': 'assignment',
    'DELETE /assignments/{id}': 'delete-result',
    'POST /employees': 'employee',
    'PATCH /employees/{id}': 'employee',
    'GET /organizations': `page:${organization}`,
    'POST /organizations': organization,
    'PATCH /organizations/{id}': organization,
    'GET /cvs': 'page:cv',
    'POST /attachments': 'attachment',
    'GET /attachments': 'page:attachment',
    'DELETE /attachments/{id}': 'delete-result',
    'POST /files': 'file',
    'GET /files/{id}': 'file',
    'DELETE /files/{id}': 'delete-result',
  };
  return table[`${method} ${p}`];
}

export function schemaErrors(schemaRef: string, value: unknown): string[] {
  const res = schemaRef.startsWith('page:') ? validatePage(schemaRef.slice(5) as SchemaName, value) : validate(schemaRef as SchemaName, value);
  return res.errors.map((e) => `${e.path} ${e.message}`);
}

export interface TestMock {
  mock: RunningMock;
  keys: Record<'team' | 'other' | 'readOnly' | 'noApi', string>;
  shape: 'full' | 'legacy';
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

export async function startTestMock(options: MockOptions = {}): Promise<TestMock> {
  const mock = await start({ port: 0, ...options });
  const s = mock.settings;
  const keys = {
    team: s.CONFORMANCE_API_KEY!,
    other: s.CONFORMANCE_API_KEY_OTHER_TEAM!,
    readOnly: s.CONFORMANCE_API_KEY_READ_ONLY!,
    noApi: s.CONFORMANCE_API_KEY_NO_API_ACCESS!,
  };
  const shape = options.shape ?? 'full';
  async function call(method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
    const keyName = opts.key ?? 'team';
    const token = keyName === 'none' ? undefined : (keys as Record<string, string>)[keyName] ?? keyName;
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...opts.headers };
    let body: CallOptions['raw'] | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = mock.url + (path.startsWith('/api/') ? path : API + path);
    const res = await request(url, { method: method as 'GET', headers, body: body as string | undefined });
    const text = await res.body.text();
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) h[k] = Array.isArray(v) ? v.join(', ') : String(v);
    let json: unknown;
    if ((h['content-type'] ?? '').startsWith('application/json')) json = JSON.parse(text);
    if (!opts.noValidate && json !== undefined) {
      const ref = schemaFor(method, path.replace(/^\/api\/public\/v\d/, ''), res.statusCode, shape);
      if (ref) {
        const errors = schemaErrors(ref, json);
        if (errors.length) throw new Error(`${method} ${path} → ${res.statusCode}: body violates ${ref}: ${errors.join('; ')}\n${text.slice(0, 500)}`);
      }
    }
    return { status: res.statusCode, headers: h, text, json };
  }
  return { mock, keys, shape, call, close: () => mock.close() };
}

/** A multipart form with one file part (and fields). */
export function uploadForm(
  bytes: Uint8Array | string,
  fields: Record<string, string> = {},
  filename = 'upload.bin',
  mime = 'application/octet-stream',
): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('file', new Blob([bytes], { type: mime }), filename);
  return fd;
}

/** Walks a list to the end; returns every item in order and the number of pages. */
export async function walk(t: TestMock, path: string, opts: CallOptions = {}, maxPages = 200): Promise<{ items: any[]; pages: number; }> {
  const items: any[] = [];
  let cursor = '';
  for (let pages = 1; pages <= maxPages; pages++) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await t.call('GET', cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path, opts);
    if (r.status !== 200) throw new Error(`walk ${path}: ${r.status} ${r.text}`);
    items.push(...r.json.data);
    if (!r.json.page.hasMore) return { items, pages };
    cursor = r.json.page.nextCursor;
  }
  throw new Error(`walk ${path}: more than ${maxPages} pages`);
}

/** A streamed multipart body with a file part of `size` bytes, generated in 1 MiB chunks. */
export function bigMultipart(size: number, fields: Record<string, string> = {}): { body: Readable; type: string; } {
  const boundary = 'mockboundary7d1f';
  const head = Object.entries(fields).map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
  async function* gen() {
    yield Buffer.from(
      `${head}--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    );
    const chunk = Buffer.alloc(1 << 20, 0x61);
    for (let left = size; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return { body: Readable.from(gen()), type: `multipart/form-data; boundary=${boundary}` };
}
