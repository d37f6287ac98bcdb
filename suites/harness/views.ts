// The second views of a record: every place the API shows it besides the answer to the request
// that changed it — GET by id, each list and filter it belongs to, each embedded copy. A change is
// checked through all of them; a view that cannot be read within the page budget says so
// ('unknown') instead of guessing.
import type { Rec } from '../../contract/json.js';
import type { KeyName } from '../../contract/settings.js';
import { schema, type SchemaName } from '../../specs/index.js';
import { collectionOf, type RecordKind, resource } from '../../specs/registry.js';
import type { CheckContext } from './check.js';
import { fail, is2xx } from './judge/assert.js';
import { sameInstant } from './judge/instants.js';
import { expectPage, needs } from './judge/problems.js';
import { operationNamed, recordKind, requestTo, servedViews, type View as SurfaceView } from './plan/operations.js';
import type { ApiResponse } from './transport/client.js';
import { lists, type ListSpec, SAMPLE_PAGES, sendList, walkWithin } from './walk.js';

export type Seen =
  /** `at`: the record's JSON Pointer in the response body (a page's item, an embedded employee). */
  | { state: 'present'; record: Rec; res: ApiResponse; at: string; }
  | { state: 'absent'; res: ApiResponse; }
  /** `missed`: a search ran and did not find it (a miss proves nothing of a record that should be there; a record gone it does not show). */
  | { state: 'unknown'; why: string; missed?: boolean; };

export interface View {
  /** What it reads, as failures name it (a list with the sort and order it is read in). */
  name: string;
  /** The surface's view it is (specs/surface.ts), as the coverage table's view cells name it; set by viewsOf and viewsMatching. */
  surface?: string;
  /** The resource whose record it shows; set by viewsOf and viewsMatching. */
  resource?: string;
  /** For a copy embedded in another resource's records: where (`assignments`, `employee`). */
  embedding?: { parent: string; property: string; };
  /** The filter values a list view applies (`employee_id` → the id it names). */
  filters?: Record<string, string>;
  read(): Promise<Seen>;
}

/**
 * What the views of a record need to know about it: its resource and the record as last answered
 * (its id, and the values its filters and `q` read), or — for a record only shown embedded in
 * another resource's records — the ids of the records that embed it.
 */
export interface RecordSubject {
  resource: string;
  record: Rec;
  /** Parent resource → ids of its records that embed this one (an employee's assignments). */
  embeddedIn?: Record<string, readonly (string | Rec)[]>;
}

/** The older names of subjects, one per resource the suites created records of before the table. */
export type Subject =
  | RecordSubject
  | { kind: 'project'; id: string; }
  | { kind: 'assignment'; id: string; employee_id: string; project_id: string; }
  | { kind: 'employee'; id: string; assignments: string[]; }
  | { kind: 'organization'; id: string; name?: string; }
  | { kind: 'attachment'; id: string; entity: { type: string; id: string; }; }
  | { kind: 'file'; id: string; };

/** An older subject read as a record of its kind's collection: its string fields, its entity as `entity_type`/`entity_id`, the ids of the records that embed it. */
function generic(s: Subject): RecordSubject {
  if ('resource' in s) return s;
  const { kind, id, ...rest } = s as { kind: RecordKind; id: string; } & Rec;
  const collection = collectionOf(kind);
  const record: Rec = { id };
  for (const [k, v] of Object.entries(rest)) {
    if (typeof v === 'string') record[k] = v;
    else if (v && typeof v === 'object' && !Array.isArray(v)) { for (const [p, x] of Object.entries(v as Rec)) record[`${k}_${p}`] = x; }
  }
  const embeddedIn = Object.fromEntries(
    resource(collection).embeddedIn.flatMap((e) => (Array.isArray(rest[e.parent]) ? [[e.parent, rest[e.parent] as string[]]] : [])),
  );
  return { resource: collection, record, ...(Object.keys(embeddedIn).length ? { embeddedIn } : {}) };
}

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
      // newest first, a record the run made sorts among the first pages: looking further costs more on a larger deployment and finds nothing more
      const w = await walkWithin(c, list, {
        limit: 100,
        auth,
        refusedIsEmpty: true,
        stopAt: matches,
        ...(isNewestFirst(list) ? { maxPages: SAMPLE_PAGES } : {}),
      });
      const item = w.items.find(matches);
      if (item) return { state: 'present', record: item, res: w.last, at: itemAt(w.last, item) };
      return w.complete ? { state: 'absent', res: w.last } : { state: 'unknown', why: `${list.path} is longer than the pages read` };
    },
  };
}

const listName = (list: ListSpec) => {
  const query = Object.keys(list.query ?? {}).map((k) => `${k}=`).join('&');
  return `GET ${list.path}${query ? `?${query}` : ''}`;
};

/**
 * A list sorted newest first when the deployment names created_at among its sort fields: a record
 * the run just created is then on the first page, however long the list is.
 */
