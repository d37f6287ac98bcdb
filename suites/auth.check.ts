// §5 Authentication: every endpoint needs the bearer header; without it, with a malformed one or an
// unknown key the answer is 4xx with no data and nothing changes; a read-only key cannot mutate;
// a plan without API access answers the plan-limit error.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import { operations } from '../specs/surface.js';
import { expectUnchanged, observe } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { ensure, expectStatus, fail, step } from './harness/judge/assert.js';
import { errorCode, expectErrorEnvelope, expectResource } from './harness/judge/problems.js';
import { type Operation, requestTo, servedOperations } from './harness/plan/operations.js';
import { aProject, createAssignmentFixture, markedText, marker, testFile, uploadAttachment, uploadFile } from './harness/records.js';
import { setup, shared } from './harness/setup.js';
import { bodyOf, createOf, made, patchTarget, referenceTo, send, subjectOf, textFieldOf } from './harness/subjects.js';
import { randomId, teamB } from './harness/team-b.js';
import { alteredKey, type ApiRequest, type ApiResponse, type Auth, type KeyAlteration } from './harness/transport/client.js';
import { viewsOf } from './harness/views.js';

/**
 * A file and an attachment of the run (the attachment only when the download path is set) for
 * the reads by id: with a random id, a route that skips authentication answers 404 like a refusal.
 */
const uploads = shared('a file and an attachment of team A to read', async (c: CheckContext): Promise<{ file: Rec; attachment?: Rec; }> => {
  const f = await uploadFile(c, testFile(c, 8));
  expectStatus(f, '2xx', 'POST /files');
  const file = expectResource(f, 'file');
  if (!c.settings.paths.attachmentDownload) return { file };
  const { employee } = await createAssignmentFixture(c);
  const a = await uploadAttachment(c, { type: 'employee', id: String(employee.id) }, testFile(c, 8));
  expectStatus(a, '2xx', 'POST /attachments');
  return { file, attachment: expectResource(a, 'attachment') };
});

/** One request per shown endpoint, aimed at records of the run, so a served request would succeed. */
async function endpoints(c: CheckContext): Promise<(ApiRequest & { name: string; mutates: boolean; })[]> {
  const { project, employee, assignment } = await createAssignmentFixture(c);
  const stored = await uploads(c);
  const s = c.settings.paths;
  const file = testFile(c, 8);
  const list: (ApiRequest & { name: string; mutates: boolean; })[] = [
    { name: 'GET /projects', method: 'GET', path: '/projects', mutates: false },
    { name: 'GET /projects/{id}', method: 'GET', path: `/projects/${project.id}`, mutates: false },
    { name: 'PATCH /projects/{id}', method: 'PATCH', path: `/projects/${project.id}`, json: {}, mutates: true },
    { name: 'GET /assignments', method: 'GET', path: '/assignments', mutates: false },
    { name: 'GET /assignments/{id}', method: 'GET', path: `/assignments/${assignment.id}`, mutates: false },
    {
      name: 'POST /assignments',
      method: 'POST',
      path: '/assignments',
      json: { employee_id: employee.id, project_id: project.id, role: marker(c) },
      mutates: true,
    },
    { name: 'PATCH /assignments/{id}', method: 'PATCH', path: `/assignments/${assignment.id}`, json: { role: 'unauthorized' }, mutates: true },
    { name: 'DELETE /assignments/{id}', method: 'DELETE', path: `/assignments/${assignment.id}`, mutates: true },
    { name: 'POST /employees', method: 'POST', path: '/employees', json: { first_name: marker(c) }, mutates: true },
    { name: 'PATCH /employees/{id}', method: 'PATCH', path: `/employees/${employee.id}`, json: { last_name: 'unauthorized' }, mutates: true },
    { name: 'GET /organizations', method: 'GET', path: '/organizations', mutates: false },
    { name: 'create organization', method: s.organizationCreate.method, path: s.organizationCreate.path, json: { name: marker(c) }, mutates: true },
    { name: 'GET /cvs', method: 'GET', path: '/cvs', mutates: false },
    { name: 'GET /attachments', method: 'GET', path: '/attachments', query: { entity_type: 'employee', entity_id: String(employee.id) }, mutates: false },
    {
      name: 'POST /attachments',
      method: 'POST',
      path: '/attachments',
      upload: { fields: { entity_type: 'employee', entity_id: String(employee.id) }, file },
      mutates: true,
    },
    { name: 'DELETE /attachments/{id}', method: 'DELETE', path: `/attachments/${crypto.randomUUID()}`, mutates: true },
    { name: 'POST /files', method: 'POST', path: '/files', upload: { fields: {}, file }, mutates: true },
    { name: 'GET /files/{id}', method: 'GET', path: `/files/${stored.file.id}`, mutates: false },
  ];
  if (s.attachmentDownload && stored.attachment) {
    list.push({
      name: 'attachment download',
      method: s.attachmentDownload.method,
      path: s.attachmentDownload.path.replace('{id}', String(stored.attachment.id)),
      mutates: false,
    });
  }
  if (s.fileDelete) {
    list.push({ name: 'file delete', method: s.fileDelete.method, path: s.fileDelete.path.replace('{id}', crypto.randomUUID()), mutates: true });
  }
  return list;
}

