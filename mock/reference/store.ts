// In-memory, team-scoped record store. Ids are unique across teams; every lookup
// takes the caller's team, and a record of another team is indistinguishable from
// a missing one. Each collection keeps a version per team so sorted views and
// serialized pages can be cached until the next mutation, and keeps its sorted indexes
// (SortedIndex) up to date itself, so a change costs a binary search per index instead
// of a sort of the whole collection at the next read.

export type TeamId = 'A' | 'B' | 'C';
export type Row = Record<string, unknown> & { id: string; created_at: string; };

export interface Entry {
  readonly team: TeamId;
  readonly row: Row;
  /** Fields kept beside the public row (legacy org refs, blob ids, search text). */
  readonly extra: Record<string, unknown>;
  /** Set once the entry is replaced or deleted: whatever was built from it is stale. */
  superseded?: true;
}

/** The stored collections: every collection of the registry (contacts only as ids, attachment targets). */
import { type Collection as ResourceName, COLLECTIONS as RESOURCE_NAMES } from '../../specs/registry.js';
export { RESOURCE_NAMES, type ResourceName };

/**
 * The list order of sort values: null and absent first (one value: a cursor carries an absent
 * value as null, and must sort where the record it came from sorts), numbers by value, anything
 * else as strings.
 */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  const [noA, noB] = [a === null || a === undefined, b === null || b === undefined];
  if (noA || noB) return noA && noB ? 0 : noA ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a), sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The total list order: (sort value, id), so ties never reorder between pages. */
export function compareKeys(value: unknown, id: string, e: Entry, sort: string): number {
  return compareValues(value, e.row[sort]) || (id < e.row.id ? -1 : id > e.row.id ? 1 : 0);
}

/** Only the entries whose `field` equals `value` (a list filtered by a reference). */
export interface IndexFilter {
  field: string;
  value: unknown;
}

/** A team's entries (or those passing a filter) in ascending (row[sort], id) order. */
export class SortedIndex {
  readonly entries: Entry[];

  constructor(readonly sort: string, entries: Entry[]) {
    this.entries = entries.sort((x, y) => compareKeys(x.row[sort], x.row.id, y, sort));
  }

  /** The first position whose key is not below (value, id). */
  private position(value: unknown, id: string): number {
    let lo = 0, hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareKeys(value, id, this.entries[mid]!, this.sort) > 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(e: Entry): void {
    this.entries.splice(this.position(e.row[this.sort], e.row.id), 0, e);
  }

  remove(e: Entry): void {
    const at = this.position(e.row[this.sort], e.row.id);
    if (this.entries[at] === e) this.entries.splice(at, 1);
    else {
      // The order of mixed-type values is not transitive; fall back to a scan.
      const i = this.entries.indexOf(e);
      if (i >= 0) this.entries.splice(i, 1);
    }
  }
}

/** The indexes of one team: unfiltered per sort field, and per sort field, filter field and value. */
interface TeamIndexes {
  all: Map<string, SortedIndex>;
  filtered: Map<string, Map<string, Map<unknown, SortedIndex>>>;
}

export class Collection {
  private readonly byId = new Map<string, Entry>();
  private readonly versions = new Map<TeamId, number>();
  /** Per team: bumped when an entry is added or removed. */
  private readonly memberships = new Map<TeamId, number>();
  /** Per team and field: bumped when an entry's value of the field changes. */
  private readonly fieldChanges = new Map<TeamId, Map<string, number>>();
  private readonly indexes = new Map<TeamId, TeamIndexes>();

  constructor(readonly name: ResourceName) {}

  version(team: TeamId): number {
    return this.versions.get(team) ?? 0;
  }

  /**
   * A stamp that changes whenever a list of the team ordered by `fields[0]` (and filtered or
   * searched by the other fields) could change other than through the entries it shows
   * being replaced: an entry added or removed, or a value of one of the fields changed.
   */
  orderStamp(team: TeamId, fields: readonly string[]): string {
    const changes = this.fieldChanges.get(team);
    let stamp = String(this.memberships.get(team) ?? 0);
    for (const f of fields) stamp += `.${changes?.get(f) ?? 0}`;
    return stamp;
  }

  private bump(team: TeamId): void {
    this.versions.set(team, this.version(team) + 1);
  }

  /** The entry when it exists in this team. */
  get(team: TeamId, id: string): Entry | undefined {
    const e = this.byId.get(id.toLowerCase());
    return e && e.team === team ? e : undefined;
  }

  /** The entry with this id, whichever team holds it (ids are unique across teams). */
  find(id: string): Entry | undefined {
    return this.byId.get(id.toLowerCase());
  }

