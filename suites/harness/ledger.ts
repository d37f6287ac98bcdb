// Everything the run changes on the target, undone at the end where the API allows:
// created assignments, attachments and files are deleted; pre-existing records are put back
// exactly as they were found. Records that cannot be deleted (organizations, employees) carry
// the run id in a name field and are counted as leftovers. Every step is journaled for the report.
//
// Pre-existing records, as the suites use it:
//   const project = await c.ledger.before('projects', candidate);  // snapshot (GET) before the first change
//   const why = c.ledger.irreversible(project, ['closed_at', ...]); // a change these fields cannot be undone?
//   if (why) c.skip(why);                                            // ... then not on a pre-existing record
// At the end of the suite file every touched record is compared with its snapshot (GET) and every
// differing field is written back (one absent before cannot be removed: null is refused where §2
// does not type a field nullable, and no other way is shown); the record is read again and
// reported back as it was, or not, with the fields that still differ.
import type { Rec } from '../../contract/json.js';
import type { KeyName } from '../../contract/settings.js';
import { type Collection, collectionOf, type RecordKind, resource } from '../../specs/registry.js';
import { EXTENSION_SETTINGS } from '../../specs/surface.js';
import { STATE_FIELDS } from './plan/table.js';
import { trafficStop } from './run/context.js';
import { journal } from './run/journal.js';
import { nameOf } from './run/names-seen.js';
import type { ProvidedTarget } from './run/target.js';
import type { ApiClient, ApiResponse } from './transport/client.js';
import { TransportError } from './transport/client.js';

/** A kind of record the run deletes once done (a resource with a delete operation). */
export type Deletable = RecordKind;
/** Resources a check may change without having created them. */
export type Touchable = Collection;
type Patchable = Collection;

/** Never compared: a restore is itself a change. */
const IGNORED = new Set(['updated_at']);
/**
 * Fields no request body writes, set by the server (§3 stamps, creation data): a change that moves
 * one of them cannot be undone on a record the run did not create.
 */
const UNWRITABLE = new Set(['id', 'created_at', 'stage_changed_at', 'archived_from_stage', 'archived_from_status', 'last_activity_at']);
/** Resources with a GET by id (§4): their snapshot and their final state are read, not assumed. */
const readable = (c: Collection): boolean => !!resource(c).operations.get;

interface Touched {
  resource: Patchable;
  id: string;
  auth: KeyName;
  scratch: boolean;
  /** The record as found. */
  before: Rec;
  /** Only these fields are compared and restored (a snapshot of part of the record). */
  fields?: Set<string>;
}

export interface RestoreOutcome {
  resource: string;
  id: string;
  back: boolean;
  differences: string[];
}

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.entries(x as Rec).sort(([a], [b]) => a.localeCompare(b)))
    : x));

/** Fields whose value differs between two states of a record (absent and present count as different). */
export function differingFields(before: Rec, after: Rec, only?: Set<string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => !IGNORED.has(k) && (!only || only.has(k)) && ((k in before) !== (k in after) || canonical(before[k]) !== canonical(after[k])))
    .sort();
}

export class Ledger {
  private readonly created = new Map<string, { kind: Deletable; auth: KeyName; }>();
  private readonly touched = new Map<string, Touched>();

  constructor(private readonly api: () => ApiClient, private readonly target: ProvidedTarget) {}

  /** A record this run created and must delete. */
  add(kind: Deletable, id: string, auth: KeyName = 'team'): void {
    this.created.set(id, { kind, auth });
    const name = nameOf(id);
    journal({ e: 'created', kind, id, auth, deletable: true, ...(name !== undefined ? { name } : {}) });
  }

  /** A record this run created that the API offers no way to delete. */
  keep(kind: RecordKind, id: string, auth: KeyName = 'team'): void {
    const name = nameOf(id);
    journal({ e: 'created', kind, id, auth, deletable: false, ...(name !== undefined ? { name } : {}) });
  }

  /** The record was deleted by a check. */
  gone(id: string): void {
    if (this.created.delete(id)) journal({ e: 'deleted', id });
  }

  /** One of CONFORMANCE_SCRATCH_PROJECTS: set aside for testing, any change allowed. */
  isScratch(id: unknown): boolean {
    return this.target.settings.scratchProjects.includes(String(id));
  }