/** 4xx, and nothing that looks like a resource or a page. */
function expectRefused(res: ApiResponse, what: string): void {
  expectStatus(res, '4xx', what);
  const body = res.body as Rec | undefined;
  if (body && typeof body === 'object' && ('data' in body || 'id' in body)) fail(`${what}: a refused request returned data`, res);
}

async function unchanged(c: CheckContext, assignment: Rec): Promise<void> {
  const res = await c.api.send({ method: 'GET', path: `/assignments/${assignment.id}` });
  expectStatus(res, '2xx', 'the assignment after refused requests');
  ensure((res.body as Rec).role === assignment.role, 'a refused PATCH changed the assignment', res);
}

/** The reads refused above answer the team's key: the refusals were the key's, not a missing record's. */
async function readableWithTheKey(c: CheckContext, eps: Awaited<ReturnType<typeof endpoints>>): Promise<void> {
  await setup("the reads refused without the team's key answer with it", async () => {
    for (const ep of eps.filter((e) => !e.mutates)) expectStatus(await c.api.send({ ...ep, auth: 'team' }), '2xx', `${ep.name} with the team key`);
  });
}

async function refusedEverywhere(c: CheckContext, auth: Auth, label: string): Promise<void> {
  const eps = await endpoints(c);
  const statuses = new Set<number>();
  for (const ep of eps) {
    const res = await c.api.send({ ...ep, auth });
    expectRefused(res, `${ep.name} ${label}`);
    statuses.add(res.status);
  }
  c.reading(`auth.status ${label}`, [...statuses].sort().join(','));
  await readableWithTheKey(c, eps);
  const { assignment } = await createAssignmentFixture(c);
  const patched = await c.api.send({ method: 'PATCH', path: `/assignments/${assignment.id}`, json: { role: 'x' }, auth });
  expectRefused(patched, `PATCH ${label}`);
  const del = await c.api.send({ method: 'DELETE', path: `/assignments/${assignment.id}`, auth });
  expectRefused(del, `DELETE ${label}`);
  await unchanged(c, assignment);
}

check([
  'AUTH-BEARER-REQUIRED',
], 'every endpoint without Authorization answers 4xx with no data and changes nothing', async (c) => {
  await refusedEverywhere(c, 'none', 'without Authorization');
}, { mutates: true });

check([
  'AUTH-INVALID-KEY-NOT-SERVED',
], 'an unknown key, another scheme and an empty bearer token answer 4xx with no data', async (c) => {
  const unknown = `mock_${randomBytes(32).toString('base64url')}`;
  await refusedEverywhere(c, { authorization: `Bearer ${unknown}` }, 'with an unknown key');
  const eps = await endpoints(c);
  for (const authorization of [`Basic ${Buffer.from('user:pass').toString('base64')}`, 'Bearer ', 'Bearer', `Token ${unknown}`, `Bearer ${unknown} extra`]) {
    for (const ep of eps) {
      expectRefused(await c.api.send({ ...ep, auth: { authorization } }), `${ep.name} with Authorization: ${authorization.split(' ')[0]} …`);
    }
  }
  const key = c.settings.keys.team!;
  expectRefused(await c.api.send({ method: 'GET', path: '/projects', auth: { authorization: `Basic ${key}` } }),
    'GET /projects with the key under another scheme');
}, { mutates: true });

