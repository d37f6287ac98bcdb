// Every id a response names as a reference to another record — an assignment's employee_id and
// project_id and its embedded employee's id, an attachment's entity (entity_type, entity_id), a
// CV's employee_id, an older project's organization references — must resolve, with the caller's
// key, to a record of the caller's team (§1: every record belongs to a team; another team's record
// is reported as missing). A reference is read through a view the API offers: a record the caller
// was already shown (a list it read, a GET, a create or update it got the answer of) costs nothing;
// otherwise GET by id where §4 shows one (projects, assignments, files), the organizations list
// walked once per team within the page budget, or — for an employee, who has no read of its own —
// the assignments list filtered by it, whose items embed it (not for an assignment's own
// employee: that would read the reference back from the record that holds it). An employee on no
// assignment, and a contact (no read at all), are recorded as unverifiable, never failed.
//
// A reference to a record the other team was shown is a finding (ISO-REFERENCE-OTHER-TEAM-AS-MISSING);
// one neither team can read is dangling, which the document has no requirement for: a warning.
// Each id is resolved once per team and run, and the requests count in the run's request budget:
// at most REFERENCE_REQUESTS per worker, whatever the deployment's size. Per-worker state, owned
// here (the fault sweep forgets it per fault).
import type { Exchange, Finding } from '../../../contract/check.js';
import { isRecord, type Rec } from '../../../contract/json.js';
import type { KeyName } from '../../../contract/settings.js';
import { isUuid } from '../../../specs/index.js';
import { recordFinding, recordJudged, recordReading, recordWarning } from '../run/current.js';
import { excerptAt } from '../transport/excerpt.js';
import { article, type RecordKind, type ShownRecord } from './audit.js';

/** What a reference may name (contacts have no shape and no read in the document), and what a response shows. */
type Named = RecordKind;
type Team = 'A' | 'B';

/** Requests spent on resolving references, per worker, at most. */
export const REFERENCE_REQUESTS = 60;

const READ_BY_ID = { project: '/projects', assignment: '/assignments', file: '/files' } as const satisfies Partial<Record<Named, string>>;

interface Reference {
  team: Team;
  named: Named;
  id: string;
  /** `assignment.project_id`: where the reference is. */
  field: string;
  pointer: string;
  exchange: Exchange;
  body: unknown;
  operation: string;
  redact: (text: string) => string;
}

type Outcome = 'resolved' | 'other-team' | 'dangling' | 'unverifiable';

/**
 * What resolving needs of the run's client (client.ts hands the records it receives here, so this
 * file names only the part it uses).
 */
export interface Reader {
  send(
    req: { method: string; path: string; auth?: KeyName; query?: Record<string, string | number | undefined>; },
  ): Promise<{ status: number; body: unknown; }>;
  hasKey(key: KeyName): boolean;
}

const known: Record<Team, Map<Named, Set<string>>> = { A: new Map(), B: new Map() };
const decided = new Map<string, Outcome>();
const pending: Reference[] = [];
const organizationsWalked: Partial<Record<Team, boolean>> = {};
let spent = 0;

const other = (t: Team): Team => (t === 'A' ? 'B' : 'A');
const keyOf = (t: Team): KeyName => (t === 'A' ? 'team' : 'otherTeam');

/** The team a request's key is of: the read-only key is team A's; no key, or a made-up one, is none. */
function teamOf(auth: unknown): Team | undefined {
  const a = auth ?? 'team';
  return a === 'team' || a === 'readOnly' ? 'A' : a === 'otherTeam' ? 'B' : undefined;
}

const isKnown = (t: Team, named: Named, id: string) => known[t].get(named)?.has(id) ?? false;
function know(t: Team, named: Named, id: string): void {
  const ids = known[t].get(named) ?? known[t].set(named, new Set()).get(named)!;
  ids.add(id);
}

/** The references a record holds. */
function referencesOf(kind: RecordKind, r: Rec): { named: Named; id: unknown; field: string; pointer: string; }[] {
  switch (kind) {
    case 'assignment': {
      const embedded = isRecord(r.employee) ? [{ named: 'employee' as const, id: r.employee.id, field: 'employee.id', pointer: '/employee/id' }] : [];
      return [
        { named: 'employee', id: r.employee_id, field: 'employee_id', pointer: '/employee_id' },
        { named: 'project', id: r.project_id, field: 'project_id', pointer: '/project_id' },
        ...embedded,
      ];
    }
    case 'attachment': {
      const type = r.entity_type;
      const named = type === 'project' || type === 'organization' || type === 'employee' || type === 'contact' ? type : undefined;
      return named ? [{ named, id: r.entity_id, field: 'entity_id', pointer: '/entity_id' }] : [];
    }
    case 'cv':
      return [{ named: 'employee', id: r.employee_id, field: 'employee_id', pointer: '/employee_id' }];
    case 'project':
      return [
        { named: 'contact', id: r.primary_contact_id, field: 'primary_contact_id', pointer: '/primary_contact_id' },
        ...['client_org_id', 'end_client_org_id', 'recruiter_org_id'].map((f) => ({ named: 'organization' as const, id: r[f], field: f, pointer: `/${f}` })),
      ];
    default:
      return [];
  }
}

