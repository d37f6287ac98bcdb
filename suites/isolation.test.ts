// §1 "A record that belongs to another team is reported as missing, the same as an id that does
// not exist"; §4 404 not_found; changelog 1.6.0. Team B's records are created with its own key.
import fc from 'fast-check';
import { ensure, errorCode, expectStatus, fail, is2xx } from './harness/assert.js';
import type { ApiResponse } from './harness/client.js';
import { check, type CheckContext } from './harness/check.js';
import { property } from './harness/property.js';
import { aProject, attachmentsOf, createEmployee, marker, postAssignment, testFile, uploadAttachment } from './harness/records.js';
import { randomId, teamB } from './harness/team-b.js';
import { expectErrorEnvelope, expectPage } from './harness/validate.js';
import { lists, walk } from './harness/walk.js';

const opts = { mutates: true, keys: ['otherTeam' as const] };

/** Status and error code of the same request for a random id, the reference for "missing". */
async function sameAsMissing(c: CheckContext, res: ApiResponse, method: string, path: (id: string) => string, json?: unknown): Promise<ApiResponse> {
  const missing = await c.api.send({ method, path: path(randomId()), ...(json ? { json } : {}) });
  ensure(res.status === missing.status, `another team's id answered ${res.status}, a missing id ${missing.status}`, res);
  ensure(errorCode(res) === errorCode(missing), `another team's id answered code ${errorCode(res)}, a missing id ${errorCode(missing)}`, res);
  return missing;
}

check(['ISO-GET-OTHER-TEAM-404', 'ISO-OTHER-TEAM-AS-MISSING', 'CHANGELOG-1-6-0-NOT-FOUND', 'ERR-NOT-FOUND'], "GET by id of another team's project, assignment and file answers 404 not_found like a missing id", async (c) => {
  const b = await teamB(c);
  for (const [path, id] of [['/projects', b.project.id], ['/assignments', b.assignment.id], ['/files', b.file.id]] as const) {
    const res = await c.api.send({ method: 'GET', path: `${path}/${id}` });
    expectStatus(res, 404, `GET ${path}/{id} of another team's record`);
    expectErrorEnvelope(res);
    ensure(errorCode(res) === 'not_found', `error.code is ${errorCode(res)}, not not_found`, res);
    await sameAsMissing(c, res, 'GET', (x) => `${path}/${x}`);
  }
  const download = c.settings.paths.attachmentDownload;
  if (download) {
    const res = await c.api.send({ method: download.method, path: download.path.replace('{id}', String(b.attachment.id)) });
    expectStatus(res, 404, "the download of another team's attachment");
    await sameAsMissing(c, res, download.method, (x) => download.path.replace('{id}', x));
  }
}, opts);

check(['ISO-OTHER-TEAM-NO-EXISTENCE-LEAK'], "the 404 for another team's id carries none of the record's values and the same envelope as a missing id", async (c) => {
  const b = await teamB(c);
  for (const [path, rec] of [['/projects', b.project], ['/assignments', b.assignment], ['/files', b.file]] as const) {
    const res = await c.api.send({ method: 'GET', path: `${path}/${rec.id}` });
    const missingId = randomId();
    const missing = await c.api.send({ method: 'GET', path: `${path}/${missingId}` });
    const keys = (r: ApiResponse) => JSON.stringify(Object.keys((r.body as object) ?? {}).sort()) + JSON.stringify(Object.keys(((r.body as { error?: object })?.error) ?? {}).sort());
    ensure(keys(res) === keys(missing), `envelope keys differ: ${keys(res)} vs ${keys(missing)}`, res);
    const text = res.text.split(String(rec.id)).join('<id>');
    const leaked = Object.entries(rec).filter(([k, v]) => k !== 'id' && typeof v === 'string' && v.length >= 6 && text.includes(v)).map(([k]) => k);
    if (leaked.length) fail(`the 404 body carries the record's ${leaked.join(', ')}`, res);
    const normal = (r: ApiResponse, id: string) => r.text.split(id).join('<id>').replace(/"(request_?id|requestId|trace_?id)"\s*:\s*"[^"]*"/g, '');
    if (normal(res, String(rec.id)) !== normal(missing, missingId)) c.reading(`isolation.404-body${path}`, 'differs from a missing id beyond the id (status and code equal)');
  }
}, opts);