export function newestFirst(c: CheckContext, list: ListSpec): ListSpec {
  const sorts = (c.settings.sortFields as Record<string, string[] | undefined>)[list.path.slice(1)] ?? [];
  return sorts.includes('created_at') ? { ...list, query: { ...list.query, sort: 'created_at', order: 'desc' } } : list;
}

/** Whether a list is sorted newest first (newestFirst). */
export const isNewestFirst = (list: ListSpec) => list.query?.sort === 'created_at' && list.query.order === 'desc';

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

/**
 * The word `q` is probed with: a record the run made carries a token of its own in its free-text
 * fields (specs/arbitraries.ts humanText), which a search finds whatever else it matches; any
 * other record, its whole value.
 */
export function searchProbe(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return /(?:^|\s)(k[0-9a-f]{7})(?:\s|$)/.exec(value)?.[1] ?? value;
}

/** The field `q` is probed with: the first free-text field of the record schema (not an id, a date, a listed value or a URL-like name). */
export function searchFieldOf(record: SchemaName | undefined): string | undefined {
  if (!record) return undefined;
  const props = (schema(record) as { properties?: Record<string, Record<string, unknown>>; }).properties ?? {};
  return Object.entries(props).find(([name, p]) =>
    p.type === 'string' && !p.format && !p.enum && !p.examples && !/(^id|_id|_url|_at|_date)$/.test(name) && !['mime', 'created_by'].includes(name)
  )?.[0];
}

/** A search by `q`: a hit shows the record; a miss proves nothing (§4 q is "search text" of unknown reach). */
function searched(c: CheckContext, list: ListSpec, name: string, matches: (item: Rec) => boolean, probe: string, auth: KeyName): View {
  return {
    name,
    async read() {
      const w = await walkWithin(c, list, { limit: 100, auth, query: { q: probe }, refusedIsEmpty: true, stopAt: matches, maxPages: SAMPLE_PAGES });
      const hit = w.items.find(matches);
      if (hit) return { state: 'present', record: hit, res: w.last, at: itemAt(w.last, hit) };
      return { state: 'unknown', why: `q=${probe} does not find it (what q searches is not shown)`, missed: true };
    },
  };
}

/** A download: the record's bytes are there (2xx) or gone (404). */
function downloaded(c: CheckContext, view: SurfaceView, id: string, auth: KeyName): View {
  return {
    name: view.name,
    async read() {
      const op = operationNamed(c.settings, view.op)!;
      const res = await c.api.send({ ...requestTo(op, id), auth, consume: 'hash' });
      if (res.status === 404) return { state: 'absent', res };
      if (!is2xx(res)) return fail(`${view.name} answered ${res.status}`, res);
      return { state: 'present', record: {}, res, at: '' };
    },
  };
}

const ORDER: readonly SurfaceView['kind'][] = ['get', 'list', 'filter', 'entity', 'q', 'download', 'embedded'];

/** Every view of the subject the target serves, read with `auth` (the owner's key): GET by id first, then the list. */
export function viewsOf(c: CheckContext, subject: Subject, auth: KeyName = 'team'): View[] {
  const s = generic(subject);
  const id = String(s.record.id);
  return bindAll(c, s, (i) => i.id === id, auth, id);
}

/**
 * The views that list a resource's records without knowing an id — the list, each filter and
 * entity list by the values `record` gives, `q` by its text — looking for an item `matches`
 * accepts: where a record a refused create would have made is looked for.
 */
export function viewsMatching(c: CheckContext, resource: string, record: Rec, matches: (item: Rec) => boolean, auth: KeyName = 'team'): View[] {
  return bindAll(c, { resource, record }, matches, auth);
}

function bindAll(c: CheckContext, s: RecordSubject, matches: (item: Rec) => boolean, auth: KeyName, id?: string): View[] {
  const views = [...servedViews(c.settings, s.resource)].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  return views.flatMap((v): View[] =>
    bind(c, v, s, matches, auth, id).map((bound) => ({
      ...bound,
      surface: v.name,
      resource: s.resource,
      ...(v.embedded ? { embedding: { parent: v.embedded.parent.resource, property: v.embedded.property } } : {}),
    }))
  );
}

function listOf(c: CheckContext, v: SurfaceView): ListSpec {
  const op = operationNamed(c.settings, v.op)!;
  return { path: op.path, resource: recordKind(op)! };
}

