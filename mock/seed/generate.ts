// Deterministic seed data for the reference mock: the same seed number always yields
// the same teams, ids, timestamps and values (a tiny PRNG, never Math.random).
// Each team gets ≥ 50 projects (with deliberate ties in created_at and title),
// ≥ 30 organizations with addresses, ≥ 20 employees, ≥ 30 assignments, a CV per
// employee with every CV section filled (cv-data.ts), and stages of several kinds.

import { cvData } from './cv-data.js';

export type SeedRow = Record<string, unknown> & { id: string; created_at: string; };

export interface SeedProject {
  row: SeedRow;
  /** The older shape's organization references (§2), kept beside the full row. */
  legacy: { client_org_id: string; end_client_org_id: string; recruiter_org_id: string; };
}

export interface TeamSeed {
  stages: SeedRow[];
  projects: SeedProject[];
  organizations: SeedRow[];
  employees: SeedRow[];
  assignments: SeedRow[];
  cvs: SeedRow[];
  /** Contacts have no shape in the document; only their ids exist, as attachment targets. */
  contactIds: string[];
}

export interface SeedData {
  seed: number;
  teams: { A: TeamSeed; B: TeamSeed; };
}

export const SEED_COUNTS = { projects: 55, organizations: 32, employees: 22, assignments: 34 } as const;

export type SeedCounts = { [K in keyof typeof SEED_COUNTS]: number; };

/**
 * The counts of a population of `n` records per list and team: n projects, organizations and
 * assignments, and one employee (with its CV) per ten of them, never fewer than the default
 * seed has. Without `n`, the default seed.
 */
export function populationCounts(n?: number): SeedCounts {
  if (n === undefined) return { ...SEED_COUNTS };
  return { projects: n, organizations: n, assignments: n, employees: Math.max(SEED_COUNTS.employees, Math.ceil(n / 10)) };
}

/** mulberry32: small, fast, good enough for fixtures. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  bool(p = 0.5): boolean {
    return this.next() < p;
  }
  /** A UUID v4-shaped id in canonical lower-case form. */
  uuid(): string {
    const hex: string[] = [];
    for (let i = 0; i < 16; i++) {
      let byte = Math.floor(this.next() * 256);
      if (i === 6) byte = (byte & 0x0f) | 0x40;
      if (i === 8) byte = (byte & 0x3f) | 0x80;
      hex.push(byte.toString(16).padStart(2, '0'));
    }
    const h = hex.join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

const BASE_TIME = Date.UTC(2025, 0, 6, 9, 0, 0);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Radia', 'Linus', 'Frances', 'John'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Perlman', 'Torvalds', 'Allen', 'Backus'];
const WORDS = ['Atlas', 'Beacon', 'Cobalt', 'Delta', 'Ember', 'Falcon', 'Granite', 'Harbor', 'Iris', 'Juniper', 'Keystone', 'Lumen'];
const KINDS = ['Migration', 'Platform', 'Audit', 'Redesign', 'Rollout', 'Integration'];
const SKILLS = ['typescript', 'go', 'postgres', 'kubernetes', 'react', 'rust', 'terraform', 'python'];
const CITIES = [['Berlin', 'BE', 'DE'], ['Lyon', 'ARA', 'FR'], ['Austin', 'TX', 'US'], ['Utrecht', 'UT', 'NL']] as const;

function stagesFor(g: Gen, team: string): SeedRow[] {
  const defs: [string, string, string, string, boolean, number][] = [
    ['lead', 'Lead', 'open', 'slate', false, 10],
    ['qualified', 'Qualified', 'open', 'blue', false, 20],
    ['proposal', 'Proposal', 'open', 'amber', false, 30],
    ['parked', 'Parked', 'open', 'gray', true, 40],
    ['won', 'Won', 'won', 'green', false, 50],
    ['lost', 'Lost', 'lost', 'red', false, 60],
    ['backlog', 'Backlog', 'open', 'slate', true, -9007199254740991],
  ];
  return defs.map(([key, label, kind, color, hidden, sort]) => ({
    id: g.uuid(),
    key,
    label,
    kind,
    color,
    hidden,
    sort,
    created_at: iso(BASE_TIME - 30 * 24 * HOUR),
    team_label: team,
  }));
}

function address(g: Gen, i: number): SeedRow {
  const [city, region, country] = g.pick(CITIES);
  return {
    id: g.uuid(),
    type: i === 0 ? 'billing' : 'shipping',
    is_default: i === 0,
    street: `${g.int(1, 200)} ${g.pick(WORDS)} Street`,
    line2: i === 0 ? '' : `Floor ${g.int(1, 9)}`,
    city,
    region,
    postal_code: String(g.int(10000, 99999)),
    country,
    vat_id: `${country}${g.int(100000000, 999999999)}`,
    buyer_identifier: g.bool() ? `BUYER-${g.int(1000, 9999)}` : null,
    buyer_identifier_scheme: g.bool() ? '0088' : null,
    electronic_address: g.bool() ? `invoices+${g.int(1, 99)}@example.com` : null,
    electronic_address_scheme: g.bool() ? 'EM' : null,
    establishment_country: g.bool() ? country : null,
    created_at: iso(BASE_TIME),
  };
}

