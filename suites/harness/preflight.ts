// Preflight: before any check, within a short deadline, is the target there and are the keys
// right? One cheap GET of the first project page per key, and for keys the user gave, evidence
// that they belong to two teams. A failure is one line with a stable code; the run exits 2.
//
// Two teams, on any conforming deployment, even an empty one: every record belongs to one team
// (§1) and a list shows only the caller's team's records, so the first pages of the same list,
// read with the two keys, share no record when the keys are of two teams. The keys are taken to
// be of the same team only on positive evidence: both first pages non-empty and identical. When
// one or both are empty, the next list is compared (organizations, assignments, cvs); when every
// list is empty for both keys, nothing can tell, and the isolation checks will.
import { Agent, request } from 'undici';
import { API_PREFIX, type KeyName as AnyKey, keySettingNames, type Settings } from '../../contract/settings.js';

export type PreflightCode =
  | 'target_unreachable'
  | 'target_not_answering'
  | 'key_rejected'
  | 'not_the_api'
  | 'keys_same_team'
  | 'scratch_project_not_found';

export interface PreflightOptions {
  baseUrl: string;
  keys: Settings['keys'];
  /** Timeout of each request; the whole preflight ends within four of them. */
  timeoutMs: number;
  /** The user's own keys: check they belong to two teams (a mock's generated keys do by construction). */
  checkTeams: boolean;
  /**
   * A deployment: a 404 or a non-JSON answer on the project list means a wrong base address.
   * Off for the bundled mock, whose faults serve such answers on purpose (the checks report them).
   */
  strict: boolean;
  scratchProjects?: readonly string[];
}

export type PreflightResult =
  | { ok: true; durationMs: number; notes: string[]; firstProjects: Record<string, unknown>[]; }
  | { ok: false; durationMs: number; code: PreflightCode; message: string; };

class Failed extends Error {
  constructor(readonly code: PreflightCode, message: string) {
    super(message);
  }
}

/** The keys the preflight tries (a key without API access is refused by design). */
type KeyName = Exclude<AnyKey, 'noApiAccess'>;