/**
 * The records a response showed the caller: each is one of the caller's team's (a record the
 * other team was shown is a leak, another check's business, and its references are not judged);
 * the references they hold wait for resolveReferences.
 */
export function noteRecords(
  auth: unknown,
  records: readonly ShownRecord[],
  seen: Omit<Reference, 'team' | 'named' | 'id' | 'field' | 'pointer'>,
): void {
  const team = teamOf(auth);
  if (!team) return;
  for (const r of records) {
    const id = r.value.id;
    if (typeof id !== 'string') continue;
    if (isKnown(other(team), r.kind, id)) continue;
    know(team, r.kind, id);
    for (const ref of referencesOf(r.kind, r.value)) {
      if (typeof ref.id !== 'string' || !isUuid(ref.id)) continue; // absent, or no id at all: the shape's business
      const reference: Reference = { ...seen, team, named: ref.named, id: ref.id, field: `${r.kind}.${ref.field}`, pointer: `${r.pointer}${ref.pointer}` };
      // What needs no request is decided at once; the rest waits for the end of the check.
      const now = decidedWithoutRequest(reference);
      if (now) record(reference, now, true);
      else if (!pending.some((p) => p.team === team && p.named === ref.named && p.id === ref.id && p.field === reference.field)) pending.push(reference);
    }
  }
}

/** The outcome a reference has without a request: known to either team, decided before, or with no view at all. */
function decidedWithoutRequest(ref: Reference): Outcome | undefined {
  if (isKnown(ref.team, ref.named, ref.id)) return 'resolved';
  if (isKnown(other(ref.team), ref.named, ref.id)) return 'other-team';
  const before = decided.get(`${ref.team} ${ref.named} ${ref.id}`);
  if (before) return before;
  return ref.named === 'contact' || (ref.named === 'employee' && ref.field.startsWith('assignment.')) ? 'unverifiable' : undefined;
}

/** An employee as the caller's assignments filtered by it embed it: read (2xx with it), or not shown there. */
async function readEmployee(api: Reader, t: Team, id: string): Promise<boolean | undefined> {
  if (spent >= REFERENCE_REQUESTS || !api.hasKey(keyOf(t))) return undefined;
  spent += 1;
  const res = await api.send({ method: 'GET', path: '/assignments', auth: keyOf(t), query: { employee_id: id, limit: 5 } });
  const data = (res.body as { data?: unknown; } | undefined)?.data;
  if (res.status < 200 || res.status >= 300 || !Array.isArray(data)) return undefined;
  const shown = data.some((a) => isRecord(a) && isRecord(a.employee) && a.employee.id === id);
  if (shown) know(t, 'employee', id);
  return shown;
}

/** Forgets everything: the fault sweep runs one process against many targets. */
export function forgetReferences(): void {
  for (const t of ['A', 'B'] as const) known[t].clear();
  decided.clear();
  pending.length = 0;
  organizationsWalked.A = organizationsWalked.B = undefined;
  spent = 0;
}

async function read(api: Reader, t: Team, named: keyof typeof READ_BY_ID, id: string): Promise<number | undefined> {
  if (spent >= REFERENCE_REQUESTS || !api.hasKey(keyOf(t))) return undefined;
  spent += 1;
  const res = await api.send({ method: 'GET', path: `${READ_BY_ID[named]}/${id}`, auth: keyOf(t) });
  if (res.status >= 200 && res.status < 300 && isRecord(res.body) && res.body.id === id) know(t, named, id);
  return res.status;
}

/** The organizations list of a team, walked once within the page budget; whether it was walked to its end. */
async function walkOrganizations(api: Reader, t: Team, pages: number): Promise<boolean> {
  if (organizationsWalked[t] !== undefined) return organizationsWalked[t]!;
  let cursor: string | undefined;
  let complete = false;
  for (let n = 0; n < pages && spent < REFERENCE_REQUESTS; n += 1) {
    spent += 1;
    const res = await api.send({ method: 'GET', path: '/organizations', auth: keyOf(t), query: { limit: 100, cursor } });
    const body = res.body as { data?: unknown; page?: { hasMore?: unknown; nextCursor?: unknown; }; } | undefined;
    if (res.status < 200 || res.status >= 300 || !Array.isArray(body?.data)) break;
    for (const item of body.data) if (isRecord(item) && typeof item.id === 'string') know(t, 'organization', item.id);
    const next = body.page?.nextCursor;
    if (body.page?.hasMore !== true) {
      complete = true;
      break;
    }
    if (typeof next !== 'string' || next === '' || next === cursor) break;
    cursor = next;
  }
  organizationsWalked[t] = complete;
  return complete;
}