check([
  'AUTH-READ-ONLY-KEY-NO-WRITE',
], 'the read-only key reads but cannot mutate', async (c) => {
  const eps = await endpoints(c);
  for (const ep of eps) {
    const res = await c.api.send({ ...ep, auth: 'readOnly' });
    if (ep.mutates) expectRefused(res, `${ep.name} with the read-only key`);
    else expectStatus(res, '2xx', `${ep.name} with the read-only key`);
  }
  const { assignment } = await createAssignmentFixture(c);
  expectRefused(await c.api.send({ method: 'DELETE', path: `/assignments/${assignment.id}`, auth: 'readOnly' }), 'DELETE with the read-only key');
  await unchanged(c, assignment);
}, { mutates: true, keys: ['readOnly'] });

check([
  'AUTH-PLAN-NO-API-ACCESS',
  'LIMIT-PLAN-ERROR-FIELDS',
], 'a key whose plan lacks API access gets the plan-limit error (feature api_access)', async (c) => {
  // project and organization lists may answer the short envelope in the legacy shape (§7): not these
  for (const path of ['/assignments', '/cvs', `/files/${crypto.randomUUID()}`]) {
    const res = await c.api.send({ method: 'GET', path, auth: 'noApiAccess' });
    expectRefused(res, `GET ${path} with the no-API-access key`);
    const body = expectErrorEnvelope(res, 'the plan-limit error').error as Rec;
    ensure(body.feature === 'api_access', `error.feature is ${JSON.stringify(body.feature)}, not api_access`, res);
    ensure(typeof body.plan === 'string', 'error.plan is missing', res);
    for (const f of ['current', 'limit']) if (f in body) ensure(typeof body[f] === 'number', `error.${f} is not a number`, res);
    c.reading('plan-limit.status', String(res.status));
    c.reading('plan-limit.code', String(errorCode(res)));
  }
}, { keys: ['noApiAccess'] });

/** What a refusal shows of itself: its status, its code and the names of its body's fields (values vary: request ids, timings). */
const refusalOf = (res: ApiResponse) => `${res.status} ${errorCode(res) ?? '-'} {${Object.keys((res.body as Rec | undefined) ?? {}).sort().join(',')}}`;

/** A record of the team for each route by id (made through its create, or a project), team B's of the same resource, and none. */
async function idsOf(c: CheckContext, op: Operation): Promise<Record<'own' | 'other team' | 'missing', string> | undefined> {
  const own = createOf(c, op.resource) ? (await made(c, op.resource)).record : op.resource === 'projects' ? await aProject(c) : undefined;
  const theirs = (await teamB(c) as unknown as Record<string, Rec | undefined>)[op.resource.replace(/s$/, '')];
  if (!own || !theirs) return undefined;
  return { own: String(own.id), 'other team': String(theirs.id), missing: randomId() };
}

for (const op of operations().filter((o) => o.path.includes('{id}'))) {
  check([
    'AUTH-BEARER-REQUIRED',
    'ISO-OTHER-TEAM-NO-EXISTENCE-LEAK',
  ], `${op.op} without a key, or with an unknown one, is refused alike whether the id names a record of the team, of another team or none`, async (c) => {
    const w = servedOperations(c.settings).find((o) => o.op === op.op);
    if (!w) return c.skip(`${op.op} is not served at a known path`);
    const ids = await idsOf(c, w);
    if (!ids) return c.skip(`no record of ${w.resource} to name`);
    const unknown: Auth = { authorization: `Bearer mock_${randomBytes(32).toString('base64url')}` };
    for (const [label, auth] of [['without a key', 'none'], ['with an unknown key', unknown]] as const) {
      const answers = await Promise.all(Object.values(ids).map((id) => c.api.send({ ...requestTo(w, id), ...(w.kind === 'patch' ? { json: {} } : {}), auth })));
      for (const res of answers) expectRefused(res, `${w.op} ${label}`);
      const shown = answers.map(refusalOf);
      const names = Object.keys(ids);
      for (const [i, s] of shown.entries()) {
        if (s !== shown[2]) {
          fail(`${w.op} ${label} answered ${s} for an id of ${names[i]}, but ${shown[2]} for a missing one: the refusal tells whether the record exists`,
            answers[i]);
        }
      }
    }
  }, { mutates: true, keys: ['otherTeam'] });
}

