// The second views of a record: every place the API shows it besides the answer to the request
// that changed it — GET by id, each list and filter it belongs to, each embedded copy. A change is
// checked through all of them; a view that cannot be read within the page budget says so
// ('unknown') instead of guessing.
import type { Rec } from '../../contract/json.js';
import type { KeyName } from '../../contract/settings.js';
import { fail, is2xx } from './assert.js';
import type { CheckContext } from './check.js';
import type { ApiResponse } from './client.js';
import { sameInstant } from './instants.js';
import { expectPage, needs } from './problems.js';
import { lists, type ListSpec, sendList, walkWithin } from './walk.js';

export type Seen =
  /** `at`: the record's JSON Pointer in the response body (a page's item, an embedded employee). */
  | { state: 'present'; record: Rec; res: ApiResponse; at: string; }
  | { state: 'absent'; res: ApiResponse; }
  | { state: 'unknown'; why: string; };

export interface View {
  name: string;
  read(): Promise<Seen>;
}

/** What the views of a record need to know about it. */
export type Subject =
  | { kind: 'project'; id: string; }
  | { kind: 'assignment'; id: string; employee_id: string; project_id: string; }
  | { kind: 'employee'; id: string; assignments: string[]; }
  | { kind: 'organization'; id: string; name?: string; }
  | { kind: 'attachment'; id: string; entity: { type: string; id: string; }; }
  | { kind: 'file'; id: string; };

function byId(c: CheckContext, path: string, id: string, auth: KeyName): View {
  return {
    name: `GET ${path}/{id}`,
    async read() {
      const res = await c.api.send({ method: 'GET', path: `${path}/${id}`, auth });
      if (res.status === 404) return { state: 'absent', res };
      // A record that exists answers 2xx and a missing one 404 (§4): anything else is an error, not a view left unread.
      if (!is2xx(res)) return fail(`GET ${path}/{id} answered ${res.status}`, res);
      needs(res, ['']);
      return { state: 'present', record: res.body as Rec, res, at: '' };
    },
  };
}

/** Where an item is in a page's body. */
const itemAt = (res: ApiResponse, item: Rec) => {
  const data = (res.body as { data?: unknown[]; } | undefined)?.data;
  const i = Array.isArray(data) ? data.indexOf(item) : -1;
  return i >= 0 ? `/data/${i}` : '';
};

/**
 * The first record of a list that `matches`, walked within the page budget (the whole list when it
 * is one the run controls). A list refused with a 4xx shows nothing (a filter on another team's id).
 */
function found(c: CheckContext, list: ListSpec, name: string, matches: (item: Rec) => boolean, auth: KeyName, search?: string): View {
  return {
    name,
    async read() {
      if (search) {
        // §4 q is "search text" of unknown reach: a hit is a shortcut, a miss proves nothing.
        const res = await sendList(c, list.path, { ...list.query, q: search, limit: 100 }, auth);
        const hit = is2xx(res) ? expectPage(res, list.resource).data.find(matches) : undefined;
        if (hit) return { state: 'present', record: hit, res, at: itemAt(res, hit) };
      }
      const w = await walkWithin(c, list, { limit: 100, auth, refusedIsEmpty: true, stopAt: matches });
      const item = w.items.find(matches);
      if (item) return { state: 'present', record: item, res: w.last, at: itemAt(w.last, item) };
      return w.complete ? { state: 'absent', res: w.last } : { state: 'unknown', why: `${list.path} is longer than the page budget` };
    },
  };
}

const listName = (list: ListSpec) => {
  const query = Object.keys(list.query ?? {}).map((k) => `${k}=`).join('&');
  return `GET ${list.path}${query ? `?${query}` : ''}`;
};

function listed(c: CheckContext, list: ListSpec, id: string, auth: KeyName, search?: string): View {
  return found(c, list, listName(list), (i) => i.id === id, auth, search);
}

/**
 * A list sorted newest first when the deployment names created_at among its sort fields: a record
 * the run just created is then on the first page, however long the list is.
 */
export function newestFirst(c: CheckContext, list: ListSpec): ListSpec {
  const sorts = (c.settings.sortFields as Record<string, string[] | undefined>)[list.path.slice(1)] ?? [];
  return sorts.includes('created_at') ? { ...list, query: { ...list.query, sort: 'created_at', order: 'desc' } } : list;
}

