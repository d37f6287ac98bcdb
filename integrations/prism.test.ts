// Prism as a validating proxy in front of the reference mock, and Prism's
// reading of the document's JSON Schema dialect.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { start } from '../mock/index.js';
import { documentRoutes } from './document-routes.js';
import { parseViolations, type PrismViolation, prismViolations, responseErrors } from './prism-violations.js';
import { type PrismTarget, startPrismMock, startPrismProxy } from './prism.js';

const OPENAPI = fileURLToPath(new URL('../specs/openapi.json', import.meta.url));
const API = '/api/public/v1';
const NIL = '00000000-0000-0000-0000-000000000000';

interface Sent {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  violations: PrismViolation[];
}

function client(base: string, key: string) {
  return async (method: string, path: string, json?: unknown): Promise<Sent> => {
    const url = base + (path.startsWith('/api/') ? path : API + path);
    const res = await request(url, {
      method: method as 'GET',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.body.text();
    const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { method, url, status: res.statusCode, headers, body, violations: parseViolations(headers) };
  };
}

const firstId = (page: unknown): string => {
  const id = (page as { data?: { id?: string; }[]; }).data?.[0]?.id;
  if (!id) throw new Error(`no record in ${JSON.stringify(page).slice(0, 200)}`);
  return id;
};

describe('sl-violations parsing', () => {
  test('absent header: no violations', () => {
    expect(prismViolations({})).toEqual([]);
  });
  test("only response errors count against the target; request violations are the suite's own negative inputs", () => {
    const header = JSON.stringify([
      { location: ['request', 'query', 'limit'], severity: 'Error', code: 'type', message: 'Request query parameter limit must be integer' },
      { location: ['response', 'body', 'data', '0', 'title'], severity: 'Error', code: 'type', message: 'Response body property data.0.title must be string' },
      { location: ['response'], severity: 'Warning', code: 'status', message: 'Unable to match the returned status code' },
    ]);
    expect(parseViolations({ 'SL-Violations': header })).toHaveLength(3);
    expect(responseErrors({ 'sl-violations': header }).map((v) => v.location.join('.'))).toEqual(['response.body.data.0.title']);
    expect(prismViolations({ 'sl-violations': header })).toEqual([
      'Error at response.body.data.0.title: Response body property data.0.title must be string (type)',
    ]);
  });
  test('a truncated header still fails, with the entries that survived the cut', () => {
    expect(responseErrors({ 'sl-violations': 'Too many violations! [{"location":' }).map((v) => v.code)).toEqual(['truncated']);
    const entry = { location: ['response', 'body', 'data', '0', 'title'], severity: 'Error', code: 'type', message: 'm' };
    const cut = `Too many violations! ${JSON.stringify([entry, entry, entry]).slice(0, -20)}`;
    expect(responseErrors({ 'sl-violations': cut }).map((v) => v.code)).toEqual(['type', 'type', 'truncated']);
  });
});

describe('the document Prism reads', () => {
  const document = JSON.parse(readFileSync(OPENAPI, 'utf8')) as { jsonSchemaDialect?: string; paths: Record<string, Record<string, unknown>>; };

  test('declares the 2020-12 dialect', () => {
    expect(document.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });
  test('describes the shown paths and not the unshown ones', () => {
    const routes = documentRoutes(document);
    expect(routes.describes('GET', `${API}/projects`)).toBe(true);
    expect(routes.describes('PATCH', `${API}/projects/${NIL}`)).toBe(true);
    expect(routes.describes('GET', `${API}/attachments/${NIL}/download`)).toBe(false);
    expect(routes.describes('PUT', `${API}/projects/${NIL}`)).toBe(false);
  });
});

describe('prism proxy in front of the clean mock', () => {
  let mock: Awaited<ReturnType<typeof start>>;
  let proxy: PrismTarget;
  let send: ReturnType<typeof client>;

  beforeAll(async () => {
    mock = await start({ seed: 7 });
    proxy = await startPrismProxy({ upstream: mock.url, openapiPath: OPENAPI });
    send = client(proxy.url, mock.settings.CONFORMANCE_API_KEY ?? '');
  }, 90_000);
  afterAll(async () => {
    await proxy?.stop();
    await mock?.close();
  });

  test('a representative set of exchanges shows no response violation', async () => {
    const exchanges: Sent[] = [];
    const go = async (method: string, path: string, json?: unknown) => {
      const sent = await send(method, path, json);
      exchanges.push(sent);
      return sent;
    };
    const projects = await go('GET', '/projects?limit=5');
    const projectId = firstId(projects.body);
    await go('GET', `/projects/${projectId}`);
    await go('PATCH', `/projects/${projectId}`, {});
    await go('GET', '/projects?limit=2&order=desc');
    const employee = await go('POST', '/employees', { first_name: 'Prism', last_name: 'Probe' });
    const employeeId = (employee.body as { id: string; }).id;
    await go('PATCH', `/employees/${employeeId}`, { title: 'probe' });
    const assignment = await go('POST', '/assignments', { employee_id: employeeId, project_id: projectId, role: 'probe' });
    const assignmentId = (assignment.body as { id: string; }).id;
    await go('GET', `/assignments/${assignmentId}`);
    await go('PATCH', `/assignments/${assignmentId}`, { role: 'probe 2' });
    await go('GET', `/assignments?project_id=${projectId}`);
    await go('DELETE', `/assignments/${assignmentId}`);
    const organizations = await go('GET', '/organizations?limit=3');
    await go('PATCH', `/organizations/${firstId(organizations.body)}`, { notes: 'probe' });
    await go('GET', '/cvs?limit=2');
    await go('GET', `/attachments?entity_type=project&entity_id=${projectId}`);
    await go('GET', `/projects/${NIL}`);
    await go('GET', '/projects?cursor=not-a-cursor');

    const statuses = exchanges.map((e) => `${e.method} ${e.url.replace(proxy.url, '')} ${e.status}`);
    expect(exchanges.filter((e) => e.status >= 500), statuses.join('\n')).toEqual([]);
    const found = exchanges.flatMap((e) => responseErrors(e.headers).map((v) => `${e.method} ${e.url}: ${v.message}`));
    expect(found).toEqual([]);
    expect(proxy.counts.prism).toBeGreaterThanOrEqual(exchanges.length);
  });

  test('uploads go around Prism with their bytes intact', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 131) % 256));
    const boundary = 'prismfrontprobe';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="probe.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const before = proxy.counts.direct;
    const res = await request(`${proxy.url}${API}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.settings.CONFORMANCE_API_KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const file = (await res.body.json()) as { size?: number; };
    expect(res.statusCode).toBeLessThan(300);
    expect(file.size).toBe(bytes.length);
    expect(proxy.counts.direct).toBe(before + 1);
  });
});

describe('prism proxy in front of a mock fault', () => {
  // How a check turns these violations into failures: suites/harness/prism-inspector.test.ts.
  test('field-mistyped: the mistyped project field is reported', { timeout: 90_000 }, async () => {
    const mock = await start({ seed: 7, fault: 'field-mistyped' });
    const proxy = await startPrismProxy({ upstream: mock.url, openapiPath: OPENAPI });
    try {
      const send = client(proxy.url, mock.settings.CONFORMANCE_API_KEY ?? '');
      const list = await send('GET', '/projects?limit=3');
      const one = await send('GET', `/projects/${firstId(list.body)}`);
      for (const sent of [list, one]) {
        const errors = responseErrors(sent.headers);
        expect(errors.length, `${sent.url}: ${JSON.stringify(sent.violations)}`).toBeGreaterThan(0);
        expect(errors.some((v) => v.location.includes('title'))).toBe(true);
      }
      expect(responseErrors(one.headers).map((v) => v.location.join('.'))).toContain('response.body.title');
    } finally {
      await proxy.stop();
      await mock.close();
    }
  });
});

describe('Prism validates with the 2020-12 dialect the document declares', () => {
  // A 2020-12-only keyword added to the project response: Ajv's 2020-12 vocabulary
  // enforces `dependentRequired`; the draft-07 default ignores it as unknown.
  const probe = { dependentRequired: { id: ['dialect_probe_field'] } };
  let dir: string;
  let mock: Awaited<ReturnType<typeof start>>;

  function documentWith(dialect: boolean): string {
    const document = JSON.parse(readFileSync(OPENAPI, 'utf8')) as Record<string, unknown> & {
      paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown; }>; }>; }>>;
    };
    const template = Object.keys(document.paths).find((p) => /\/projects\/\{[^}]+\}$/.test(p));
    const responses = template ? document.paths[template]?.get?.responses : undefined;
    const ok = Object.entries(responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
    const media = ok?.content?.['application/json'];
    if (!media?.schema) throw new Error('GET /projects/{id} has no JSON success response in the document');
    media.schema = { allOf: [media.schema, probe] };
    if (!dialect) delete document.jsonSchemaDialect;
    const file = join(dir, dialect ? 'openapi-2020-12.json' : 'openapi-default-dialect.json');
    writeFileSync(file, JSON.stringify(document));
    return file;
  }

  async function probeCodes(openapiPath: string): Promise<string[]> {
    const proxy = await startPrismProxy({ upstream: mock.url, openapiPath });
    try {
      const send = client(proxy.url, mock.settings.CONFORMANCE_API_KEY ?? '');
      const one = await send('GET', `/projects/${firstId((await send('GET', '/projects?limit=1')).body)}`);
      expect(one.status).toBe(200);
      return responseErrors(one.headers).map((v) => v.code);
    } finally {
      await proxy.stop();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prism-dialect-'));
    mock = await start({ seed: 7 });
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('with jsonSchemaDialect 2020-12 the violation is flagged', { timeout: 90_000 }, async () => {
    expect(await probeCodes(documentWith(true))).toContain('dependentRequired');
  });

  test('without it Prism falls back to draft-07 and passes silently (why the dialect matters)', { timeout: 90_000 }, async () => {
    expect(await probeCodes(documentWith(false))).not.toContain('dependentRequired');
  });
});

describe('prism mock', () => {
  test('starts on 127.0.0.1 and answers a list request with a page', { timeout: 90_000 }, async () => {
    const prism = await startPrismMock({ openapiPath: OPENAPI });
    try {
      expect(prism.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await client(prism.url, 'any-token')('GET', '/projects?limit=5');
      expect(res.status).toBe(200);
      expect(res.body).toHaveProperty('data');
    } finally {
      await prism.stop();
    }
  });
});