function organizations(g: Gen, team: string, count: number): SeedRow[] {
  return Array.from({ length: count }, (_, i) => {
    const t = BASE_TIME + Math.floor(i / 3) * HOUR; // groups of three share created_at
    const name = `${g.pick(WORDS)} ${i % 5 === 0 ? 'Recruiting' : 'Industries'} ${team}${i % 7}`;
    return {
      id: g.uuid(),
      name,
      notes: `Organization ${i} of team ${team}`,
      website: `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.com`,
      favicon_url: g.bool() ? `https://icons.example.com/${i}.png` : null,
      roles: i % 5 === 0 ? ['recruiter'] : g.bool() ? ['client'] : ['client', 'end_client'],
      addresses: Array.from({ length: g.int(1, 2) }, (_, j) => address(g, j)),
      last_activity_at: g.bool(0.7) ? iso(t + 48 * HOUR) : null,
      created_at: iso(t),
      updated_at: iso(t + g.int(0, 72) * HOUR),
    };
  });
}

function employees(g: Gen, team: string, count: number): SeedRow[] {
  return Array.from({ length: count }, (_, i) => {
    const t = BASE_TIME + i * 2 * HOUR;
    const first = FIRST[i % FIRST.length] as string;
    const last = LAST[(i * 5) % LAST.length] as string;
    return {
      id: g.uuid(),
      first_name: first,
      last_name: `${last}${team}`,
      email: `${first}.${last}.${i}@team-${team.toLowerCase()}.example.com`.toLowerCase(),
      phone: `+49 30 ${g.int(1000000, 9999999)}`,
      title: g.pick(['Engineer', 'Senior Engineer', 'Consultant', 'Architect']),
      bio: `${first} works on ${g.pick(SKILLS)} projects.`,
      avatar_url: `https://avatars.example.com/${i}.png`,
      skills: [g.pick(SKILLS), g.pick(SKILLS)],
      is_active: i % 6 !== 5,
      rate_type: 'hourly',
      bill_rate: g.int(80, 180),
      cost_rate: g.int(40, 90),
      currency: 'EUR',
      created_at: iso(t),
      updated_at: iso(t + HOUR),
    };
  });
}

function projects(g: Gen, team: string, stages: SeedRow[], orgs: SeedRow[], contactIds: string[], count: number): SeedProject[] {
  return Array.from({ length: count }, (_, i) => {
    // Ties on purpose: pairs share created_at and updated_at, and every eighth title repeats.
    const t = BASE_TIME + Math.floor(i / 2) * 5 * HOUR;
    const title = i % 8 === 0 ? `Shared ${team} engagement` : `${g.pick(WORDS)} ${g.pick(KINDS)} ${team}-${i}`;
    const stage = stages[i % stages.length] as SeedRow;
    const prior = stages[(i + 1) % stages.length] as SeedRow;
    const archived = i % 11 === 3;
    const closed = stage.kind === 'won' || stage.kind === 'lost';
    const min = g.int(70, 120);
    const row: SeedRow = {
      id: g.uuid(),
      title,
      description: `Engagement ${i} for team ${team}`,
      notes: g.bool() ? 'Follow up next week' : '',
      status: archived ? 'archived' : closed ? 'closed' : 'active',
      stage: publicStage(stage),
      stage_changed_at: iso(t + 24 * HOUR),
      agreed_rate_min: min,
      agreed_rate_max: min + 20,
      desired_rate_min: min + 5,
      desired_rate_max: min + 30,
      rate_type: 'hourly',
      currency: 'EUR',
      estimated_value: g.int(10, 500) * 1000,
      probability: g.int(0, 100) / 100,
      expected_start_date: date(t + 30 * 24 * HOUR),
      expected_end_date: date(t + 200 * 24 * HOUR),
      first_contact_date: date(t - 7 * 24 * HOUR),
      source: 'email',
      source_external_id: `thread-${team}-${i}`,
      source_url: `https://mail.example.com/thread/${team}-${i}`,
      skills: [g.pick(SKILLS), g.pick(SKILLS)],
      waiting_on: 'none',
      work_mode: g.pick(['remote', 'hybrid', 'onsite']),
      // two on every other project: a view that shows fewer items of a list shows
      work_locations: [{ city: g.pick(CITIES)[0] }, ...(i % 2 === 0 ? [{ city: 'Kraków' }] : [])],
      primary_contact_id: g.pick(contactIds),
      contacts: [{ id: g.pick(contactIds), role: 'primary' }],
      organizations: [] as unknown[],
      last_activity_at: g.bool(0.7) ? iso(t + 72 * HOUR) : null,
      created_at: iso(t),
      // pairs share updated_at too: a walk sorted by it crosses page boundaries inside a tie
      updated_at: iso(t + (Math.floor(i / 2) % 3) * HOUR),
    };
    if (archived) {
      row.archived_at = iso(t + 96 * HOUR);
      row.archived_from_stage = publicStage(prior);
      row.archived_from_status = 'active';
    }
    if (closed) {
      row.closed_at = iso(t + 120 * HOUR);
      row.close_reason = stage.kind === 'won' ? 'Contract signed' : 'Budget cut';
      row.close_reason_category = stage.kind === 'won' ? 'won' : 'budget';
    }
    const client = g.pick(orgs);
    const endClient = g.pick(orgs);
    const recruiter = orgs[(i * 5) % orgs.length] as SeedRow;
    row.organizations = [
      { id: client.id, role: 'client' },
      { id: endClient.id, role: 'end_client' },
      { id: recruiter.id, role: 'recruiter' },
    ];
    return { row, legacy: { client_org_id: client.id, end_client_org_id: endClient.id, recruiter_org_id: recruiter.id } };
  });
}