  /**
   * Before the first change to a record the run did not create: its snapshot, which is returned
   * (use it, not an older copy, as the state the change starts from). Projects (and assignments)
   * are read by id; organizations and employees have no GET by id, so `record` must be the whole
   * record as the API last returned it, and `fields` should name what the change touches.
   */
  async before(resource: Patchable, record: Rec | string, o: { auth?: KeyName; fields?: readonly string[]; } = {}): Promise<Rec> {
    const id = typeof record === 'string' ? record : String(record.id);
    const key = `${resource}/${id}`;
    const known = this.touched.get(key);
    if (known && !known.fields) return known.before;
    const auth = o.auth ?? 'team';
    let before: Rec;
    if (readable(resource)) {
      const res = await this.api().send({ method: 'GET', path: `/${resource}/${id}`, auth });
      if (res.status < 200 || res.status >= 300 || !res.body || typeof res.body !== 'object') {
        throw new Error(`cannot snapshot ${resource} ${id} before changing it: GET answered ${res.status}`);
      }
      // A snapshot of another record would be written over this one at the restore.
      if (String((res.body as Rec).id) !== id) {
        throw new Error(`cannot snapshot ${resource} ${id} before changing it: GET answered the record ${String((res.body as Rec).id)}`);
      }
      before = { ...(res.body as Rec) };
      // Fields snapshotted earlier by patching() may have changed since: their earlier values win.
      for (const f of known?.fields ?? []) {
        if (f in known!.before) before[f] = known!.before[f];
        else delete before[f];
      }
    } else if (typeof record === 'object') {
      before = { ...record };
    } else {
      throw new Error(`${resource} have no GET by id: pass the record itself to snapshot it`);
    }
    this.remember({
      resource,
      id,
      auth,
      scratch: resource === 'projects' && this.isScratch(id),
      before,
      ...(o.fields && !readable(resource) ? { fields: new Set(o.fields) } : {}),
    });
    return before;
  }

  /**
   * Before patching a record the run did not create, from a copy the check already holds: only
   * `fields` are restored (removed when absent from `record`). Prefer before(), which snapshots
   * the whole record and restores whatever changed.
   */
  patching(resource: Patchable, record: Rec, fields: readonly string[], auth: KeyName = 'team'): void {
    const id = String(record.id);
    const known = this.touched.get(`${resource}/${id}`);
    if (known && !known.fields) return;
    const merged = new Set([...(known?.fields ?? []), ...fields]);
    const before: Rec = { ...(known?.before ?? {}) };
    for (const f of fields) if (!known?.fields?.has(f) && f in record) before[f] = record[f];
    this.remember({ resource, id, auth, scratch: resource === 'projects' && this.isScratch(id), before, fields: merged });
  }

  /**
   * Why changing `fields` of this pre-existing record could not be undone exactly, or undefined
   * when it can: a field absent now would have to be removed again (the document shows no way to
   * remove a field), and a server-stamped field cannot be written back. Scratch projects: never.
   */
  irreversible(record: Rec, fields: readonly string[], stamped: readonly string[] = []): string | undefined {
    if (this.isScratch(record.id)) return undefined;
    const absent = fields.filter((f) => !(f in record) || record[f] === null);
    const reasons: string[] = [];
    if (absent.length) reasons.push(`it would add ${absent.join(', ')}, which the API may not let a request remove`);
    if (stamped.length) reasons.push(`the server stamps ${stamped.join(', ')}, which no request can write back`);
    return reasons.length
      ? `not done on a pre-existing record: ${reasons.join('; ')} (name projects set aside for testing in CONFORMANCE_SCRATCH_PROJECTS)`
      : undefined;
  }

  private remember(t: Touched): void {
    const key = `${t.resource}/${t.id}`;
    if (!this.touched.has(key)) journal({ e: 'touched', resource: t.resource, id: t.id, auth: t.auth, scratch: t.scratch });
    this.touched.set(key, t);
  }

  async cleanup(): Promise<RestoreOutcome[]> {
    const api = this.api();
    // After the target stopped answering, one short attempt; a second silence ends the cleanup.
    const silent = trafficStop()?.cause === 'target-unresponsive';
    const timeoutMs = silent ? Math.min(5_000, this.target.settings.timeoutMs) : undefined;
    let unreachable: string | undefined;
    const send = async (req: Parameters<ApiClient['send']>[0]): Promise<ApiResponse | string> => {
      if (unreachable) return unreachable;
      try {
        return await api.send({ ...req, cleanup: true, ...(timeoutMs ? { timeoutMs } : {}) });
      } catch (e) {
        if (e instanceof TransportError) unreachable = 'the target did not answer during cleanup';
        return (e as Error).message;
      }
    };
    // records that name others first: an attachment goes before the record it is bound to
    const kinds = [...new Set([...this.created.values()].map((c) => c.kind))];
    const order = kinds.sort((a, b) => Number(!resource(collectionOf(a)).references.length) - Number(!resource(collectionOf(b)).references.length));
    for (const kind of order) {
      for (const [id, { kind: k, auth }] of [...this.created]) {
        if (k !== kind) continue;
        this.created.delete(id);
        const path = this.deletePath(kind, id);
        if (!path) {
          journal({ e: 'left', kind, id, why: 'not deleted: CONFORMANCE_PATH_FILE_DELETE is not set' });
          continue;
        }
        const res = await send({ method: path.method, path: path.path, auth });
        if (typeof res !== 'string' && (res.status < 300 || res.status === 404)) journal({ e: 'deleted', id });
        else {journal({
            e: 'left',
            kind: kind as RecordKind,
            id,
            why: `not deleted: ${typeof res === 'string' ? res : `${path.method} answered ${res.status}`}`,
          });}
      }
    }
    const outcomes: RestoreOutcome[] = [];
    for (const t of this.touched.values()) {
      const outcome = await this.restore(t, send);
      outcomes.push(outcome);
      journal({ e: 'restored', ...outcome });
    }
    this.touched.clear();
    return outcomes;
  }