// --- the key as sent, on every operation (specs/surface.ts) --------------------------------------

/** The operations a key is sent to here (the capture intake's refusals are intake.check.ts's). */
// §4 "All endpoints need the bearer header (section 5)": the endpoints of §4. The API description
// (the OpenAPI document of §9) is not one of them, and whether it needs a key is not shown: it may be
// served to anyone. The capture intake has its own refusal checks (intake.check.ts).
const keyed = () => operations().filter((o) => o.resource !== 'intake' && o.kind !== 'other');

/** A request of one operation, aimed at records of the run, which the team's key gets a 2xx for. */
interface Aimed {
  /** The request (a write: under `idempotencyKey` when given). */
  send: (auth: Auth, idempotencyKey?: string) => Promise<ApiResponse>;
  /** The record a PATCH changes. */
  record?: Rec;
}

/** A record of the team `op` reads by id: made through its resource's create, or a project of the team. */
async function recordOf(c: CheckContext, op: Operation): Promise<Rec> {
  if (createOf(c, op.resource)) return (await made(c, op.resource)).record;
  if (op.resource === 'projects') return aProject(c);
  return c.skip(`no record of ${op.resource} for ${op.op} to read`);
}

/** The required filters of a list, naming records of the team (an entity filter: the first kind the run can name, its type beside it). */
async function filtersOf(c: CheckContext, op: Operation): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of op.filters.filter((x) => x.required && x.references)) {
    const typed = op.filters.find((x) => x.name === `${f.name.slice(0, -3)}_type` && x.enum);
    for (const resource of f.references!) {
      const record = await referenceTo(c, resource).catch(() => undefined);
      if (!record) continue;
      out[f.name] = String(record.id);
      if (typed) out[typed.name] = resource.slice(0, -1);
      break;
    }
  }
  for (const f of op.filters.filter((x) => x.required && !(x.name in out))) out[f.name] = f.enum?.[0] ?? randomId();
  return out;
}

/** A request of `op` aimed at a record of the run: a create makes a new one, a DELETE deletes a new one, a PATCH changes one the run made. */
async function aimedAt(c: CheckContext, op: Operation): Promise<Aimed> {
  if (op.kind === 'list') {
    const query = await filtersOf(c, op);
    return { send: (auth) => c.api.send({ method: 'GET', path: op.path, query, auth }) };
  }
  if (op.kind === 'create') {
    const sent = await bodyOf(c, op);
    return { send: (auth, idempotencyKey) => send(c, op, { sent, auth, idempotencyKey }) };
  }
  if (op.kind === 'patch') {
    const record = await patchTarget(c, op);
    const field = textFieldOf(op)?.name;
    const sent = { body: field ? { [field]: `${markedText(c)} key` } : {} };
    return { record, send: (auth, idempotencyKey) => send(c, op, { id: String(record.id), sent, auth, idempotencyKey }) };
  }
  if (!op.path.includes('{id}')) return { send: (auth, idempotencyKey) => send(c, op, { auth, idempotencyKey }) };
  const record = await recordOf(c, op);
  return { send: (auth, idempotencyKey) => send(c, op, { id: String(record.id), auth, idempotencyKey }) };
}

const served = (c: CheckContext, op: Operation): Operation =>
  servedOperations(c.settings).find((o) => o.op === op.op)
    ?? c.skip(`${op.op} is not served here: its path is not shown by the document (set its CONFORMANCE_PATH_* setting)`);