function bind(c: CheckContext, v: SurfaceView, s: RecordSubject, matches: (item: Rec) => boolean, auth: KeyName, id?: string): View[] {
  const op = operationNamed(c.settings, v.op)!;
  switch (v.kind) {
    case 'get':
      return id === undefined ? [] : [byId(c, op.path.replace('/{id}', ''), id, auth)];
    case 'download':
      return id === undefined ? [] : [downloaded(c, v, id, auth)];
    case 'list': {
      const list = newestFirst(c, listOf(c, v));
      return [found(c, list, listName(list), matches, auth)];
    }
    case 'filter':
    case 'entity': {
      const values = (v.filters ?? []).map((f) => s.record[f]);
      if (values.some((x) => typeof x !== 'string' || x === '')) return [];
      const query = Object.fromEntries((v.filters ?? []).map((f, i) => [f, String(values[i])]));
      const list = { ...listOf(c, v), query };
      return [{ ...found(c, list, listName(list), matches, auth), filters: query }];
    }
    case 'q': {
      const probe = searchProbe(s.record[searchFieldOf(op.record) ?? '']);
      return probe ? [searched(c, listOf(c, v), v.name, matches, probe, auth)] : [];
    }
    case 'embedded': {
      if (id === undefined) return [];
      const { property, parent } = v.embedded!;
      const parents = s.embeddedIn?.[parent.resource] ?? [];
      return parents.flatMap((p) => {
        // the parent as known (its filters and text), naming this record
        const pid = typeof p === 'string' ? p : String(p.id);
        const parentSubject: RecordSubject = { resource: parent.resource, record: { ...(typeof p === 'string' ? { id: p } : p), [`${property}_id`]: id } };
        return bind(c, parent, parentSubject, (i) => i.id === pid, auth, pid).map((inner): View => ({
          name: v.name,
          async read() {
            const seen = await inner.read();
            // No parent record, no embedded copy: a change that lost the parent shows as the copy's absence.
            if (seen.state !== 'present') return seen;
            // A parent whose embedded copy the audit found wrong (missing, no object) shows nothing to compare.
            needs(seen.res, [`${seen.at}/${property}`, `${seen.at}/${property}/id`]);
            const e = seen.record[property] as Rec | undefined;
            return e && e.id === id ? { state: 'present', record: e, res: seen.res, at: `${seen.at}/${property}` } : { state: 'absent', res: seen.res };
          },
        }));
      });
    }
  }
}

/** Timestamps and dates compare as instants: two views may spell one instant differently. */
function sameValue(field: string, a: unknown, b: unknown): boolean {
  if (canonical(a) === canonical(b)) return true;
  return /_(at|date)$/.test(field) && sameInstant(a, b);
}

const dayOnly = (v: unknown) => typeof v === 'string' && /^\d{4}-?\d{2}-?\d{2}$/.test(v.trim());

/**
 * Two answers of the deployment show one value alike: as sameValue, but a date (§2 "names ending
 * in `_date` are dates") shown as a day in one view and with a time of day in another is a date in
 * one and a timestamp in the other — a day that a client in another zone reads as the day before.
 */
function sameShown(field: string, a: unknown, b: unknown): boolean {
  if (field.endsWith('_date') && typeof a === 'string' && typeof b === 'string' && dayOnly(a) !== dayOnly(b)) return false;
  return sameValue(field, a, b);
}

/** How a record shows a value that was sent: the same, the same text in another Unicode normal form, or otherwise. */
export type Echo = 'same' | 'normalized' | 'differs';

const worst = (a: Echo, b: Echo): Echo => (a === 'differs' || b === 'differs' ? 'differs' : a === 'normalized' || b === 'normalized' ? 'normalized' : 'same');

/**
 * Whether `got` shows `sent`: a scalar as sameValue compares it; text also when only its Unicode
 * normal form differs (a server may store text composed: the same characters, §2 shows no form);
 * an array item by item; an object on the fields it was sent with that it shows (a server adds
 * its own, an address's id; a field it leaves out is a shape question, not a difference).
 */
export function echo(field: string, sent: unknown, got: unknown): Echo {
  if (sameValue(field, sent, got)) return 'same';
  if (typeof sent === 'string' && typeof got === 'string') return sent.normalize('NFC') === got.normalize('NFC') ? 'normalized' : 'differs';
  if (Array.isArray(sent)) {
    if (!Array.isArray(got) || got.length !== sent.length) return 'differs';
    return sent.reduce<Echo>((acc, item, i) => worst(acc, echo(field, item, got[i])), 'same');
  }
  if (sent && typeof sent === 'object') {
    if (!got || typeof got !== 'object' || Array.isArray(got)) return 'differs';
    return Object.entries(sent as Rec).reduce<Echo>((acc, [k, v]) => (k in (got as Rec) ? worst(acc, echo(k, v, (got as Rec)[k])) : acc), 'same');
  }
  return 'differs';
}

/** The sent fields a record leaves out, shows otherwise, or shows in another Unicode normal form. */
export function echoes(sent: Rec, got: Rec): { absent: string[]; differs: string[]; normalized: string[]; } {
  const out = { absent: [] as string[], differs: [] as string[], normalized: [] as string[] };
  for (const [k, v] of Object.entries(sent)) {
    if (!(k in got)) out.absent.push(k);
    else {
      const e = echo(k, v, got[k]);
      if (e !== 'same') out[e].push(k);
    }
  }
  return out;
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
  return Object.keys(expected).filter((k) => {
    if (ignore.includes(k) || !(k in seen)) return false;
    const [e, s] = [expected[k], seen[k]];
    // an embedded record (an assignment's employee) is compared as a record: on the fields both show, `ignore` aside
    if (isRecord(e) && isRecord(s) && 'id' in e && e.id === s.id) return disagreements(e, s, ignore).length > 0;
    return !sameShown(k, e, s);
  });
}

const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
