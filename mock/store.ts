// In-memory, team-scoped record store. Ids are unique across teams; every lookup
// takes the caller's team, and a record of another team is indistinguishable from
// a missing one. Each collection keeps a version per team so sorted views and
// serialized pages can be cached until the next mutation.
import { generateSeed, publicStage, type SeedRow, type TeamSeed } from '../fixtures/seed.js';

export type TeamId = 'A' | 'B' | 'C';
export type Row = Record<string, unknown> & { id: string; created_at: string };

export interface Entry {
  readonly team: TeamId;
  readonly row: Row;
  /** Fields kept beside the public row (legacy org refs, blob ids, search text). */
  readonly extra: Record<string, unknown>;
}

export type ResourceName = 'projects' | 'organizations' | 'employees' | 'assignments' | 'cvs' | 'attachments' | 'files' | 'captures';

export class Collection {
  private readonly byId = new Map<string, Entry>();
  private readonly versions = new Map<TeamId, number>();

  constructor(readonly name: ResourceName) {}

  version(team: TeamId): number {
    return this.versions.get(team) ?? 0;
  }

  private bump(team: TeamId): void {
    this.versions.set(team, this.version(team) + 1);
  }

  /** The entry when it exists in this team; `crossTeam` lifts isolation (faults only). */
  get(team: TeamId, id: string, crossTeam = false): Entry | undefined {
    const e = this.byId.get(id.toLowerCase());
    return e && (crossTeam || e.team === team) ? e : undefined;
  }

  put(team: TeamId, row: Row, extra: Record<string, unknown> = {}): Entry {
    const entry: Entry = { team, row, extra };
    this.byId.set(row.id.toLowerCase(), entry);
    this.bump(team);
    return entry;
  }

  /** Replaces the row of an existing entry (new object, so serialization caches miss). */
  replace(entry: Entry, row: Row, extra: Record<string, unknown> = entry.extra): Entry {
    const next: Entry = { team: entry.team, row, extra };
    this.byId.set(row.id.toLowerCase(), next);
    this.bump(entry.team);
    return next;
  }

  delete(entry: Entry): void {
    this.byId.delete(entry.row.id.toLowerCase());
    this.bump(entry.team);
  }

  /** All entries of a team (or of every team when `allTeams`). */
  entries(team: TeamId, allTeams = false): Entry[] {
    const out: Entry[] = [];
    for (const e of this.byId.values()) if (allTeams || e.team === team) out.push(e);
    return out;
  }
}

export interface Store {
  readonly collections: Record<ResourceName, Collection>;
  readonly stages: Map<TeamId, Row[]>;
  readonly contacts: Map<TeamId, Set<string>>;
}

function load(store: Store, team: TeamId, seed: TeamSeed): void {
  const c = store.collections;
  store.stages.set(team, seed.stages as Row[]);
  store.contacts.set(team, new Set(seed.contactIds));
  for (const p of seed.projects) c.projects.put(team, p.row as Row, { ...p.legacy });
  for (const o of seed.organizations) c.organizations.put(team, o as Row);
  for (const e of seed.employees) c.employees.put(team, e as Row);
  for (const a of seed.assignments) c.assignments.put(team, a as Row);
  for (const v of seed.cvs) c.cvs.put(team, v as Row);
}

export function createStore(seedNumber = 1, population?: number): Store {
  const names: ResourceName[] = ['projects', 'organizations', 'employees', 'assignments', 'cvs', 'attachments', 'files', 'captures'];
  const collections = Object.fromEntries(names.map((n) => [n, new Collection(n)])) as Record<ResourceName, Collection>;
  const store: Store = { collections, stages: new Map(), contacts: new Map() };
  const seed = generateSeed(seedNumber, population);
  load(store, 'A', seed.teams.A);
  load(store, 'B', seed.teams.B);
  store.stages.set('C', []);
  store.contacts.set('C', new Set());
  return store;
}

/** A team's stage, found by id or key, as the public Stage object. */
export function findStage(store: Store, team: TeamId, ref: { id?: unknown; key?: unknown }): Record<string, unknown> | undefined {
  const s = (store.stages.get(team) ?? []).find((st) => (ref.id !== undefined && st.id === ref.id) || (ref.key !== undefined && st.key === ref.key));
  return s ? publicStage(s as SeedRow) : undefined;
}

export const nowIso = (): string => new Date().toISOString();