const ALTERED: Record<KeyAlteration, string> = { case: 'its letter case changed', tail: 'its last character changed' };

for (const op of keyed()) {
  // §5 rule 1: "an API key sent as a bearer token". A bearer token is a credential string (RFC 6750
  // §2.1, b64token), matched as sent: the team's own key with its letter case changed, or with its
  // first characters kept and the last one changed, is another string, a key nobody was issued.
  check([
    'AUTH-INVALID-KEY-NOT-SERVED',
  ], `${op.op} with the team's own key altered (its letter case changed, its last character changed) is refused with no data, changing nothing`, async (c) => {
    const w = served(c, op);
    const key = c.settings.keys.team!;
    await setup(`${w.op} answers the team's key`, async () => {
      expectStatus(await (await aimedAt(c, w)).send('team'), '2xx', `${w.op} with the team's key`);
    });
    // one request for every altered key: refused, it leaves its record for the next (a served one has failed already)
    const aimed = await aimedAt(c, w);
    for (const alter of Object.keys(ALTERED) as KeyAlteration[]) {
      if (alteredKey(key, alter) === key) {
        c.reading(`auth.altered-key ${alter}`, `the team's key cannot be sent with ${ALTERED[alter]}`);
        continue;
      }
      const what = `${w.op} with the team's key, ${ALTERED[alter]}`;
      const before = aimed.record ? await observe(viewsOf(c, await subjectOf(c, w.resource, aimed.record))) : undefined;
      const res = await aimed.send({ key: 'team', alter });
      expectRefused(res, what);
      if (before) await expectUnchanged(c, before, `${what} answered ${res.status}`);
    }
  }, { mutates: op.method !== 'get' });

  if (op.method !== 'get') {
    // §4 "Every mutating endpoint takes an optional header `idempotency-key`": the key names a
    // request of the team that sent it, and is no credential (§4 "All endpoints need the bearer header")
    check([
      'AUTH-BEARER-REQUIRED',
      'AUTH-INVALID-KEY-NOT-SERVED',
    ], `${op.op} repeated under the idempotency key of the team's request, without a key or with an invalid one, is refused with no data`, async (c) => {
      const w = served(c, op);
      const aimed = await aimedAt(c, w);
      const key = randomUUID();
      await setup(`${w.op} with the team's key and a fresh idempotency key`, async () => {
        expectStatus(await aimed.send('team', key), '2xx', `${w.op} with the team's key and a fresh idempotency key`);
      });
      const unknown: Auth = { authorization: `Bearer mock_${randomBytes(32).toString('base64url')}` };
      const without: [Auth, string, string][] = [
        ['none', 'without Authorization', 'AUTH-BEARER-REQUIRED'],
        [unknown, 'with an unknown key', 'AUTH-INVALID-KEY-NOT-SERVED'],
        [{ key: 'team', alter: 'tail' }, `with the team's key, ${ALTERED.tail}`, 'AUTH-INVALID-KEY-NOT-SERVED'],
      ];
      for (const [auth, label, requirement] of without) {
        await step(requirement, async () => expectRefused(await aimed.send(auth, key), `${w.op} repeated under its idempotency key ${label}`));
      }
    }, { mutates: true });
  }

  // §5 rule 1 names the scheme `Bearer` and says nothing of its spelling; HTTP does: "It uses a
  // case-insensitive token to identify the authentication scheme" (RFC 9110 §11.1).
  check([
    'AUTH-BEARER-HEADER',
  ], `${op.op} serves the team's key under the scheme spelled in any letter case (bearer, BEARER) as under Bearer`, async (c) => {
    const w = served(c, op);
    let aimed: Aimed | undefined;
    for (const scheme of ['bearer', 'BEARER']) {
      // a DELETE served deletes its record: the next one is aimed at another
      if (!aimed || w.kind === 'delete') aimed = await aimedAt(c, w);
      const res = await aimed.send({ key: 'team', scheme });
      expectStatus(res, '2xx', `${w.op} with Authorization: ${scheme} $CONFORMANCE_API_KEY`);
    }
  }, { mutates: op.method !== 'get' });
}