/** An organization by its (unique) name: how a create that answered no id is looked for. */
export function organizationNamed(c: CheckContext, name: string, auth: KeyName = 'team'): View {
  return found(c, newestFirst(c, lists.organizations), `GET /organizations (name ${name})`, (i) => i.name === name, auth, name);
}

/** The attachments of an entity, or the assignments of an employee, as one view of the whole set. */
export function collection(c: CheckContext, list: ListSpec, auth: KeyName = 'team'): View {
  return {
    name: `${listName(list)} (all items)`,
    async read() {
      const w = await walkWithin(c, list, { limit: 100, auth, refusedIsEmpty: true });
      if (!w.complete) return { state: 'unknown', why: `${list.path} is longer than the page budget` };
      return { state: 'present', record: { ids: w.items.map((i) => i.id).sort(), items: w.items }, res: w.last, at: '' };
    },
  };
}

/** The employee embedded in an assignment: GET by id and the list filtered by the employee. */
function embeddedEmployee(c: CheckContext, employeeId: string, assignmentId: string, auth: KeyName): View[] {
  const embedded = (seen: Seen, where: string): Seen => {
    // No assignment, no embedded employee: a change that lost the assignment shows as the employee's absence.
    if (seen.state !== 'present') return seen;
    // An assignment whose embedded employee the audit found wrong (missing, no object) shows nothing to compare.
    needs(seen.res, [`${seen.at}/employee`, `${seen.at}/employee/id`]);
    const e = seen.record.employee as Rec | undefined;
    return e && e.id === employeeId ? { state: 'present', record: e, res: seen.res, at: `${seen.at}/employee` } : { state: 'absent', res: seen.res };
  };
  const get = byId(c, '/assignments', assignmentId, auth);
  const list = listed(c, { ...lists.assignments, query: { employee_id: employeeId } }, assignmentId, auth);
  return [
    { name: 'employee embedded in GET /assignments/{id}', read: async () => embedded(await get.read(), get.name) },
    { name: 'employee embedded in GET /assignments?employee_id=', read: async () => embedded(await list.read(), list.name) },
  ];
}

/** Every view of the subject, read with `auth` (the owner's key). */
export function viewsOf(c: CheckContext, s: Subject, auth: KeyName = 'team'): View[] {
  switch (s.kind) {
    case 'project':
      return [byId(c, '/projects', s.id, auth), listed(c, lists.projects, s.id, auth)];
    case 'assignment': {
      const filtered = (query: Record<string, string>) => listed(c, { ...lists.assignments, query }, s.id, auth);
      return [
        byId(c, '/assignments', s.id, auth),
        filtered({ employee_id: s.employee_id }),
        filtered({ project_id: s.project_id }),
        filtered({ employee_id: s.employee_id, project_id: s.project_id }),
        listed(c, newestFirst(c, lists.assignments), s.id, auth),
      ];
    }
    case 'employee':
      return s.assignments.flatMap((a) => embeddedEmployee(c, s.id, a, auth));
    case 'organization':
      return [listed(c, newestFirst(c, lists.organizations), s.id, auth, s.name)];
    case 'attachment':
      return [listed(c, { path: '/attachments', resource: 'attachment', query: { entity_type: s.entity.type, entity_id: s.entity.id } }, s.id, auth)];
    case 'file':
      return [byId(c, '/files', s.id, auth)];
  }
}

/** Timestamps and dates compare as instants: two views may spell one instant differently. */
function sameValue(field: string, a: unknown, b: unknown): boolean {
  if (canonical(a) === canonical(b)) return true;
  return /_(at|date)$/.test(field) && sameInstant(a, b);
}

/** JSON with object keys sorted, so key order never counts as a difference. */
export function canonical(value: unknown): string {
  return JSON.stringify(value,
    (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Rec).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v);
}

/**
 * Fields where `seen` disagrees with `expected`: every field of `expected` that the view shows
 * (a view may show fewer fields — that is a shape question, not a disagreement), minus `ignore`.
 */
export function disagreements(expected: Rec, seen: Rec, ignore: readonly string[] = []): string[] {
  return Object.keys(expected).filter((k) => !ignore.includes(k) && k in seen && !sameValue(k, expected[k], seen[k]));
}
