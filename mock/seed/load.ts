// Puts the seed data (generate.ts) into a reference store: every team's records, its stages as the
// public Stage object, and its contacts (ids only, as attachment targets).
import type { Row, Store, TeamId } from '../reference/store.js';
import { publicStage, type SeedData, type TeamSeed } from './generate.js';

function loadTeam(store: Store, team: TeamId, seed: TeamSeed): void {
  const c = store.collections;
  store.stages.set(team, seed.stages.map((s) => publicStage(s) as Row));
  for (const id of seed.contactIds) c.contacts.put(team, { id, created_at: '' });
  for (const p of seed.projects) c.projects.put(team, p.row as Row, { ...p.legacy });
  for (const o of seed.organizations) c.organizations.put(team, o as Row);
  for (const e of seed.employees) c.employees.put(team, e as Row);
  for (const a of seed.assignments) c.assignments.put(team, a as Row);
  for (const v of seed.cvs) c.cvs.put(team, v as Row);
}

/** Loads teams A and B; team C (the plan without API access) has no records. */
export function loadSeed(store: Store, seed: SeedData): Store {
  loadTeam(store, 'A', seed.teams.A);
  loadTeam(store, 'B', seed.teams.B);
  store.stages.set('C', []);
  return store;
}
