// §1 "A record that belongs to another team is reported as missing, the same as an id that does
// not exist"; §4 404 not_found; changelog 1.6.0. Isolation holds on every channel: GET, PATCH and
// DELETE by id, downloads, body references and idempotency keys here; lists, filters, search and
// cursors in isolation-lists.check.ts. Team B's records are created with its own key.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import type { KeyName } from '../contract/settings.js';
import { operations } from '../specs/surface.js';
import { expectUnchanged, observe } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { ensure, expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { errorCode, expectErrorEnvelope, expectPage } from './harness/judge/problems.js';
import { compareWithMissing, expectLikeMissing } from './harness/missing.js';
import { exercised, titles } from './harness/plan/cells.js';
import { type Operation, operationNamed, servedOperations } from './harness/plan/operations.js';
import { cellsOf, makeable } from './harness/plan/table.js';
import { drawn, property } from './harness/property.js';
import {
  aProject,
  attachmentsOf,
  createEmployee,
  marker,
  postAssignment,
  postOrganization,
  testFile,
  uploadAttachment,
  uploadFile,
} from './harness/records.js';
import { bodyOf, patchTarget, referenceTo, send, type Sent, subjectOf, textFieldOf } from './harness/subjects.js';
import { type TeamB, teamB } from './harness/team-b.js';
import type { ApiResponse } from './harness/transport/client.js';
import { viewsMatching, viewsOf } from './harness/views.js';

const opts = { mutates: true, keys: ['otherTeam' as const] };

check([
  'ISO-GET-OTHER-TEAM-404',
  'ISO-OTHER-TEAM-AS-MISSING',
  'CHANGELOG-1-6-0-NOT-FOUND',
  'ERR-NOT-FOUND',
], "GET by id of another team's project, assignment, file and attachment download answers exactly like a missing id: 404 not_found", async (c) => {
  const b = await teamB(c);
  for (const [path, id] of [['/projects', b.project.id], ['/assignments', b.assignment.id], ['/files', b.file.id]] as const) {
    const res = await expectLikeMissing(c, String(id), (x) => ({ method: 'GET', path: `${path}/${x}` }), `GET ${path}/{id}`);
    expectStatus(res, 404, `GET ${path}/{id} of another team's record`);
    expectErrorEnvelope(res);
    ensure(errorCode(res) === 'not_found', `error.code is ${errorCode(res)}, not not_found`, res);
  }
  const download = c.settings.paths.attachmentDownload;
  if (download) {
    const res = await expectLikeMissing(c, String(b.attachment.id), (x) => ({ method: download.method, path: download.path.replace('{id}', x) }),
      'the attachment download');
    expectStatus(res, 404, "the download of another team's attachment");
  }
}, opts);

check([
  'ISO-OTHER-TEAM-NO-EXISTENCE-LEAK',
], "the 404 for another team's id carries none of the record's values", async (c) => {
  const b = await teamB(c);
  for (const [path, rec] of [['/projects', b.project], ['/assignments', b.assignment], ['/files', b.file]] as const) {
    const res = await c.api.send({ method: 'GET', path: `${path}/${rec.id}` });
    const text = res.text.split(String(rec.id)).join('<id>');
    const leaked = Object.entries(rec).filter(([k, v]) => k !== 'id' && typeof v === 'string' && v.length >= 6 && text.includes(v)).map(([k]) => k);
    if (leaked.length) fail(`the 404 body carries the record's ${leaked.join(', ')}`, res);
  }
}, opts);

check([
  'ISO-MUTATE-OTHER-TEAM-NO-EFFECT',
  'ISO-OTHER-TEAM-AS-MISSING',
], "PATCH and DELETE of another team's records answer exactly like a missing id", async (c) => {
  const b = await teamB(c);
  const patches: [string, Rec, Rec][] = [
    ['/projects', b.project, { title: `${marker(c)} intruder` }],
    ['/assignments', b.assignment, { role: `${marker(c)} intruder` }],
    ['/organizations', b.organization, { notes: `${marker(c)} intruder` }],
    ['/employees', b.employee, { last_name: 'Intruder' }],
  ];
  for (const [path, rec, body] of patches) {
    const res = await expectLikeMissing(c, String(rec.id), (x) => ({ method: 'PATCH', path: `${path}/${x}`, json: body }), `PATCH ${path}/{id}`);
    if (is2xx(res)) fail(`PATCH ${path}/{id} of another team's record answered ${res.status}`, res);
  }
  const deletes: [string, unknown][] = [['/assignments', b.assignment.id], ['/attachments', b.attachment.id]];
  const e = c.settings.paths.fileDelete;
  for (const [path, id] of deletes) {
    const res = await expectLikeMissing(c, String(id), (x) => ({ method: 'DELETE', path: `${path}/${x}` }), `DELETE ${path}/{id}`);
    if (is2xx(res)) fail(`DELETE ${path}/{id} of another team's record answered ${res.status}`, res);
  }
  if (e) {
    const res = await expectLikeMissing(c, String(b.file.id), (x) => ({ method: e.method, path: e.path.replace('{id}', x) }), 'the file delete');
    if (is2xx(res)) fail("deleting another team's file answered 2xx", res);
  }
}, opts);

check([
  'ISO-REFERENCE-OTHER-TEAM-AS-MISSING',
], "create bodies referencing another team's records are refused exactly like missing references, creating nothing", async (c) => {
  const b = await teamB(c);
  const project = await aProject(c);
  const employee = await createEmployee(c);
  /** Refused, and in every respect (status, code, message, detail, headers) as a missing reference is. */
  const refusedLikeMissing = async (theirs: string, send: (id: string) => Promise<ApiResponse>, what: string) => {
    const { theirs: res, differences } = await compareWithMissing(c, [theirs], ([x]) => send(x!));
    if (is2xx(res)) fail(`${what} was accepted`, res);
    if (differences.length) fail(`${what} is refused otherwise than a missing reference: ${differences.join('; ')}`, res);
  };
  await refusedLikeMissing(String(b.employee.id), (x) => postAssignment(c, { employee_id: x, project_id: project.id }),
    "POST /assignments referencing another team's employee");
  await refusedLikeMissing(String(b.project.id), (x) => postAssignment(c, { employee_id: employee.id, project_id: x }),
    "POST /assignments referencing another team's project");
  const file = testFile(c, 32);
  await refusedLikeMissing(String(b.project.id), (x) => uploadAttachment(c, { type: 'project', id: x }, file), "POST /attachments on another team's project");
  const after = await attachmentsOf(c, { type: 'project', id: String(b.project.id) }, 'otherTeam');
  ensure(expectPage(after, 'attachment').data.every((a) => a.id === b.attachment.id), "an attachment appeared on another team's project", after);
}, opts);

check([
  'ISO-IDEMPOTENCY-PER-TEAM',
], "an idempotency key one team used means nothing to the other team's requests", async (c) => {
  const project = await aProject(c);
  const employee = await createEmployee(c);
  const b = await teamB(c);
  const key = randomUUID();
  const mineBody = { employee_id: employee.id, project_id: project.id, role: marker(c) };
  const mine = await postAssignment(c, mineBody, 'team', key);
  expectStatus(mine, '2xx', 'POST /assignments with a fresh key');
  const sameBody = await postAssignment(c, mineBody, 'otherTeam', key);
  if (is2xx(sameBody)) {
    fail(
      `the other team sending this team's key and body got ${
        (sameBody.body as Rec)?.id === (mine.body as Rec).id ? "this team's assignment" : "an assignment naming this team's employee"
      }`,
      sameBody,
    );
  }
  const theirsBody = { employee_id: b.employee.id, project_id: b.project.id, role: marker(c) };
  // §4 does not say how far a key reaches: a deployment may hold keys for all teams and refuse the
  // reuse (recorded), but never answer with the other team's record
  const theirs = await postAssignment(c, theirsBody, 'otherTeam', key);
  if (is2xx(theirs)) ensure((theirs.body as Rec).id !== (mine.body as Rec).id, "the other team's request was answered with this team's assignment", theirs);
  else c.reading('idempotency.key-reach', `a key one team used is refused to the other with ${theirs.status}`);
  const orgKey = randomUUID();
  const org = await postOrganization(c, {}, 'team', orgKey);
  expectStatus(org, '2xx', 'create organization with a fresh key');
  const other = await postOrganization(c, { name: (org.body as Rec).name }, 'otherTeam', orgKey);
  if (is2xx(other)) {
    ensure((other.body as Rec).id !== (org.body as Rec).id, "the other team's request with this team's key and body was answered with this team's organization",
      other);
  }
}, opts);

check([
  'ISO-IDEMPOTENCY-PER-TEAM',
], "an idempotency key one team used on an upload never brings that team's record to the other team's upload", async (c) => {
  const b = await teamB(c);
  const project = await aProject(c);
  // the same file each time: a key held across teams would replay the first upload as it is
  const file = testFile(c, 64);
  const uploads: [string, (auth: KeyName, key: string) => Promise<ApiResponse>][] = [
    ['POST /files', (auth, key) => uploadFile(c, file, { auth, idempotencyKey: key })],
    ['POST /attachments', (auth, key) =>
      // each team on its own project: the request differs only in whose entity it names
      uploadAttachment(c, { type: 'project', id: String(auth === 'team' ? project.id : b.project.id) }, file, { auth, idempotencyKey: key })],
  ];
  for (const [name, send] of uploads) {
    const key = randomUUID();
    const mine = await send('team', key);
    expectStatus(mine, '2xx', `${name} with a fresh key`);
    const theirs = await send('otherTeam', key);
    if (is2xx(theirs)) {
      ensure((theirs.body as Rec).id !== (mine.body as Rec).id, `the other team's ${name} with this team's key was answered with this team's record`, theirs);
    } else c.reading(`idempotency.key-reach ${name}`, `a key one team used is refused to the other with ${theirs.status}`);
  }
}, opts);

check([
  'ISO-GET-MISSING-404',
  'ERR-NOT-FOUND',
], 'property: GET by random valid ids answers 404 not_found', async (c) => {
  const paths = ['/projects', '/assignments', '/files'] as const;
  const ids = drawn(fc.uuid({ version: [1, 4, 7] }), paths.length);
  await property(fc.record({ path: fc.constantFrom(...paths), id: fc.uuid({ version: [1, 4, 7] }) }), async ({ path, id }) => {
    const res = await c.api.send({ method: 'GET', path: `${path}/${id}` });
    expectStatus(res, 404, `GET ${path}/{random id}`);
    expectErrorEnvelope(res);
    ensure(errorCode(res) === 'not_found', `error.code is ${errorCode(res)}, not not_found`, res);
    // every path on every seed: a random id of each first
  }, { examples: paths.map((path, i) => ({ path, id: ids[i]! })) });
});

// --- every reference of every body, POST and PATCH alike (harness/plan/table.ts) ----------------------

/** Team B's record of each resource the fixture makes. */
const theirsOf = (b: TeamB): Record<string, Rec> => ({
  projects: b.project,
  employees: b.employee,
  assignments: b.assignment,
  organizations: b.organization,
  files: b.file,
  attachments: b.attachment,
});

/** Whether some operation serves records of `resource` (a contact, never shown, cannot be named by another team's record). */
const shown = (resource: string) => operations().some((x) => x.resource === resource);

/**
 * Operations whose body names records of a resource some operation serves: a reference only to
 * what no operation shows (a project's primary contact) is not one a client can tell taken from
 * refused (the field checks own it).
 */
const referring = operations().filter((o) => o.method !== 'get' && o.fields.some((f) => f.references?.some(shown)));

for (const op of referring) {
  check([
    'ISO-REFERENCE-OTHER-TEAM-AS-MISSING',
  ], titles.otherTeamReference(op.op), async (c) => {
    const live = operationNamed(c.settings, op.op)!;
    const b = await teamB(c);
    const target = live.kind === 'patch' ? await patchTarget(c, live) : undefined;
    const base = live.kind === 'patch' ? undefined : await bodyOf(c, live);
    const views = target ? viewsOf(c, await subjectOf(c, live.resource, target)) : [];
    let before = await observe(views);
    const own = new Map<string, Promise<Rec | undefined>>();
    /** A record of the team of `kind`, one per check. */
    const ownOf = (kind: string) => own.get(kind) ?? own.set(kind, referenceTo(c, kind)).get(kind)!;
    for (const f of live.fields.filter((x) => x.references)) {
      const typed = live.fields.find((x) => x.name === `${f.name.slice(0, -3)}_type` && x.enum);
      for (const resource of f.references!) {
        const record = theirsOf(b)[resource];
        // another team's record is read from its own list: none needs to be made (a project included)
        if (!record) continue;
        const type = typed ? { [typed.name]: resource.slice(0, -1) } : {};
        const request = (x: string): Sent => target ? { body: { [f.name]: x, ...type } } : { ...base!, body: { ...base!.body, [f.name]: x, ...type } };
        const what = `${op.op} naming another team's ${resource.slice(0, -1)} in ${f.name}`;
        const { theirs, differences } = await compareWithMissing(c, [String(record.id)], ([x]) =>
          send(c, live, { id: target && String(target.id), sent: request(x!) }));
        if (is2xx(theirs)) fail(`${what} was accepted`, theirs);
        if (differences.length) fail(`${what} is refused otherwise than a missing reference: ${differences.join('; ')}`, theirs);
        // the missing reference was compared with the other team's: both cells' assertions ran
        exercised({ dimension: 'fields', subject: op.op, aspect: `${f.path} reference missing` });
        // nothing changed: the record a PATCH named reads as before; no record a create would have made is listed
        if (target) await expectUnchanged(c, before, `${what} answered ${theirs.status}`);
        else await expectNotMade(c, live, request(String(record.id)).body, `${what} answered ${theirs.status}`);
        exercised({ dimension: 'fields', subject: op.op, aspect: `${f.path} reference other team ${resource}` });
      }
      // A record of the team of another kind is no record of the kinds the field names: it is a
      // missing reference too (a lookup by id in every table of the team, no foreign key, takes it)
      for (const kind of Object.keys(theirsOf(b)).filter((k) => !f.references!.includes(k))) {
        const record = await ownOf(kind);
        if (!record) continue;
        const type = typed ? { [typed.name]: f.references![0]!.slice(0, -1) } : {};
        const request = (x: string): Sent => target ? { body: { [f.name]: x, ...type } } : { ...base!, body: { ...base!.body, [f.name]: x, ...type } };
        const what = `${op.op} naming the team's own ${kind.slice(0, -1)} in ${f.name}`;
        const { theirs, differences } = await compareWithMissing(c, [String(record.id)], ([x]) =>
          send(c, live, { id: target && String(target.id), sent: request(x!) }));
        // §1 and §4 word how a missing record is reported, not the message that names it: the
        // status and the error code are held to the missing reference's, the wording read
        const held = differences.filter((d) => d.startsWith('status ') || d.startsWith('body error.code:'));
        if (held.length) fail(`${what} is answered otherwise than a missing reference: ${held.join('; ')}`, theirs);
        if (differences.length > held.length) c.reading(`isolation.other-kind-reference ${op.op}.${f.name}`, 'refused in other words than a missing reference');
        // answered as a missing reference is, 2xx included: the target does not check this reference at all
        if (is2xx(theirs)) {
          c.reading(`isolation.other-kind-reference ${op.op}.${f.name}`, 'a missing reference is accepted as well');
          // the record as the accepted PATCHes left it is what later refusals must keep
          if (target) before = await observe(views);
          continue;
        }
        if (target) await expectUnchanged(c, before, `${what} answered ${theirs.status}`);
        else await expectNotMade(c, live, request(String(record.id)).body, `${what} answered ${theirs.status}`);
      }
    }
  }, { ...opts, cells: cellsOf(titles.otherTeamReference(op.op), op.op) });
}

/** No view of `op`'s resource shows a record holding the refused create's text. */
async function expectNotMade(c: CheckContext, op: Operation, body: Rec, what: string): Promise<void> {
  const text = textFieldOf(op)?.name;
  for (const view of text ? viewsMatching(c, op.resource, body, (i) => i[text] === body[text]) : []) {
    const seen = await view.read();
    if (seen.state === 'present') fail(`${what}, yet ${view.name} shows the record`, seen.res);
  }
}