  put(team: TeamId, row: Row, extra: Record<string, unknown> = {}): Entry {
    const entry: Entry = { team, row, extra };
    const previous = this.byId.get(row.id.toLowerCase());
    if (previous) this.unindex(previous);
    this.byId.set(row.id.toLowerCase(), entry);
    this.memberships.set(team, (this.memberships.get(team) ?? 0) + 1);
    this.bump(team);
    this.index(entry);
    return entry;
  }

  /** Replaces the row of an existing entry (new object, so serialization caches miss). */
  replace(entry: Entry, row: Row, extra: Record<string, unknown> = entry.extra): Entry {
    const next: Entry = { team: entry.team, row, extra };
    this.unindex(entry);
    this.byId.set(row.id.toLowerCase(), next);
    this.bump(entry.team);
    this.noteChangedFields(entry.team, entry.row, row);
    this.index(next);
    return next;
  }

  delete(entry: Entry): void {
    this.unindex(entry);
    this.byId.delete(entry.row.id.toLowerCase());
    this.memberships.set(entry.team, (this.memberships.get(entry.team) ?? 0) + 1);
    this.bump(entry.team);
  }

  /** All entries of a team, or of every team when no team is given. */
  entries(team?: TeamId): Entry[] {
    const out: Entry[] = [];
    for (const e of this.byId.values()) if (team === undefined || e.team === team) out.push(e);
    return out;
  }

  /** The team's entries ordered by `sort` (and only those passing `filter`), kept up to date from now on. */
  sorted(team: TeamId, sort: string, filter?: IndexFilter): SortedIndex {
    const ix = this.teamIndexes(team);
    if (!filter) {
      let index = ix.all.get(sort);
      if (!index) ix.all.set(sort, index = new SortedIndex(sort, this.entries(team)));
      return index;
    }
    let byField = ix.filtered.get(sort);
    if (!byField) ix.filtered.set(sort, byField = new Map());
    let byValue = byField.get(filter.field);
    if (!byValue) {
      // Built for every value at once: one pass over the team's entries serves later filters too.
      byValue = new Map();
      for (const e of this.sorted(team, sort).entries) {
        const v = e.row[filter.field];
        let index = byValue.get(v);
        if (!index) byValue.set(v, index = new SortedIndex(sort, []));
        index.entries.push(e);
      }
      byField.set(filter.field, byValue);
    }
    // A value no entry holds gets an empty index that is not kept: filters by unknown ids must not grow the map.
    return byValue.get(filter.value) ?? new SortedIndex(sort, []);
  }

  private teamIndexes(team: TeamId): TeamIndexes {
    let ix = this.indexes.get(team);
    if (!ix) this.indexes.set(team, ix = { all: new Map(), filtered: new Map() });
    return ix;
  }

  private index(e: Entry): void {
    const ix = this.indexes.get(e.team);
    if (!ix) return;
    for (const index of ix.all.values()) index.insert(e);
    for (const [sort, byField] of ix.filtered) {
      for (const [field, byValue] of byField) {
        const v = e.row[field];
        let index = byValue.get(v);
        if (!index) byValue.set(v, index = new SortedIndex(sort, []));
        index.insert(e);
      }
    }
  }

  private unindex(e: Entry): void {
    e.superseded = true;
    const ix = this.indexes.get(e.team);
    if (!ix) return;
    for (const index of ix.all.values()) index.remove(e);
    for (const byField of ix.filtered.values()) {
      for (const [field, byValue] of byField) byValue.get(e.row[field])?.remove(e);
    }
  }

  private noteChangedFields(team: TeamId, before: Row, after: Row): void {
    let changes = this.fieldChanges.get(team);
    if (!changes) this.fieldChanges.set(team, changes = new Map());
    for (const k in after) if (before[k] !== after[k]) changes.set(k, (changes.get(k) ?? 0) + 1);
    for (const k in before) if (!(k in after)) changes.set(k, (changes.get(k) ?? 0) + 1);
  }
}

export interface Store {
  readonly collections: Record<ResourceName, Collection>;
  /** Each team's pipeline stages, as the public Stage object (§2). */
  readonly stages: Map<TeamId, Row[]>;
}

/** An empty store. */
export function createStore(): Store {
  const collections = Object.fromEntries(RESOURCE_NAMES.map((n) => [n, new Collection(n)])) as Record<ResourceName, Collection>;
  return { collections, stages: new Map() };
}

/** A team's stage, found by id or key. */
export function findStage(store: Store, team: TeamId, ref: { id?: unknown; key?: unknown; }): Record<string, unknown> | undefined {
  const s = (store.stages.get(team) ?? []).find((st) => (ref.id !== undefined && st.id === ref.id) || (ref.key !== undefined && st.key === ref.key));
  return s ? { ...s } : undefined;
}

export const nowIso = (): string => new Date().toISOString();