  /** Writes back what differs from the snapshot and reads the record again. */
  private async restore(t: Touched, send: (req: Parameters<ApiClient['send']>[0]) => Promise<ApiResponse | string>): Promise<RestoreOutcome> {
    const head = { resource: t.resource, id: t.id };
    const path = `/${t.resource}/${t.id}`;
    const read = async (): Promise<Rec | string> => {
      const res = await send({ method: 'GET', path, auth: t.auth });
      if (typeof res === 'string') return res;
      if (res.status < 200 || res.status >= 300 || !res.body || typeof res.body !== 'object') return `GET answered ${res.status}`;
      return String((res.body as Rec).id) === t.id ? (res.body as Rec) : `GET answered another record (${String((res.body as Rec).id)})`;
    };
    const hasGet = readable(t.resource);
    let now: Rec | string = hasGet ? await read() : {};
    if (typeof now === 'string') return { ...head, back: false, differences: [`(not restored: ${now})`] };
    // Without a GET, every snapshotted field is written back.
    const differing = hasGet
      ? differingFields(t.before, now, t.fields)
      : [...(t.fields ?? Object.keys(t.before))].filter((k) => !IGNORED.has(k) && !UNWRITABLE.has(k));
    if (differing.length === 0) return { ...head, back: true, differences: [] };
    const value = (k: string) => (k in t.before ? t.before[k] : null);
    // A field absent before cannot be removed: null is refused where §2 does not type a field
    // nullable, and the document shows no other way (a status written back may undo a state field).
    const back = (k: string) => k in t.before;
    const body: Rec = {};
    for (const k of differing) if (!UNWRITABLE.has(k) && back(k)) body[k] = value(k);
    if (differing.some((k) => STATE_FIELDS.includes(k))) {
      for (const k of STATE_FIELDS) if (back(k)) body[k] = value(k);
    }
    let last: Rec | string = now;
    if (Object.keys(body).length > 0) {
      const res = await send({ method: 'PATCH', path, json: body, auth: t.auth });
      last = typeof res === 'string' ? res : res.status < 300 && res.body && typeof res.body === 'object' ? (res.body as Rec) : `PATCH answered ${res.status}`;
    }
    if (hasGet && typeof last !== 'string') {
      now = await read();
      if (typeof now === 'string') return { ...head, back: false, differences: [`(not verified: ${now})`] };
      // A server that accepts its stamps in a body gets them back too; one that refuses loses nothing.
      const stamped = differingFields(t.before, now, t.fields).filter((k) => UNWRITABLE.has(k) && k !== 'id');
      if (stamped.length > 0) {
        await send({ method: 'PATCH', path, json: Object.fromEntries(stamped.map((k) => [k, value(k)])), auth: t.auth });
        now = await read();
        if (typeof now === 'string') return { ...head, back: false, differences: [`(not verified: ${now})`] };
      }
      last = now;
    }
    if (typeof last === 'string') return { ...head, back: false, differences: [`(not restored: ${last})`] };
    const still = hasGet ? differingFields(t.before, last, t.fields) : differing.filter((k) => canonical(t.before[k]) !== canonical(last[k]));
    return { ...head, back: still.length === 0, differences: still };
  }

  private deletePath(kind: Deletable, id: string): { method: string; path: string; } | undefined {
    const del = resource(collectionOf(kind)).operations.delete;
    if (!del) return undefined;
    if (del.shown) return { method: 'DELETE', path: del.path.replace('{id}', id) };
    // a delete §4 names without its path: where the target's settings put it
    const setting = (EXTENSION_SETTINGS as Record<string, keyof ProvidedTarget['settings']['paths']>)[del.op];
    const e = setting ? this.target.settings.paths[setting] : undefined;
    return e ? { method: e.method, path: e.path.replace('{id}', id) } : undefined;
  }
}
