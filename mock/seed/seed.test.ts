// The fixture seed: deterministic, big enough, with ties, and valid against the schemas.
import { describe, expect, it } from 'vitest';
import { isPathId, validate } from '../../specs/index.js';
import { startTestMock } from '../testing/client.js';
import { generateSeed, populationCounts, publicStage, SEED_COUNTS } from './generate.js';

describe('mock/seed/', () => {
  it('is deterministic per seed number', () => {
    expect(generateSeed(5)).toEqual(generateSeed(5));
    expect(generateSeed(5).teams.A.projects[0]!.row.id).not.toBe(generateSeed(6).teams.A.projects[0]!.row.id);
  });

  it('a population of n records per list: n projects, organizations and assignments, an employee per ten', () => {
    expect(populationCounts()).toEqual(SEED_COUNTS);
    expect(populationCounts(5000)).toEqual({ projects: 5000, organizations: 5000, assignments: 5000, employees: 500 });
    const seed = generateSeed(1, 37);
    expect(seed.teams.B.projects).toHaveLength(37);
    expect(seed.teams.A.employees).toHaveLength(SEED_COUNTS.employees);
    expect(generateSeed(1)).toEqual(generateSeed(1, undefined));
  });

  it('fills both teams with enough records, ties, stages of several kinds, and canonical v4 ids', () => {
    const seed = generateSeed(1);
    for (const team of [seed.teams.A, seed.teams.B]) {
      expect(team.projects.length).toBeGreaterThanOrEqual(SEED_COUNTS.projects);
      expect(team.organizations.length).toBeGreaterThanOrEqual(30);
      expect(team.employees.length).toBeGreaterThanOrEqual(20);
      expect(team.assignments.length).toBeGreaterThanOrEqual(30);
      const created = team.projects.map((p) => p.row.created_at);
      const titles = team.projects.map((p) => p.row.title);
      expect(new Set(created).size).toBeLessThan(created.length);
      expect(new Set(titles).size).toBeLessThan(titles.length);
      expect(new Set(team.stages.map((s) => s.kind))).toEqual(new Set(['open', 'won', 'lost']));
      expect(team.stages.some((s) => s.hidden === true)).toBe(true);
      expect(team.stages.map((s) => s.sort)).toContain(-9007199254740991);
      for (const p of team.projects) {
        expect(isPathId(p.row.id)).toBe(true);
        expect(p.row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(validate('project', p.row).errors).toEqual([]);
        expect(typeof p.legacy.client_org_id).toBe('string');
      }
      for (const s of team.stages) expect(validate('stage', publicStage(s)).errors).toEqual([]);
      for (const o of team.organizations) expect(validate('organization', o).errors).toEqual([]);
      for (const e of team.employees) expect(validate('employee', e).errors).toEqual([]);
      for (const c of team.cvs) expect(validate('cv', c).errors).toEqual([]);
      expect(team.projects.some((p) => p.row.archived_at)).toBe(true);
      expect(team.projects.some((p) => p.row.closed_at)).toBe(true);
    }
  });

  it('fills every CV section', () => {
    const cv = generateSeed(1).teams.A.cvs[0]!.data as Record<string, unknown>;
    const sections = [
      'basics',
      'work',
      'volunteer',
      'education',
      'certificates',
      'awards',
      'publications',
      'skills',
      'languages',
      'interests',
      'references',
      'projects',
      'spotlights',
      'meta',
    ];
    for (const s of sections) expect(cv[s], s).toBeDefined();
    for (const s of sections) if (Array.isArray(cv[s])) expect((cv[s] as unknown[]).length, s).toBeGreaterThan(0);
  });
});

describe('extra-fields mode', () => {
  it('adds unknown fields that the schemas tolerate', async () => {
    const t = await startTestMock({ extraFields: true });
    try {
      const p = await t.call('GET', '/projects?limit=2');
      expect(p.json.data[0].x_unknown_field).toBeTypeOf('string');
      await t.call('GET', '/organizations?limit=2');
      await t.call('GET', '/cvs?limit=2');
      await t.call('GET', '/assignments?limit=2');
    } finally {
      await t.close();
    }
  });
});