check(['ISO-MUTATE-OTHER-TEAM-NO-EFFECT', 'ISO-OTHER-TEAM-AS-MISSING'], "PATCH and DELETE of another team's records answer like a missing id and change nothing", async (c) => {
  const b = await teamB(c);
  const patches: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['/projects', b.project, { title: `${marker(c)} intruder` }],
    ['/assignments', b.assignment, { role: `${marker(c)} intruder` }],
    ['/organizations', b.organization, { notes: `${marker(c)} intruder` }],
    ['/employees', b.employee, { last_name: 'Intruder' }],
  ];
  for (const [path, rec, body] of patches) {
    const res = await c.api.send({ method: 'PATCH', path: `${path}/${rec.id}`, json: body });
    if (is2xx(res)) fail(`PATCH ${path}/{id} of another team's record answered ${res.status}`, res);
    await sameAsMissing(c, res, 'PATCH', (x) => `${path}/${x}`, body);
  }
  const project = await c.api.send({ method: 'GET', path: `/projects/${b.project.id}`, auth: 'otherTeam' });
  ensure((project.body as Record<string, unknown>)?.title === b.project.title, "another team's project title changed", project);
  const assignment = await c.api.send({ method: 'GET', path: `/assignments/${b.assignment.id}`, auth: 'otherTeam' });
  ensure((assignment.body as Record<string, unknown>)?.role === b.assignment.role, "another team's assignment role changed", assignment);
  for (const [path, id] of [['/assignments', b.assignment.id], ['/attachments', b.attachment.id]] as const) {
    const res = await c.api.send({ method: 'DELETE', path: `${path}/${id}` });
    if (is2xx(res)) fail(`DELETE ${path}/{id} of another team's record answered ${res.status}`, res);
    await sameAsMissing(c, res, 'DELETE', (x) => `${path}/${x}`);
  }
  const still = await c.api.send({ method: 'GET', path: `/assignments/${b.assignment.id}`, auth: 'otherTeam' });
  expectStatus(still, '2xx', "another team's assignment after a cross-team DELETE");
  const atts = await attachmentsOf(c, { type: 'project', id: String(b.project.id) }, 'otherTeam');
  ensure(expectPage(atts, 'attachment').data.some((a) => a.id === b.attachment.id), "another team's attachment is gone after a cross-team DELETE", atts);
  if (c.settings.paths.fileDelete) {
    const e = c.settings.paths.fileDelete;
    const res = await c.api.send({ method: e.method, path: e.path.replace('{id}', String(b.file.id)) });
    if (is2xx(res)) fail("deleting another team's file answered 2xx", res);
    expectStatus(await c.api.send({ method: 'GET', path: `/files/${b.file.id}`, auth: 'otherTeam' }), '2xx', "another team's file after a cross-team delete");
  }
}, opts);

check(['ISO-LIST-OWN-TEAM-ONLY'], "no list shows another team's record, filtered by its ids or not", async (c) => {
  const b = await teamB(c);
  const theirs = new Set<unknown>([b.project.id, b.assignment.id, b.organization.id, b.attachment.id]);
  for (const list of ['projects', 'assignments', 'organizations', 'cvs'] as const) {
    for (const item of (await walk(c, lists[list], { limit: 100, auth: 'otherTeam' })).items) theirs.add(item.id);
  }
  for (const list of ['projects', 'assignments', 'organizations', 'cvs'] as const) {
    const w = await walk(c, lists[list], { limit: 100 });
    const leak = w.items.find((i) => theirs.has(i.id));
    if (leak) fail(`GET ${lists[list].path} shows another team's record ${String(leak.id)}`, w.last);
  }
  const filtered: [string, Record<string, string>][] = [
    ['/assignments', { project_id: String(b.project.id) }],
    ['/assignments', { employee_id: String(b.employee.id) }],
    ['/cvs', { employee_id: String(b.employee.id) }],
    ['/attachments', { entity_type: 'project', entity_id: String(b.project.id) }],
  ];
  for (const [path, query] of filtered) {
    const res = await c.api.send({ method: 'GET', path, query });
    if (!is2xx(res)) { expectStatus(res, '4xx', `GET ${path} filtered by another team's id`); continue; }
    const data = (res.body as { data?: unknown[] })?.data ?? [];
    ensure(data.length === 0, `GET ${path}?${new URLSearchParams(query)} shows ${data.length} record(s) of another team`, res);
  }
}, opts);

check(['ISO-REFERENCE-OTHER-TEAM-AS-MISSING'], "create bodies referencing another team's records are refused like missing references, creating nothing", async (c) => {
  const b = await teamB(c);
  const project = await aProject(c);
  const employee = await createEmployee(c);
  const bodies = [
    { employee_id: b.employee.id, project_id: project.id },
    { employee_id: employee.id, project_id: b.project.id },
  ];
  for (const body of bodies) {
    const res = await postAssignment(c, body);
    if (is2xx(res)) fail(`POST /assignments referencing another team's ${body.employee_id === b.employee.id ? 'employee' : 'project'} was accepted`, res);
    const missing = await postAssignment(c, { ...body, ...(body.employee_id === b.employee.id ? { employee_id: randomId() } : { project_id: randomId() }) });
    ensure(res.status === missing.status, `another team's reference answered ${res.status}, a missing one ${missing.status}`, res);
  }
  const res = await uploadAttachment(c, { type: 'project', id: String(b.project.id) }, testFile(c, 32));
  if (is2xx(res)) fail("POST /attachments on another team's project was accepted", res);
  const after = await attachmentsOf(c, { type: 'project', id: String(b.project.id) }, 'otherTeam');
  ensure(expectPage(after, 'attachment').data.every((a) => a.id === b.attachment.id), "an attachment appeared on another team's project", after);
}, opts);

check(['ISO-GET-MISSING-404', 'ERR-NOT-FOUND'], 'property: GET by random valid ids answers 404 not_found', async (c) => {
  await property(fc.record({ path: fc.constantFrom('/projects', '/assignments', '/files'), id: fc.uuid({ version: [1, 4, 7] }) }), async ({ path, id }) => {
    const res = await c.api.send({ method: 'GET', path: `${path}/${id}` });
    expectStatus(res, 404, `GET ${path}/{random id}`);
    expectErrorEnvelope(res);
    ensure(errorCode(res) === 'not_found', `error.code is ${errorCode(res)}, not not_found`, res);
  });
});