/** The public Stage object (§2) without seed-only fields. */
export function publicStage(s: SeedRow): Record<string, unknown> {
  return { id: s.id, key: s.key, label: s.label, kind: s.kind, color: s.color, hidden: s.hidden, sort: s.sort };
}

function assignments(g: Gen, emps: SeedRow[], projs: SeedProject[], count: number): SeedRow[] {
  return Array.from({ length: count }, (_, i) => {
    const t = BASE_TIME + Math.floor(i / 2) * 3 * HOUR;
    const e = emps[i % emps.length] as SeedRow;
    const p = (projs[(i * 3) % projs.length] as SeedProject).row;
    return {
      id: g.uuid(),
      employee_id: e.id,
      project_id: p.id,
      role: g.pick(['Developer', 'Lead', 'Reviewer', 'Architect']),
      start_date: date(t + 10 * 24 * HOUR),
      end_date: date(t + 100 * 24 * HOUR),
      bill_rate: g.int(80, 180),
      created_at: iso(t),
      updated_at: iso(t + HOUR),
    };
  });
}

/**
 * A CV per employee, and two more of the first employee's (a filter by it walks three records
 * across pages): a copy named as the first, and one without a name (a walk sorted by name meets
 * an empty value). Half
 * of them came in one import and share created_at, every other one shares updated_at: a walk
 * sorted by a stamp crosses page boundaries inside a tie.
 */
function cvs(g: Gen, emps: SeedRow[]): SeedRow[] {
  const first = emps[0];
  const all = [...emps, ...(first ? [first, first] : [])];
  const imported = iso(BASE_TIME - 2 * 24 * HOUR);
  const reviewed = iso(BASE_TIME + 30 * 24 * HOUR);
  return all.map((e, i) => ({
    id: g.uuid(),
    employee_id: e.id,
    // text beyond ASCII and beyond Latin-1: a view that shows the deployment's own records in another charset shows
    // the second of the first employee's is a copy of the first's name (a tie on name)
    name: i === all.length - 1 && first ? '' : `CV of ${e.first_name} ${e.last_name} – Lebenslauf für Zoë`,
    data: cvData(e, g.pick(SKILLS)),
    created_at: i < all.length / 2 ? imported : String(e.created_at),
    updated_at: i % 2 === 1 ? reviewed : iso(BASE_TIME + i * HOUR + 7 * 24 * HOUR),
  }));
}

function team(g: Gen, name: string, counts: SeedCounts): TeamSeed {
  const stages = stagesFor(g, name);
  const contactIds = Array.from({ length: 10 }, () => g.uuid());
  const orgs = organizations(g, name, counts.organizations);
  const emps = employees(g, name, counts.employees);
  const projs = projects(g, name, stages, orgs, contactIds, counts.projects);
  return {
    stages,
    projects: projs,
    organizations: orgs,
    employees: emps,
    assignments: assignments(g, emps, projs, counts.assignments),
    cvs: cvs(g, emps),
    contactIds,
  };
}

/** The whole seed for a seed number (default 1). */
export function generateSeed(seed = 1, population?: number): SeedData {
  const g = new Gen(prng(seed));
  const counts = populationCounts(population);
  return { seed, teams: { A: team(g, 'A', counts), B: team(g, 'B', counts) } };
}