async function decide(api: Reader, ref: Reference, walkPages: number): Promise<Outcome> {
  const { team, named, id } = ref;
  const now = decidedWithoutRequest(ref);
  if (now) return now;
  if (named === 'project' || named === 'assignment' || named === 'file') {
    const status = await read(api, team, named, id);
    if (status === undefined) return 'unverifiable';
    if (isKnown(team, named, id)) return 'resolved';
    if (status !== 404) return 'unverifiable';
    const theirs = await read(api, other(team), named, id);
    return isKnown(other(team), named, id) ? 'other-team' : theirs === 404 ? 'dangling' : 'unverifiable';
  }
  if (named === 'employee') {
    if (await readEmployee(api, team, id)) return 'resolved';
    // Not shown to the caller: the other team's, as its own assignments show it, or unknown (an employee on no assignment).
    return (await readEmployee(api, other(team), id)) ? 'other-team' : 'unverifiable';
  }
  if (named === 'organization') {
    const complete = await walkOrganizations(api, team, walkPages);
    if (isKnown(team, named, id)) return 'resolved';
    if (isKnown(other(team), named, id)) return 'other-team';
    if (!complete) return 'unverifiable';
    // Not the caller's: the other team's, as its own list shows it, or nobody's.
    if (api.hasKey(keyOf(other(team)))) await walkOrganizations(api, other(team), walkPages);
    return isKnown(other(team), named, id) ? 'other-team' : organizationsWalked[other(team)] ? 'dangling' : 'unverifiable';
  }
  return 'unverifiable';
}

/** What one reference showed, in the running check: a finding, a warning, or a reading. */
function record(ref: Reference, outcome: Outcome, again: boolean): void {
  if (outcome === 'resolved' || outcome === 'other-team') recordJudged(['ISO-REFERENCE-OTHER-TEAM-AS-MISSING']);
  if (outcome === 'other-team') {
    const key = `${ref.field} | names another team's ${ref.named}`;
    recordFinding(() => ({
      key,
      requirements: ['ISO-REFERENCE-OTHER-TEAM-AS-MISSING'],
      message: `${ref.field} names ${article(ref.named)} of the other team (${ref.id}): to the caller it must be as missing as an id that does not exist`,
      pointer: ref.pointer,
      seenIn: [ref.operation],
      count: 1,
      request: ref.exchange.request,
      ...(ref.exchange.response ? { response: ref.exchange.response } : {}),
      curl: ref.exchange.curl,
      excerpt: ref.redact(excerptAt(ref.body, ref.pointer)),
    } satisfies Finding), key, ref.operation);
  } else if (outcome === 'dangling' && !again) {
    recordWarning(
      `reference.dangling.${ref.field}`,
      `${ref.field} names ${article(ref.named)} neither team can read (${ref.id}, in ${ref.operation}); the document states no rule for a dangling reference`,
    );
  } else if (outcome === 'unverifiable') {
    const why = ref.named === 'contact'
      ? 'the API offers no read of a contact'
      : ref.named === 'employee' && ref.field.startsWith('assignment.')
      ? 'an employee has no read of its own but the assignments that embed it; only those the run was shown are checked'
      : ref.named === 'employee'
      ? 'an employee on no assignment of either team, or beyond the budget of requests, cannot be read'
      : `not read within the budget of ${REFERENCE_REQUESTS} requests`;
    recordReading(`references.unverifiable.${ref.field}`, why);
  }
}

/**
 * Resolves the references noted so far, within the request budget, and records what they show in
 * the running check: findings for references to the other team's records, warnings for dangling
 * ones, readings for those no view can read. Stops quietly when a request fails (the run stopping).
 */
export async function resolveReferences(api: Reader, walkPages: number): Promise<void> {
  while (pending.length > 0) {
    const ref = pending.shift()!;
    const cacheKey = `${ref.team} ${ref.named} ${ref.id}`;
    const again = decided.has(cacheKey);
    let outcome: Outcome;
    try {
      outcome = await decide(api, ref, walkPages);
    } catch {
      pending.length = 0;
      return;
    }
    // An unread reference may be read later, once a view showed it.
    if (outcome !== 'unverifiable') decided.set(cacheKey, outcome);
    record(ref, outcome, again);
  }
}
