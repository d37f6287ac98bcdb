// The requests that built the state a failing request read. A download that fails only for some
// filenames, a list that misses a record only after a PATCH: the failing request alone does not
// say why, and once the run's cleanup deleted what it made, its curl line answers 404. So a
// failure lists the creates, uploads (filename and size), changes and deletions of the check that
// touched the records the failing request names — by id, and through the ids those requests name
// in turn — in the order they were sent.
import type { Exchange, StateStep } from '../../contract/check.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How many steps a failure lists at most (the latest ones). */
const STEPS_KEPT = 12;

const is2xx = (e: Exchange) => e.response !== undefined && e.response.status >= 200 && e.response.status < 300;

/** The id of the record a response answered: `id` of the body, or of its `data`. */
export function createdId(e: Exchange): string | undefined {
  if (e.request.method !== 'POST' || !is2xx(e) || !e.response?.body) return undefined;
  try {
    const body = JSON.parse(e.response.body) as { id?: unknown; data?: { id?: unknown; }; };
    const id = body?.id ?? body?.data?.id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

/** The path of a URL without the API's base, for a summary. */
const pathOf = (url: string) => {
  try {
    return new URL(url).pathname.replace(/^.*\/api\/public\/v1/, '');
  } catch {
    return url;
  }
};

/** The record ids a path names: its segments after the first (`/attachments/{id}/download` → the id). */
const pathIds = (url: string) => pathOf(url).split('/').filter(Boolean).slice(1).filter((s) => /\d/.test(s) && s.length >= 6);

/** The fields a JSON body sets, with their values cut short: `is_active=false, last_name="Zoë"`. */
function fieldsOf(body: string | undefined): string {
  try {
    const value = JSON.parse(body ?? '') as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return body ? body.slice(0, 80) : '';
    const cut = (s: string) => (s.length > 48 ? `${s.slice(0, 47)}…` : s);
    const fields = Object.entries(value as Record<string, unknown>);
    return fields.slice(0, 4).map(([k, v]) => `${k}=${cut(JSON.stringify(v))}`).join(', ') + (fields.length > 4 ? `, and ${fields.length - 4} more` : '');
  } catch {
    return body ? body.slice(0, 80) : '';
  }
}

function summary(e: Exchange): string {
  const f = e.request.file;
  const what = f
    ? `upload ${JSON.stringify(f.name)} (${f.size} bytes, ${f.contentType})`
    : e.request.method === 'POST'
    ? 'create'
    : e.request.method === 'DELETE'
    ? 'delete'
    : `set ${fieldsOf(e.request.body) || 'nothing'}`;
  return `${e.request.method} ${pathOf(e.request.url)}: ${what}${e.response ? ` → ${e.response.status}` : ''}`;
}

/**
 * The state steps behind `failing` among the exchanges sent before it (`sent`, in the order sent;
 * `order` numbers every exchange of the check): each 2xx mutating request that created a record
 * the failing request (or a step already kept) names, or that changed or deleted one it names.
 */
export function stateBehind(sent: readonly Exchange[], failing: Exchange, order?: WeakMap<Exchange, number>): StateStep[] {
  const at = order?.get(failing);
  const before = sent.filter((e) => e !== failing && (at === undefined || (order!.get(e) ?? 0) < at));
  let named = `${failing.request.url}\n${failing.request.body ?? ''}`;
  const kept = new Set<Exchange>();
  // Until nothing more is found: a change sent after a create can name a record only a later step names.
  for (let grew = true; grew && kept.size < STEPS_KEPT;) {
    grew = false;
    for (let i = before.length - 1; i >= 0 && kept.size < STEPS_KEPT; i -= 1) {
      const e = before[i]!;
      if (kept.has(e) || !MUTATING.has(e.request.method) || !is2xx(e)) continue;
      const created = createdId(e);
      const touches = created !== undefined ? named.includes(created) : pathIds(e.request.url).some((id) => named.includes(id));
      if (!touches) continue;
      kept.add(e);
      grew = true;
      named += `\n${e.request.url}\n${e.request.body ?? ''}`;
    }
  }
  return before.filter((e) => kept.has(e)).map((e) => {
    const created = createdId(e);
    return {
      summary: summary(e),
      request: e.request,
      ...(e.response ? { status: e.response.status } : {}),
      ...(created !== undefined ? { created } : {}),
      curl: e.curl,
    };
  });
}
