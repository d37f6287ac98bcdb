// A mix's steps (mix.ts) made concrete for one server: ids drawn from the team's data and
// the cursor of each page found by walking that server's lists (cursors are signed per
// start, so every mock instance needs its own). The result is sent as is by wrk (mix.lua,
// through toLua) or by the undici loop (load.ts).
import { request } from 'undici';
import { prng } from '../mock/index.js';
import { type Order, type Step, UPLOAD_BYTES } from './mix.js';

const API = '/api/public/v1';

export interface SequenceRequest {
  method: 'GET' | 'PATCH' | 'POST';
  path: string;
  /** Index into RequestSequence.bodies. */
  body?: number;
  contentType?: string;
}

export interface RequestSequence {
  /** Sent with every request (authorization, accept). */
  headers: Record<string, string>;
  bodies: Buffer[];
  requests: SequenceRequest[];
}

export interface TeamData {
  projects: string[];
  employees: string[];
}

interface PageEnvelope {
  data: { id: string; employee_id?: string; }[];
  page: { hasMore: boolean; nextCursor?: string; };
}

/** The paths of every page of one walk of a server's list, first page first. */
export class ListWalker {
  private readonly walks = new Map<string, Promise<string[]>>();

  constructor(
    private readonly origin: string,
    private readonly headers: Record<string, string>,
  ) {}

  async get(path: string): Promise<PageEnvelope> {
    const res = await request(this.origin + path, { headers: this.headers });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as PageEnvelope;
  }

  /** Every page's path; walks once per list, limit, order and filter. */
  pages(resource: string, limit: number, order: Order, projectId?: string): Promise<string[]> {
    const first = `${API}/${resource}?limit=${limit}&order=${order}${projectId ? `&project_id=${projectId}` : ''}`;
    let walk = this.walks.get(first);
    if (!walk) {
      walk = this.walk(first);
      this.walks.set(first, walk);
    }
    return walk;
  }

  private async walk(first: string): Promise<string[]> {
    const paths = [first];
    for (;;) {
      const page = await this.get(paths[paths.length - 1]!);
      if (!page.page.hasMore || !page.page.nextCursor) return paths;
      paths.push(`${first}&cursor=${encodeURIComponent(page.page.nextCursor)}`);
    }
  }

  /** Every id of a list, walked with the largest page. */
  async ids(resource: string, field: 'id' | 'employee_id' = 'id'): Promise<string[]> {
    const ids = new Set<string>();
    for (const path of await this.pages(resource, 100, 'asc')) {
      for (const item of (await this.get(path)).data) if (item[field]) ids.add(item[field]!);
    }
    return [...ids];
  }
}

export async function teamData(walker: ListWalker): Promise<TeamData> {
  // §4 shows no list of employees; the assignments name them.
  return { projects: await walker.ids('projects'), employees: await walker.ids('assignments', 'employee_id') };
}

const pick = <T>(items: readonly T[], fraction: number): T => items[Math.min(items.length - 1, Math.floor(fraction * items.length))]!;

function uploadFile(variant: number): Buffer {
  const r = prng(1000 + variant);
  return Buffer.from(Array.from({ length: UPLOAD_BYTES }, () => Math.floor(r() * 256)));
}

function multipart(variant: number, fields: Record<string, string>): { body: Buffer; contentType: string; } {
  const boundary = `bench-mix-${variant}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const head = `${
    parts.join('')
  }--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="bench-${variant}.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), uploadFile(variant), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The requests of `steps` against the server `walker` walks (its cursors), with `headers`. */
export async function resolveSequence(steps: readonly Step[], data: TeamData, walker: ListWalker, headers: Record<string, string>): Promise<RequestSequence> {
  const bodies: Buffer[] = [];
  const bodyIndex = new Map<string, number>();
  const body = (key: string, make: () => Buffer): number => {
    let i = bodyIndex.get(key);
    if (i === undefined) {
      i = bodies.push(make()) - 1;
      bodyIndex.set(key, i);
    }
    return i;
  };
  const json = (value: unknown) => {
    const text = JSON.stringify(value);
    return { body: body(text, () => Buffer.from(text)), contentType: 'application/json' };
  };
  const requests: SequenceRequest[] = [];
  for (const step of steps) {
    switch (step.kind) {
      case 'list': {
        const projectId = step.byProject === undefined ? undefined : pick(data.projects, step.byProject);
        const pages = await walker.pages(step.resource, step.limit, step.order, projectId);
        requests.push({ method: 'GET', path: pick(pages, step.page) });
        break;
      }
      case 'get-project':
        requests.push({ method: 'GET', path: `${API}/projects/${pick(data.projects, step.project)}` });
        break;
      case 'patch-notes':
        requests.push({ method: 'PATCH', path: `${API}/projects/${pick(data.projects, step.project)}`, ...json({ notes: `bench note ${step.note}` }) });
        break;
      case 'create-employee':
        requests.push({
          method: 'POST',
          path: `${API}/employees`,
          ...json({ first_name: 'Bench', last_name: `Employee ${step.n}`, email: `bench.${step.n}@example.com` }),
        });
        break;
      case 'create-assignment':
        requests.push({
          method: 'POST',
          path: `${API}/assignments`,
          ...json({ employee_id: pick(data.employees, step.employee), project_id: pick(data.projects, step.project), role: 'Developer' }),
        });
        break;
      case 'create-organization':
        requests.push({ method: 'POST', path: `${API}/organizations`, ...json({ name: `Bench Organization ${step.n}`, roles: ['client'] }) });
        break;
      case 'upload-attachment': {
        const projectId = data.projects[step.file % data.projects.length]!;
        const upload = multipart(step.file, { entity_type: 'project', entity_id: projectId });
        requests.push({
          method: 'POST',
          path: `${API}/attachments`,
          body: body(`attachment ${step.file}`, () => upload.body),
          contentType: upload.contentType,
        });
        break;
      }
      case 'upload-file': {
        const upload = multipart(step.file, {});
        requests.push({ method: 'POST', path: `${API}/files`, body: body(`file ${step.file}`, () => upload.body), contentType: upload.contentType });
        break;
      }
    }
  }
  return { headers, bodies, requests };
}

/** A Lua string literal of arbitrary bytes (printable ASCII as is, the rest as \ddd). */
function luaString(bytes: Buffer): string {
  let out = '"';
  for (const b of bytes) out += b >= 32 && b < 127 && b !== 34 && b !== 92 ? String.fromCharCode(b) : `\\${String(b).padStart(3, '0')}`;
  return `${out}"`;
}

/** The sequence as a Lua chunk returning { headers, bodies, requests } (read by mix.lua). */
export function toLua(seq: RequestSequence): string {
  const s = (text: string) => luaString(Buffer.from(text));
  const headers = Object.entries(seq.headers).map(([k, v]) => `[${s(k)}] = ${s(v)}`).join(', ');
  const bodies = seq.bodies.map(luaString).join(',\n');
  const requests = seq.requests
    .map((r) => `{ ${s(r.method)}, ${s(r.path)}, ${r.body === undefined ? 'false' : r.body + 1}, ${r.contentType ? s(r.contentType) : 'false'} }`)
    .join(',\n');
  return `return {\nheaders = { ${headers} },\nbodies = {\n${bodies}\n},\nrequests = {\n${requests}\n}\n}\n`;
}
