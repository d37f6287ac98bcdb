// The fault catalog: every id is a known requirement, every server-testable requirement
// has a fault, unknown names are rejected, and each fault changes observable behaviour
// (a cheap smoke over a fixed probe battery; the suites' self-test is the real proof).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isPathId } from '../../specs/ids.js';
import { isKnownRequirement, testableRequirements } from '../../specs/requirements.js';
import { start } from '../index.js';
import { bigMultipart, type Reply, startTestMock, type TestMock, uploadForm } from '../testing/client.js';
import { faults, writtenFaults } from './index.js';

describe('catalog', () => {
  it('names only known requirement ids', () => {
    const unknown = faults.flatMap((f) => f.requirements.filter((id) => !isKnownRequirement(id)).map((id) => `${f.name}: ${id}`));
    expect(unknown).toEqual([]);
  });

  it('has a fault for every testable requirement a server can violate', () => {
    const covered = new Set(faults.flatMap((f) => f.requirements));
    // Requirements whose subject is the suite's own tolerance (client) or the spec-diff tool (spec)
    // cannot be violated by a server.
    const uncovered = testableRequirements().filter((r) => r.subject === 'server' && !covered.has(r.id)).map((r) => r.id);
    expect(uncovered).toEqual([]);
  });

  it('has unique names, and start() rejects an unknown fault', async () => {
    expect(new Set(faults.map((f) => f.name)).size).toBe(faults.length);
    await expect(start({ fault: 'no-such-fault' })).rejects.toThrow(/Unknown fault "no-such-fault"/);
  });
});

/** Faults that need one big upload (its size) to show. */
const HEAVY_FAULTS: Record<string, number> = {
  'upload-limit-not-enforced': 26_214_401,
  'upload-limit-too-strict': 20_000_001,
  'upload-oversize-stored': 26_214_401,
  'download-encrypted-above-1mib': 1_200_000,
};

/** Replaces values that differ between clean starts (created ids, timestamps, cursors). */
function normalizer(since: string) {
  const ids = new Map<string, string>();
  const walkValue = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (isPathId(v) && !v.startsWith('00000000')) {
        if (!ids.has(v)) ids.set(v, `ID${ids.size}`);
        return ids.get(v);
      }
      if (/^\d{4}-\d\d-\d\dT/.test(v) && v >= since) return 'NOW';
      return v;
    }
    if (Array.isArray(v)) return v.map(walkValue);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'nextCursor' && x ? 'CURSOR' : walkValue(x)]));
    }
    return v;
  };
  return (r: Reply, headers: string[] = []): string => {
    const body = r.json !== undefined ? JSON.stringify(walkValue(r.json)) : r.text;
    const digest = createHash('sha256').update(body).digest('hex').slice(0, 16);
    return `${r.status} ${headers.map((h) => `${h}=${r.headers[h] ?? ''}`).join(' ')} ${digest}`;
  };
}