interface PreflightAnswer {
  status: number;
  contentType: string;
  body: unknown;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function transportProblem(e: unknown, url: string, timeoutMs: number, overall: AbortSignal): Failed {
  const err = e as { name?: string; code?: string; cause?: { code?: string; message?: string; }; message?: string; };
  const code = err.cause?.code ?? err.code ?? '';
  const timedOut = err.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || overall.aborted;
  if (timedOut) {
    return new Failed('target_not_answering',
      `${url} accepted the connection but sent no response within ${seconds(timeoutMs)} (CONFORMANCE_PREFLIGHT_TIMEOUT_MS)`);
  }
  const why = code === 'ECONNREFUSED'
    ? 'connection refused'
    : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
    ? 'host not found'
    : code === 'UND_ERR_CONNECT_TIMEOUT'
    ? `no connection within ${seconds(timeoutMs)}`
    : `${err.cause?.message ?? err.message ?? String(e)}`;
  return new Failed('target_unreachable', `cannot reach ${url}: ${why}${code && !why.includes(code) ? ` (${code})` : ''}`);
}

const isPage = (b: unknown): b is { data: Record<string, unknown>[]; } => !!b && typeof b === 'object' && Array.isArray((b as { data?: unknown; }).data);
const ids = (b: unknown) => (isPage(b) ? b.data.map((r) => String(r?.id)) : undefined);

export async function preflight(o: PreflightOptions): Promise<PreflightResult> {
  const started = Date.now();
  const agent = new Agent({ connections: 4, keepAliveTimeout: 1_000, connect: { timeout: o.timeoutMs } });
  const overall = AbortSignal.timeout(o.timeoutMs * 4);
  const notes: string[] = [];
  const get = async (path: string, key: KeyName): Promise<PreflightAnswer> => {
    const url = `${o.baseUrl}${API_PREFIX}${path}`;
    try {
      const res = await request(url, {
        dispatcher: agent,
        method: 'GET',
        headers: { accept: 'application/json', authorization: `Bearer ${o.keys[key]}` },
        signal: AbortSignal.any([AbortSignal.timeout(o.timeoutMs), overall]),
        headersTimeout: o.timeoutMs,
        bodyTimeout: o.timeoutMs,
      });
      const text = await res.body.text();
      const contentType = String(res.headers['content-type'] ?? '');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: res.statusCode, contentType, body };
    } catch (e) {
      throw transportProblem(e, o.baseUrl, o.timeoutMs, overall);
    }
  };
  /** A key's answer on the project list, judged: refused keys and a wrong base address fail. */
  const judge = (key: KeyName, a: PreflightAnswer): string | undefined => {
    if (a.status === 401 || a.status === 402 || a.status === 403) return `${keySettingNames[key]} (${a.status})`;
    if (o.strict && a.status === 404) {
      throw new Failed('not_the_api',
        `GET ${API_PREFIX}/projects answered 404 at ${o.baseUrl}: CONFORMANCE_BASE_URL does not look like the base address of the API (the suite appends ${API_PREFIX})`);
    }
    if (o.strict && a.status >= 200 && a.status < 300 && a.body === undefined) {
      throw new Failed('not_the_api',
        `GET ${API_PREFIX}/projects answered ${a.status} with ${
          a.contentType || 'no content type'
        }, not JSON: CONFORMANCE_BASE_URL does not look like the base address of the API`);
    }
    if (a.status >= 500) notes.push(`GET ${API_PREFIX}/projects with ${keySettingNames[key]} answered ${a.status}; the checks will report it`);
    return undefined;
  };
  try {
    const a = await get('/projects', 'team');
    const keys: KeyName[] = ['otherTeam', ...(o.keys.readOnly ? ['readOnly' as const] : [])];
    const others = await Promise.all(keys.map((k) => get('/projects', k)));
    const refused = [judge('team', a), ...keys.map((k, i) => judge(k, others[i]!))].filter(Boolean);
    if (refused.length > 0) {
      throw new Failed('key_rejected',
        `${refused.join(' and ')} ${refused.length === 1 ? 'was' : 'were'} refused by GET ${API_PREFIX}/projects: check the key${
          refused.length === 1 ? '' : 's'
        } (unknown, revoked, without projects:read, or of a plan without API access)`);
    }
    if (o.checkTeams) await checkTeams(a.body, others[0]!.body, get, notes);
    for (const id of o.scratchProjects ?? []) {
      const res = await get(`/projects/${encodeURIComponent(id)}`, 'team');
      if (res.status < 200 || res.status >= 300) {
        throw new Failed('scratch_project_not_found',
          `CONFORMANCE_SCRATCH_PROJECTS names ${id}, but GET ${API_PREFIX}/projects/${id} with CONFORMANCE_API_KEY answered ${res.status}: it must be a project of team A`);
      }
    }
    return { ok: true, durationMs: Date.now() - started, notes, firstProjects: isPage(a.body) ? a.body.data : [] };
  } catch (e) {
    if (e instanceof Failed) return { ok: false, durationMs: Date.now() - started, code: e.code, message: e.message };
    throw e;
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

async function checkTeams(pageA: unknown, pageB: unknown, get: (path: string, key: KeyName) => Promise<PreflightAnswer>, notes: string[]): Promise<void> {
  const lists = ['/projects', '/organizations', '/assignments', '/cvs'];
  for (const [i, list] of lists.entries()) {
    const [a, b] = i === 0 ? [ids(pageA), ids(pageB)] : (await Promise.all([get(list, 'team'), get(list, 'otherTeam')])).map((r) => ids(r.body));
    if (!a || !b) continue; // not a page: the checks will say why
    if (a.length === 0 && b.length === 0) continue;
    if (a.length > 0 && a.length === b.length && a.every((id, n) => id === b[n])) {
      throw new Failed('keys_same_team',
        `CONFORMANCE_API_KEY and CONFORMANCE_API_KEY_OTHER_TEAM see the same records (first page of GET ${API_PREFIX}${list}): they must be keys of two different teams`);
    }
    return; // the pages differ: two teams
  }
  notes.push('both keys see no records in any list, so whether they belong to two teams is left to the isolation checks');
}

/** The one line a failed preflight prints. */
export function preflightLine(r: { code: string; message: string; }): string {
  return `preflight failed [${r.code}]: ${r.message}`;
}

/**
 * The bundled mock lives as long as the run: a few of its open projects (the last of the first page)
 * are set aside for the changes no request can undo (stage, archive), as CONFORMANCE_SCRATCH_PROJECTS
 * would be on a deployment.
 */
export function bundledScratchProjects(firstProjects: readonly Record<string, unknown>[], count = 3): string[] {
  const open = firstProjects.filter((p) =>
    !p.archived_at && !p.closed_at && typeof p.id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(p.id)
  );
  return open.slice(-count).map((p) => String(p.id));
}
