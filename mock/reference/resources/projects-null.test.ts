// A null on a project field §2 does not type as nullable is refused, as on every other write: the
// project keeps every field, and a list sorted by one of them still ends (a null stored in a sort
// field once made the cursor after it lead back to the same record).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, type TestMock } from '../../testing/client.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(() => t.close());

async function openProjects(): Promise<any[]> {
  const all = (await t.call('GET', '/projects?limit=100')).json.data;
  return all.filter((p: any) => p.status === 'active' && !p.archived_at && !p.closed_at);
}

describe('PATCH /projects/{id}: null is refused where §2 does not type it', () => {
  it('title: null is refused with a per-field detail, and the project is unchanged', async () => {
    const [p] = await openProjects();
    const r = await t.call('PATCH', `/projects/${p.id}`, { body: { title: null } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('bad_request');
    expect(r.json.detail).toHaveProperty('title');
    expect((await t.call('GET', `/projects/${p.id}`)).json).toEqual(p);
  });

  it('every writable field: null is refused, nothing applied', async () => {
    const [, p] = await openProjects();
    for (const field of ['notes', 'description', 'archived_at', 'closed_at', 'close_reason', 'skills', 'probability', 'work_locations']) {
      const r = await t.call('PATCH', `/projects/${p.id}`, { body: { [field]: null, notes: field === 'notes' ? null : 'changed' } });
      expect(r.status, field).toBe(400);
      expect(r.json.detail, field).toHaveProperty(field);
    }
    expect((await t.call('GET', `/projects/${p.id}`)).json).toEqual(p);
  });

  it('a walk sorted by title at limit 1 ends, each project once', async () => {
    const seen = new Set<string>();
    let cursor = '';
    for (let n = 0; n < 500; n++) {
      const page = (await t.call('GET', `/projects?sort=title&limit=1${cursor ? `&cursor=${cursor}` : ''}`)).json;
      for (const item of page.data) {
        expect(seen.has(item.id), `${item.id} twice`).toBe(false);
        seen.add(item.id);
      }
      if (!page.page.hasMore) return;
      cursor = page.page.nextCursor;
    }
    throw new Error('the walk did not end within 500 pages');
  });
});