/** A fixed battery of requests touching every fault's behaviour; returns one line per probe. */
async function battery(t: TestMock, heavy: number | undefined): Promise<string[]> {
  const since = new Date(Date.now() - 1000).toISOString();
  const norm = normalizer(since);
  const out: string[] = [];
  const c = async (m: string, p: string, o: Parameters<TestMock['call']>[2] = {}, h: string[] = []) => {
    const r = await t.call(m, p, { ...o, noValidate: true });
    out.push(`${m} ${p.replace(/[0-9a-fA-F-]{36}/g, 'ID').replace(/cursor=[^&]+/, 'cursor=C')} → ${norm(r, h)}`);
    return r;
  };
  const first = await c('GET', '/projects?limit=2', {}, ['deprecation', 'sunset', 'content-type']);
  const pid = (await t.call('GET', '/projects?limit=1', { noValidate: true })).json?.data?.[0]?.id ?? '6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f';
  const bPid = (await t.call('GET', '/projects?limit=1', { key: 'other', noValidate: true })).json?.data?.[0]?.id ?? '6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f';
  const cursor = first.json?.page?.nextCursor ?? '';
  await c('GET', `/projects?limit=2&cursor=${cursor}`);
  await c('GET', `/projects?limit=2&sort=title&cursor=${cursor}`);
  await c('GET', `/projects?limit=2&order=desc&cursor=${cursor}`);
  await c('GET', '/projects?limit=2&cursor=');
  await c('GET', '/projects?limit=2&cursor=garbage');
  await c('GET', '/projects?limit=3&order=desc&sort=title');
  await c('GET', '/projects?q=shared');
  await c('GET', '/projects?limit=abc');
  // a full walk with small pages (boundaries, ties, hasMore)
  let cur = '';
  for (let i = 0; i < 30; i++) {
    const r = await c('GET', `/projects?limit=3&sort=created_at${cur ? `&cursor=${encodeURIComponent(cur)}` : ''}`);
    if (!r.json?.page?.hasMore || !r.json.page.nextCursor) break;
    cur = r.json.page.nextCursor;
  }
  await c('GET', `/projects/${pid}`, {}, ['content-type']);
  await c('GET', `/projects/${pid}`);
  await c('GET', `/projects/${bPid}`);
  await c('GET', `/projects/${pid.replace(/-/g, '')}`);
  await c('GET', '/projects/00000000-0000-0000-0000-000000000000');
  await c('GET', '/projects/6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f');
  await c('PATCH', `/projects/${bPid}`, { body: { title: 'x' } });
  await c('GET', `/projects/${bPid}`, { key: 'other' });
  await c('PATCH', `/projects/${pid}`, { body: {} });
  await c('PATCH', `/projects/${pid}`, { body: { status: null } });
  await c('PATCH', `/projects/${pid}`, { body: { title: 'T', stage_key: 'proposal' } });
  await c('GET', `/projects/${pid}`);
  await c('PATCH', `/projects/${pid}`, { body: { close_reason: 'r', close_reason_category: 'c' } });
  await c('PATCH', `/projects/${pid}`, { body: { archived_at: '2026-01-02T00:00:00.000Z' } });
  await c('PATCH', `/projects/${pid}`, { body: { title: 'RO' }, key: 'readOnly' });
  await c('GET', '/projects', { key: 'none' });
  await c('GET', '/projects', { key: 'not-a-key' });
  await c('GET', '/projects', { key: 'noApi' });
  await c('POST', '/employees', { raw: '{bad', headers: { 'content-type': 'application/json' } }, ['content-type']);
  await c('POST', '/employees', { body: { last_name: 'x' } });
  const emp = await c('POST', '/employees', { body: { first_name: 'F' }, headers: { 'idempotency-key': 'k1' } });
  await c('POST', '/employees', { body: { first_name: 'F' }, headers: { 'idempotency-key': 'k1' } });
  await c('POST', '/employees', { body: { first_name: 'G' }, headers: { 'idempotency-key': 'k1' } });
  await c('POST', '/employees', { body: { first_name: 'F' }, headers: { 'idempotency-key': 'k1' } });
  await c('POST', '/employees', { body: { first_name: 'F' }, headers: { 'idempotency-key': 'k1' }, key: 'other' });
  const a = (await t.call('GET', '/assignments?limit=1', { noValidate: true })).json?.data?.[0];
  if (typeof emp.json?.id === 'string') {
    // the embedded copy: shown, the employee patched, shown again, then reassigned
    const embedding = await c('POST', '/assignments', { body: { employee_id: emp.json.id, project_id: pid } });
    await c('PATCH', `/employees/${emp.json.id}`, { body: { is_active: false, last_name: 'L' } });
    if (typeof embedding.json?.id === 'string') {
      await c('GET', `/assignments/${embedding.json.id}`);
      if (a?.employee_id) await c('PATCH', `/assignments/${embedding.json.id}`, { body: { employee_id: a.employee_id } });
      await c('GET', `/assignments/${embedding.json.id}`);
    }
  }
  const eid = a?.employee_id ?? pid;
  const bAssignment = (await t.call('GET', '/assignments?limit=1', { key: 'other', noValidate: true })).json?.data?.[0]?.id ?? pid;
  await c('GET', `/assignments?project_id=${a?.project_id ?? pid}`);
  await c('GET', `/assignments?project_id=${bPid}`);
  await c('GET', `/assignments?project_id=00000000-0000-0000-0000-000000000000&employee_id=${eid}`); // no project: empty unless project_id is dropped
  await c('GET', `/cvs?employee_id=${eid}&limit=2`);
  await c('GET', '/organizations?limit=2');
  await c('POST', '/organizations', { body: { name: 'O' } });
  await c('POST', '/assignments', { body: { employee_id: eid, project_id: bPid } });
  const race = await Promise.all(
    Array.from({ length: 5 },
      () => t.call('POST', '/assignments', { body: { employee_id: eid, project_id: pid }, headers: { 'idempotency-key': 'race' }, noValidate: true })),
  );
  out.push(`race statuses ${race.map((r) => r.status).sort().join(',')}`);
  const asg = await c('POST', '/assignments', { body: { employee_id: eid, project_id: pid, role: 'R' } });
  const asgId = typeof asg.json?.id === 'string' ? asg.json.id : pid;
  await c('GET', `/assignments/${asgId}`);
  await c('PATCH', `/assignments/${asgId}`, { body: { role: 'S' } });
  await c('DELETE', `/assignments/${asgId}`);
  await c('GET', `/assignments/${asgId}`);
  await c('DELETE', `/assignments/${bAssignment}`);
  await c('GET', `/assignments/${bAssignment}`, { key: 'other' });
  // uploads
  const fields = { entity_type: 'project', entity_id: pid, category: 'contract' };
  const pid2 = (await t.call('GET', '/projects?limit=2', { noValidate: true })).json?.data?.[1]?.id ?? pid;
  await c('POST', '/attachments', { raw: uploadForm('elsewhere', { entity_type: 'project', entity_id: pid2 }) });
  const att = await c('POST', '/attachments', { raw: uploadForm('hello', fields), headers: { 'idempotency-key': 'u1' } });
  await c('POST', '/attachments', { raw: uploadForm('hello', fields), headers: { 'idempotency-key': 'u1' } });
  await c('POST', '/attachments', { raw: uploadForm('other', fields), headers: { 'idempotency-key': 'u1' } });
  await c('POST', '/attachments', { raw: uploadForm('x', { entity_type: 'invoice', entity_id: pid }) });
  await c('POST', '/attachments', { raw: uploadForm('x', { entity_type: 'project', entity_id: bPid }) });
  const fileFirst = new (await import('undici')).FormData();
  fileFirst.append('file', new Blob(['first']), 'first.bin');
  for (const [k, v] of Object.entries(fields)) fileFirst.append(k, v);
  await c('POST', '/attachments', { raw: fileFirst });
  await c('GET', `/attachments?entity_type=project&entity_id=${pid}`);
  await c('GET', '/attachments');
  await c('GET', `/attachments?entity_type=project&entity_id=${pid}&limit=5`);
  if (typeof att.json?.id === 'string') {
    await c('GET', `/attachments/${att.json.id}/download`);
    await c('DELETE', `/attachments/${att.json.id}`);
    await c('GET', `/attachments/${att.json.id}/download`);
  }
  const noFile = new (await import('undici')).FormData();
  noFile.append('category', 'c');
  await c('POST', '/files', { raw: noFile });
  const file = await c('POST', '/files', { raw: uploadForm('file-bytes', { category: 'c' }) });
  const fid = typeof file.json?.id === 'string' ? file.json.id : pid;
  await c('GET', `/files/${fid}`);
  await c('GET', `/files/${fid}`, { key: 'none' });
  await c('DELETE', `/files/${fid}`);
  await c('GET', `/files/${fid}`);
  await c('POST', '/documents', { raw: uploadForm('doc') });
  // intake
  const cap = { source: 'gmail', external_id: 'thread-A-1' };
  await c('POST', '/intake/captures', { body: cap });
  await c('POST', '/intake/captures', { body: cap });
  await c('POST', '/intake/captures', { body: cap, key: 'other' });
  await c('POST', '/intake/captures', { body: { ...cap, source: 'outlook' } });
  await c('POST', '/intake/captures', { body: { ...cap, title: 'retitled' } });
  const together = await Promise.all(
    [1, 2, 3].map(() => t.call('POST', '/intake/captures', { body: { source: 'gmail', external_id: 'thread-A-2' }, noValidate: true })),
  );
  out.push(`concurrent captures ${new Set(together.map((r) => r.json?.id)).size}`);
  // versioning
  const doc = await t.call('GET', '/openapi.json', { noValidate: true });
  out.push(`openapi ${doc.status} ${doc.json?.info?.version} ${doc.json?.paths?.['/api/public/v1/projects']?.get?.deprecated}`);
  await c('GET', '/cvs?limit=1', {}, ['deprecation']);
  await c('GET', '/projects?limit=1', { key: 'other' });
  // inputs a client gets wrong, and an empty file
  await c('GET', '/projects?limit=0');
  await c('PATCH', `/projects/${pid}`, { raw: 'null', headers: { 'content-type': 'application/json' } });
  await c('PATCH', `/projects/${pid}`, { body: { title: '['.repeat(70) } });
  const empty = await c('POST', '/attachments', { raw: uploadForm('', fields) });
  if (typeof empty.json?.id === 'string') await c('GET', `/attachments/${empty.json.id}/download`);
  // a filename outside Latin-1, downloaded
  const named = await c('POST', '/attachments', { raw: uploadForm('bytes', fields, 'Łódź 渡辺 😀.bin') });
  if (typeof named.json?.id === 'string') await c('GET', `/attachments/${named.json.id}/download`);
  const unnamed = '--b\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: application/octet-stream\r\n\r\nbytes\r\n--b--\r\n';
  await c('POST', '/files', { raw: unnamed, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
  await c('GET', `/attachments?entity_type=invoice&entity_id=${pid}`);
  // values at their boundaries, stamps, request forms, requests in flight together
  await c('POST', '/files', { raw: uploadForm('named', {}, 'Müller.pdf') });
  const org = await c('POST', '/organizations', { body: { name: 'Null' } });
  if (typeof org.json?.id === 'string') await c('PATCH', `/organizations/${org.json.id}`, { body: { favicon_url: null } });
  await c('PATCH', `/projects/${pid2}`, { body: { notes: 'n' } });
  await c('GET', `/projects/${pid2}`);
  const searched = await c('GET', '/projects?q=a&limit=1');
  const next = searched.json?.page?.nextCursor;
  if (typeof next === 'string' && next) await c('GET', `/projects?q=a&limit=1&cursor=${encodeURIComponent(next)}`);
  await c('GET', '/projects?q=%25');
  await c('GET', '/projects?q=%6f&limit=2');
  await c('GET', '/projects?limit=1&limit=2');
  await c('GET', '/projects?q=');
  await c('GET', `/attachments?entity_type=contact&entity_id=${pid}`);
  const [x, y] = await Promise.all([1, 2].map(() => t.call('POST', '/assignments', { body: { employee_id: eid, project_id: pid }, noValidate: true })));
  const [xid, yid] = [x?.json?.id, y?.json?.id].map((v) => (typeof v === 'string' ? v : pid));
  await c('DELETE', `/assignments/${xid}`, { headers: { 'idempotency-key': 'scope' } });
  await c('DELETE', `/assignments/${yid}`, { headers: { 'idempotency-key': 'scope' } });
  await c('GET', `/assignments/${yid}`);
  await c('PATCH', `/projects/${pid}`, { raw: '{"notes": "typed"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
  await c('GET', '/projects?limit=1', { headers: { accept: 'application/*' } });
  await c('GET', `/projects/${bPid.toUpperCase()}`);
  const up = await t.call('POST', '/assignments', { body: { employee_id: eid, project_id: pid, role: 'lower' }, noValidate: true });
  const upId = typeof up.json?.id === 'string' ? up.json.id : pid;
  await c('PATCH', `/assignments/${upId.toUpperCase()}`, { body: { role: 'upper' } });
  await c('GET', `/assignments/${upId}`);
  await c('PATCH', `/projects/${pid}`, { raw: '{bad', headers: { 'content-type': 'application/json' } });
  await Promise.all([
    t.call('PATCH', `/assignments/${upId}`, { body: { role: 'together' }, noValidate: true }),
    t.call('PATCH', `/assignments/${upId}`, { body: { bill_rate: 7 }, noValidate: true }),
  ]);
  await c('GET', `/assignments/${upId}`);
  // both teams' creates in flight together: counted, as their order in a list is not fixed
  await Promise.all(
    [0, 1, 2, 3, 4, 5].map((i) =>
      t.call('POST', '/organizations', { body: { name: `${i % 2 ? 'B' : 'A'} together ${i}` }, key: i % 2 ? 'other' : 'team', noValidate: true })
    ),
  );
  const misplaced = async (key: string, stranger: string) =>
    ((await t.call('GET', '/organizations?q=together&limit=100', { key, noValidate: true })).json?.data ?? [])
      .filter((o: { name?: string; }) => o.name?.startsWith(stranger)).length;
  out.push(`together: ${await misplaced('team', 'B ')} of B's in A, ${await misplaced('other', 'A ')} of A's in B`);
  await c('GET', `/assignments/${upId}`, { key: 'none' });
  await c('GET', '/assignments/6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f', { key: 'none' });
  const thread = (await t.call('GET', '/projects?limit=1', { key: 'other', noValidate: true })).json?.data?.[0]?.source_external_id;
  if (typeof thread === 'string') await c('POST', '/intake/captures', { body: { source: 'email', external_id: thread } });
  await c('PATCH', `/projects/${pid2}`, { body: { notes: 'n'.repeat(70_000) } });
  await c('GET', `/projects/${pid2}`);
  await c('PATCH', `/projects/${pid2}`, { body: { notes: 'n'.repeat(2 * 1024 * 1024) } });
  if (heavy !== undefined) {
    const file = bigMultipart(heavy);
    await c('POST', '/files', { raw: file.body, headers: { 'content-type': file.type } });
    const att = bigMultipart(heavy, { entity_type: 'project', entity_id: pid });
    const big = await c('POST', '/attachments', { raw: att.body, headers: { 'content-type': att.type } });
    await c('GET', `/attachments?entity_type=project&entity_id=${pid}`);
    if (typeof big.json?.id === 'string') await c('GET', `/attachments/${big.json.id}/download`);
  }
  return out;
}

async function run(fault: string | undefined, shape: 'full' | 'legacy', heavy: number | undefined): Promise<string[]> {
  const t = await startTestMock({ fault, shape, seed: 3, deprecate: ['listProjects'] });
  try {
    return await battery(t, heavy);
  } finally {
    await t.close();
  }
}

describe('each fault changes behaviour', () => {
  const baselines = new Map<string, Promise<string[]>>();
  const baseline = (shape: 'full' | 'legacy', heavy: number | undefined) => {
    const k = `${shape}-${heavy}`;
    if (!baselines.has(k)) baselines.set(k, run(undefined, shape, heavy));
    return baselines.get(k)!;
  };

  it('the battery is deterministic on the clean mock', async () => {
    expect(await run(undefined, 'full', undefined)).toEqual(await baseline('full', undefined));
  });

  it.each(writtenFaults.map((f) => [f.name, f.shape] as const))('%s', async (name, shape) => {
    const heavy = HEAVY_FAULTS[name];
    const clean = await baseline(shape, heavy);
    const faulted = await run(name, shape, heavy);
    expect(faulted).not.toEqual(clean);
  }, 120_000);
});
