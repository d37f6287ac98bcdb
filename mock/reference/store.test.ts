// The collection's sorted indexes are kept up to date by every change: after any sequence
// of puts, replaces and deletes they equal a fresh sort of the team's entries.
import { describe, expect, it } from 'vitest';
import { prng } from '../seed/generate.js';
import { Collection, compareKeys, type Entry, type Row, type TeamId } from './store.js';

const TEAMS: TeamId[] = ['A', 'B'];
const SORTS = ['created_at', 'title'];
const PROJECTS = ['p-1', 'p-2', 'p-3'];

function freshSort(col: Collection, team: TeamId, sort: string, project?: string): string[] {
  return col
    .entries(team)
    .filter((e) => project === undefined || e.row.project_id === project)
    .sort((x, y) => compareKeys(x.row[sort], x.row.id, y, sort))
    .map((e) => e.row.id);
}

const ids = (entries: readonly Entry[]) => entries.map((e) => e.row.id);

describe('Collection indexes', () => {
  it('equal a fresh sort after every put, replace and delete, filtered or not', () => {
    const r = prng(42);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
    const col = new Collection('assignments');
    let n = 0;
    const row = (): Row => ({
      id: `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`,
      // few distinct values, so ties are common
      created_at: `2025-01-0${1 + Math.floor(r() * 5)}T00:00:00Z`,
      title: pick(['a', 'b', 'c', null]) as string,
      project_id: pick(PROJECTS),
    });
    for (let i = 0; i < 60; i++) col.put(pick(TEAMS), row());
    // Indexes exist from here on and must follow every change.
    for (const team of TEAMS) for (const sort of SORTS) for (const p of PROJECTS) col.sorted(team, sort, { field: 'project_id', value: p });
    for (let step = 0; step < 400; step++) {
      const team = pick(TEAMS);
      const existing = col.entries(team);
      const op = r();
      if (op < 0.3 || existing.length === 0) col.put(team, row());
      else if (op < 0.8) {
        const e = pick(existing);
        const next = col.replace(e, { ...e.row, title: pick(['a', 'b', 'c', null]) as string, project_id: pick(PROJECTS) });
        expect(e.superseded).toBe(true);
        expect(next.superseded).toBeUndefined();
      } else col.delete(pick(existing));
      for (const t of TEAMS) {
        for (const sort of SORTS) {
          expect(ids(col.sorted(t, sort).entries)).toEqual(freshSort(col, t, sort));
          for (const p of PROJECTS) expect(ids(col.sorted(t, sort, { field: 'project_id', value: p }).entries)).toEqual(freshSort(col, t, sort, p));
        }
      }
    }
  });

  it('changes the order stamp of the fields a replace changed, and of membership', () => {
    const col = new Collection('projects');
    const e = col.put('A', { id: '00000000-0000-4000-8000-000000000001', created_at: '2025-01-01T00:00:00Z', title: 'a', notes: '' });
    const stamp = (fields: string[]) => col.orderStamp('A', fields);
    const before = { title: stamp(['title']), created: stamp(['created_at']) };
    const next = col.replace(e, { ...e.row, notes: 'changed' });
    expect(stamp(['title'])).toBe(before.title);
    col.replace(next, { ...next.row, title: 'b' });
    expect(stamp(['title'])).not.toBe(before.title);
    expect(stamp(['created_at'])).toBe(before.created);
    col.put('A', { id: '00000000-0000-4000-8000-000000000002', created_at: '2025-01-02T00:00:00Z' });
    expect(stamp(['created_at'])).not.toBe(before.created);
  });

  it('answers an unknown filter value with an empty index it does not keep', () => {
    const col = new Collection('assignments');
    col.put('A', { id: '00000000-0000-4000-8000-000000000001', created_at: '2025-01-01T00:00:00Z', project_id: 'p-1' });
    expect(col.sorted('A', 'created_at', { field: 'project_id', value: 'p-unknown' }).entries).toEqual([]);
    col.put('A', { id: '00000000-0000-4000-8000-000000000002', created_at: '2025-01-02T00:00:00Z', project_id: 'p-unknown' });
    expect(ids(col.sorted('A', 'created_at', { field: 'project_id', value: 'p-unknown' }).entries)).toEqual(['00000000-0000-4000-8000-000000000002']);
  });
});
