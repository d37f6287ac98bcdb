// §4 "Every mutating endpoint takes an optional header idempotency-key": a retry with the same key
// and body replays the first response and creates one record; concurrent retries create one.
import { randomUUID } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import type { PathSetting } from '../contract/settings.js';
import { EXTENSION_SETTINGS, operations } from '../specs/surface.js';
import { expectEveryView } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { expectSameBytes } from './harness/downloads.js';
import { type Concerning, ensure, expectStatus, fail, failDiffering, is2xx } from './harness/judge/assert.js';
import { differencesOf } from './harness/judge/differences.js';
import { expectErrorEnvelope, expectPage, expectResource } from './harness/judge/problems.js';
import { exercised, titles } from './harness/plan/cells.js';
import { type Operation, operationNamed, recordKind } from './harness/plan/operations.js';
import { cellsOf } from './harness/plan/table.js';
import {
  aProject,
  attachmentsOf,
  createEmployee,
  markedText,
  marker,
  postAssignment,
  postOrganization,
  testFile,
  uploadAttachment,
  uploadFile,
} from './harness/records.js';
import { bodyOf, copiesOf, createOf, made, patchTarget, send, shownOf, siblings, subjectOf, textFieldOf } from './harness/subjects.js';
import { teamB } from './harness/team-b.js';
import type { ApiResponse } from './harness/transport/client.js';
import { canonical, echoes, viewsOf } from './harness/views.js';
import { lists, walk, walkWithin } from './harness/walk.js';
import { notAsSent, replayFindingKey, writeKindOf } from './harness/wrong-fields.js';

async function assignmentsOf(c: CheckContext, employeeId: unknown): Promise<Rec[]> {
  return (await walk(c, { ...lists.assignments, query: { employee_id: String(employeeId) } }, { limit: 100 })).items;
}

/** The body as compared between a request and its replay: keys in any order (a stored response may come back reordered), request_id aside. */
const withoutVolatile = (body: unknown) => canonical(JSON.parse(JSON.stringify(body ?? null, (k, v) => (k === 'request_id' ? undefined : v))));

/** A replay of `first`: the same status and body. */
const replays = (again: ApiResponse, first: ApiResponse) => again.status === first.status && withoutVolatile(again.body) === withoutVolatile(first.body);
const bodyOfAnswer = (res: ApiResponse): unknown => JSON.parse(JSON.stringify(res.body ?? null, (k, v) => (k === 'request_id' ? undefined : v)));
/** Fails unless `again` replays `first`: what differs leads (status, then the body's fields by path). */
function expectReplays(again: ApiResponse, first: ApiResponse, what: string, concerning?: Concerning): void {
  if (replays(again, first)) return;
  const status = again.status === first.status ? [] : [{ path: 'status', got: String(again.status), expected: String(first.status) }];
  failDiffering(what, [...status, ...differencesOf(bodyOfAnswer(again), bodyOfAnswer(first), 'body')], again, concerning);
}

check([
  'IDEM-HEADER-ACCEPTED',
], 'each mutating endpoint succeeds without the header and with a fresh idempotency-key', async (c) => {
  const project = await aProject(c);
  for (const key of [undefined, randomUUID()]) {
    const employee = await c.api.send({ method: 'POST', path: '/employees', json: { first_name: marker(c) }, ...(key ? { idempotencyKey: key } : {}) });
    expectStatus(employee, '2xx', `POST /employees ${key ? 'with' : 'without'} idempotency-key`);
    const emp = expectResource(employee, 'employee');
    c.ledger.keep('employee', String(emp.id));
    const patchE = await c.api.send({
      method: 'PATCH',
      path: `/employees/${emp.id}`,
      json: { last_name: 'Idem' },
      ...(key ? { idempotencyKey: randomUUID() } : {}),
    });
    expectStatus(patchE, '2xx', 'PATCH /employees/{id}');
    const assignment = await postAssignment(c, { employee_id: emp.id, project_id: project.id }, 'team', key ? randomUUID() : undefined);
    expectStatus(assignment, '2xx', 'POST /assignments');
    const aid = expectResource(assignment, 'assignment').id;
    expectStatus(
      await c.api.send({ method: 'PATCH', path: `/assignments/${aid}`, json: { role: marker(c) }, ...(key ? { idempotencyKey: randomUUID() } : {}) }),
      '2xx',
      'PATCH /assignments/{id}',
    );
    const org = await postOrganization(c, {}, 'team', key ? randomUUID() : undefined);
    expectStatus(org, '2xx', 'create organization');
    expectStatus(
      await c.api.send({
        method: 'PATCH',
        path: `/organizations/${expectResource(org, 'organization').id}`,
        json: { notes: marker(c) },
        ...(key ? { idempotencyKey: randomUUID() } : {}),
      }),
      '2xx',
      'PATCH /organizations/{id}',
    );
    await c.ledger.before('projects', project);
    expectStatus(await c.api.send({ method: 'PATCH', path: `/projects/${project.id}`, json: {}, ...(key ? { idempotencyKey: randomUUID() } : {}) }), '2xx',
      'PATCH /projects/{id} {}');
    const del = await c.api.send({ method: 'DELETE', path: `/assignments/${aid}`, ...(key ? { idempotencyKey: randomUUID() } : {}) });
    expectStatus(del, '2xx', 'DELETE /assignments/{id}');
    c.ledger.gone(String(aid));
  }
}, { mutates: true });

check([
  'IDEM-REPLAY',
], 'POST /assignments twice with one key and body: the same status and body, one record', async (c) => {
  const project = await aProject(c);
  const employee = await createEmployee(c);
  const key = randomUUID();
  const body = { employee_id: employee.id, project_id: project.id };
  const first = await postAssignment(c, body, 'team', key);
  expectStatus(first, '2xx', 'first POST /assignments');
  const second = await postAssignment(c, body, 'team', key);
  ensure(second.status === first.status, `the retry answered ${second.status}, the first ${first.status}`, second);
  expectReplays(second, first, 'the retry answered another body than the first request');
  const records = await assignmentsOf(c, employee.id);
  ensure(records.length === 1, `${records.length} assignments exist after a replayed create`);
}, { mutates: true });

check([
  'IDEM-REPLAY',
], 'POST /employees twice with one key and body replays the first employee', async (c) => {
  const key = randomUUID();
  const body = { first_name: `${marker(c)} ${key.slice(0, 8)}` };
  const first = await c.api.send({ method: 'POST', path: '/employees', json: body, idempotencyKey: key });
  expectStatus(first, '2xx', 'first POST /employees');
  c.ledger.keep('employee', String((first.body as Rec).id));
  const second = await c.api.send({ method: 'POST', path: '/employees', json: body, idempotencyKey: key });
  ensure(second.status === first.status && (second.body as Rec)?.id === (first.body as Rec).id, 'the retry did not replay the first employee', second);
}, { mutates: true });

check([
  'IDEM-REPLAY',
], 'a reused key with a different body is refused (or replays the first answer) and creates no second record', async (c) => {
  const project = await aProject(c);
  const employee = await createEmployee(c);
  const key = randomUUID();
  const first = await postAssignment(c, { employee_id: employee.id, project_id: project.id, role: 'first' }, 'team', key);
  expectStatus(first, '2xx', 'first POST /assignments');
  const second = await postAssignment(c, { employee_id: employee.id, project_id: project.id, role: 'second' }, 'team', key);
  // §4 shows no status for a JSON request reusing a key (422 only for uploads): a refusal or a replay
  const replay = replays(second, first);
  if (!replay) expectStatus(second, '4xx', 'a reused key with another body');
  c.reading('idempotency.reused-key-other-body', replay ? 'replays the first answer' : String(second.status));
  // The refusal leaves the key as it was: the first request, sent again, still replays.
  const third = await postAssignment(c, { employee_id: employee.id, project_id: project.id, role: 'first' }, 'team', key);
  expectReplays(third, first, `after the refused reuse, the first request sent again answered ${third.status}, not a replay of the first answer`);
  const records = await assignmentsOf(c, employee.id);
  ensure(records.length === 1, `${records.length} assignments exist after a reused key`);
}, { mutates: true });

/** Every create, sent four times at once with one key and body: every answer names the same record. */
const concurrentCreates: {
  name: string;
  send(c: CheckContext, key: string): Promise<ApiResponse>;
  count?(c: CheckContext, answers: ApiResponse[]): Promise<number>;
}[] = [
  {
    name: 'POST /employees',
    send: (c, key) => c.api.send({ method: 'POST', path: '/employees', json: { first_name: `${marker(c)} ${key.slice(0, 8)}` }, idempotencyKey: key }),
  },
  {
    name: 'create organization',
    send: (c, key) => postOrganization(c, { name: `${marker(c)} ${key}` }, 'team', key),
    // Every answer may name one record while each request created its own: count them in the list (searched by the unique name).
    count: async (c, answers) => {
      const name = (answers.find(is2xx)?.body as Rec | undefined)?.name;
      const walked = await walkWithin(c, { ...lists.organizations, query: { q: String(name) } }, { limit: 100 });
      return walked.items.filter((o) => o.name === name).length;
    },
  },
  { name: 'POST /files', send: (c, key) => uploadFile(c, testFile(c, 512, 77), { idempotencyKey: key }) },
];

for (const create of concurrentCreates) {
  check([
    'IDEM-REPLAY',
  ], `concurrent ${create.name} with one key answer one record`, async (c) => {
    const key = randomUUID();
    const answers = await Promise.all([0, 1, 2, 3].map(() => create.send(c, key)));
    for (const a of answers.filter(is2xx)) if (create.name === 'POST /employees') c.ledger.keep('employee', String((a.body as Rec).id));
    ensure(answers.some(is2xx), 'no concurrent request succeeded', answers[0]);
    const ids = new Set(answers.filter(is2xx).map((a) => (a.body as Rec)?.id));
    if (ids.size !== 1) fail(`4 concurrent ${create.name} with one key answered ${ids.size} different records`, answers.find(is2xx));
    const stored = await create.count?.(c, answers);
    // None found: the search did not find it (q's matching is not shown), which proves nothing.
    if (stored === 0) c.reading(`idempotency.concurrent-count ${create.name}`, 'not found by q');
    if (stored !== undefined && stored > 1) fail(`4 concurrent ${create.name} with one key answered one record, but ${stored} exist`, answers.find(is2xx));
    c.reading(`idempotency.concurrent-statuses ${create.name}`, answers.map((a) => a.status).join(','));
  }, { mutates: true });
}

check([
  'IDEM-REPLAY',
], 'concurrent POST /attachments with one key answer one record, and one is listed', async (c) => {
  const entity = { type: 'employee', id: String((await createEmployee(c)).id) };
  const key = randomUUID();
  const file = testFile(c, 512, 78);
  const answers = await Promise.all([0, 1, 2, 3].map(() => uploadAttachment(c, entity, file, { idempotencyKey: key })));
  ensure(answers.some(is2xx), 'no concurrent request succeeded', answers[0]);
  const listed = expectPage(await attachmentsOf(c, entity), 'attachment').data;
  if (listed.length !== 1) fail(`${listed.length} attachments exist after 4 concurrent uploads with one key`, answers.find(is2xx));
}, { mutates: true });

check([
  'IDEM-REPLAY',
], 'concurrent requests with one key create one record', async (c) => {
  const project = await aProject(c);
  const employee = await createEmployee(c);
  const key = randomUUID();
  const body = { employee_id: employee.id, project_id: project.id };
  const answers = await Promise.all([0, 1, 2, 3].map(() => postAssignment(c, body, 'team', key)));
  ensure(answers.some(is2xx), 'no concurrent request succeeded', answers[0]);
  const records = await assignmentsOf(c, employee.id);
  if (records.length !== 1) fail(`${records.length} assignments exist after 4 concurrent requests with one key`, answers.find(is2xx));
  c.reading('idempotency.concurrent-statuses', answers.map((a) => a.status).join(','));
}, { mutates: true });

check([
  'UPLOAD-IDEM-REPLAY',
], 'POST /files and POST /attachments retried with one key and the same file replay the first answer, one record', async (c) => {
  const entity = { type: 'employee', id: String((await createEmployee(c)).id) };
  const file = testFile(c, 4096);
  for (const send of [(k: string) => uploadFile(c, file, { idempotencyKey: k }), (k: string) => uploadAttachment(c, entity, file, { idempotencyKey: k })]) {
    const key = randomUUID();
    const first = await send(key);
    expectStatus(first, '2xx', 'first upload');
    const second = await send(key);
    ensure(second.status === first.status, `the retry answered ${second.status}, the first ${first.status}`, second);
    expectReplays(second, first, 'the retry answered another body than the first upload');
  }
  const listed = expectPage(await attachmentsOf(c, entity), 'attachment').data;
  ensure(listed.length === 1, `${listed.length} attachments exist after a replayed upload`);
}, { mutates: true });

check([
  'UPLOAD-IDEM-DIFFERENT-FILE-422',
  'ERR-IDEM-DIFFERENT-FILE',
], 'an upload retried with one key and different bytes answers 422 with an error envelope, creating nothing', async (c) => {
  const entity = { type: 'employee', id: String((await createEmployee(c)).id) };
  for (
    const send of [
      (k: string, seed: number) => uploadFile(c, testFile(c, 4096, seed), { idempotencyKey: k }),
      (k: string, seed: number) => uploadAttachment(c, entity, testFile(c, 4096, seed), { idempotencyKey: k }),
    ]
  ) {
    const key = randomUUID();
    const first = await send(key, 1);
    expectStatus(first, '2xx', 'first upload');
    const second = await send(key, 2);
    expectStatus(second, 422, 'a retry with the same key and another file');
    expectErrorEnvelope(second, 'the 422 body');
    // The refusal leaves no trace: the first file, sent again with the key, still replays its answer.
    const third = await send(key, 1);
    expectReplays(third, first, `after the 422, the first file sent again answered ${third.status}, not a replay of the first answer`);
  }
  const listed = expectPage(await attachmentsOf(c, entity), 'attachment').data;
  ensure(listed.length === 1, `${listed.length} attachments exist after a refused retry`);
  // ... and the stored bytes are still the first file's.
  if (c.settings.paths.attachmentDownload) await expectSameBytes(c, listed[0]!.id, testFile(c, 4096, 1));
}, { mutates: true });

// --- every mutating operation (harness/plan/table.ts retries) -----------------------------------------

/**
 * The operations the retry checks are declared for: every mutating one the document shows, and
 * those at paths a target supplies (the capture intake deduplicates on its own: intake.check.ts).
 */
const retried = operations().filter((o) => o.method !== 'get' && o.resource !== 'intake');
const needsOf = (op: string): PathSetting[] => (op in EXTENSION_SETTINGS ? [EXTENSION_SETTINGS[op as keyof typeof EXTENSION_SETTINGS]] : []);

/** The text a request writes and its field: what tells one request's record, or change, from another's. */
function marked(c: CheckContext, op: Operation): { field: string; value: string; } | undefined {
  const f = textFieldOf(op);
  return f ? { field: f.name, value: markedText(c) } : undefined;
}

/**
 * A mutating operation sent again with the key of its first request. §4 gives every mutating
 * endpoint the key and says of uploads that "a retry replays the original response"; nothing
 * sets DELETE apart, so its retry replays too: the same status and body (a 404 would tell a client
 * whose first answer was lost that the delete failed). What must not happen, whatever a retry
 * answers: a second record (a create), a change made since undone (a PATCH applied again), a
 * record beside the deleted one gone, or the deleted one back.
 */
const retriedOnce = (op: Operation) => async (c: CheckContext): Promise<void> => {
  const live = operationNamed(c.settings, op.op)!;
  exercised({ dimension: 'retries', subject: op.op, aspect: 'same key' });
  const key = randomUUID();
  const again = async (first: ApiResponse, sendIt: () => Promise<ApiResponse>, what: string) => {
    const second = await sendIt();
    if (!replays(second, first)) {
      // one cause per operation whichever check retried it (harness/wrong-fields.ts replayFindingKey)
      expectReplays(second, first, `${what} sent again with the same key answered ${second.status}, not a replay of the first answer (${first.status})`, {
        finding: replayFindingKey(op.op),
        requirement: op.multipart ? 'UPLOAD-IDEM-REPLAY' : 'IDEM-REPLAY',
      });
    }
  };
  if (live.kind === 'create') {
    const sent = await bodyOf(c, live);
    const first = await send(c, live, { sent, idempotencyKey: key });
    expectStatus(first, '2xx', `${op.op} with a fresh key`);
    await again(first, () => send(c, live, { sent, idempotencyKey: key }), op.op);
    // one record: where the resource is listed by what the body names, one record has the body's text
    const text = textFieldOf(live)?.name ?? (live.multipart ? 'filename' : undefined);
    const value = text === 'filename' ? sent.file?.filename : text ? sent.body[text] : undefined;
    if (text && value !== undefined) {
      const n = await copiesOf(c, live.resource, sent.body, (i) => i[text] === value);
      if (n === undefined) c.reading(`idempotency.retry-count.${op.op}`, 'not counted: no view lists it whole within the page budget');
      else if (n > 1) fail(`${op.op} sent twice with one key made ${n} records`, first);
    }
    return;
  }
  if (live.kind === 'patch') {
    const target = await patchTarget(c, live);
    const text = marked(c, live);
    if (!text) return c.skip(`${op.op} has no free-text field to tell two changes apart`);
    const first = await send(c, live, { id: String(target.id), sent: { body: { [text.field]: text.value } }, idempotencyKey: key });
    expectStatus(first, '2xx', `${op.op} with a fresh key`);
    // a later change without the key, then the retry: a replay answers the first answer and changes nothing
    const later = markedText(c);
    const mid = await send(c, live, { id: String(target.id), sent: { body: { [text.field]: later } } });
    expectStatus(mid, '2xx', `${op.op} without a key`);
    await again(first, () => send(c, live, { id: String(target.id), sent: { body: { [text.field]: text.value } }, idempotencyKey: key }), op.op);
    await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, mid.body as Rec)), { id: target.id, [text.field]: (mid.body as Rec)[text.field] },
      `after ${op.op} retried with its key, the change made since`);
    return;
  }
  const [target, sibling] = await siblings(c, live.resource);
  const first = await send(c, live, { id: String(target.id), idempotencyKey: key });
  expectStatus(first, '2xx', `${op.op} with a fresh key`);
  await again(first, () => send(c, live, { id: String(target.id), idempotencyKey: key }), op.op);
  await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, target)), 'absent', `after ${op.op} and its retry`);
  await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, sibling)), sibling, `after ${op.op} and its retry, the record beside it`, [
    'updated_at',
  ]);
};
const retryOpts = (op: Operation) => ({ mutates: true, needs: needsOf(op.op), cells: cellsOf(titles.retry(op.op), op.op) });

for (const op of retried.filter((o) => o.multipart)) {
  check([
    'UPLOAD-IDEM-REPLAY',
  ], titles.retry(op.op), retriedOnce(op), retryOpts(op));
}

for (const op of retried) {
  if (!op.multipart) {
    check([
      'IDEM-REPLAY',
    ], titles.retry(op.op), retriedOnce(op), retryOpts(op));
  }

  check([
    'ISO-IDEMPOTENCY-PER-TEAM',
  ], titles.otherTeamKey(op.op), async (c) => {
    const live = operationNamed(c.settings, op.op)!;
    exercised({ dimension: 'retries', subject: op.op, aspect: 'other team key' });
    const key = randomUUID();
    const b = await teamB(c);
    // team A uses the key on its own record
    let mine: ApiResponse;
    if (live.kind === 'create') mine = await send(c, live, { sent: await bodyOf(c, live), idempotencyKey: key });
    else if (live.kind === 'patch') {
      const target = await patchTarget(c, live);
      const text = marked(c, live);
      mine = await send(c, live, { id: String(target.id), sent: { body: text ? { [text.field]: text.value } : {} }, idempotencyKey: key });
    } else mine = await send(c, live, { id: String((await siblings(c, live.resource))[0].id), idempotencyKey: key });
    expectStatus(mine, '2xx', `${op.op} with a fresh key`);
    // team B sends its own request with the same key: processed as its own, or refused (how far a key reaches is not shown)
    const refusedOr = (theirs: ApiResponse): boolean => {
      if (theirs.status >= 500) fail(`${op.op} by the other team with a key this team used answered ${theirs.status}`, theirs);
      if (is2xx(theirs)) return false;
      c.reading(`idempotency.key-reach ${op.op}`, `a key one team used is refused to the other with ${theirs.status}`);
      return true;
    };
    if (live.kind === 'create') {
      const sent = await bodyOf(c, live, { auth: 'otherTeam' });
      const theirs = await send(c, live, { sent, auth: 'otherTeam', idempotencyKey: key });
      if (refusedOr(theirs)) return;
      const got = expectResource(theirs, recordKind(live)!, `${op.op} answer`);
      if (got.id === (mine.body as Rec).id) fail(`the other team's ${op.op} with this team's key was answered with this team's record`, theirs);
      const shown = shownOf(live, sent);
      const { differs } = echoes(shown, got);
      // a field showing what this team sent is this team's answer replayed; any other is that field's own finding
      const replayed = differs.filter((k) => canonical(got[k]) === canonical((mine.body as Rec)[k]));
      if (replayed.length) fail(`the other team's ${op.op} with this team's key answered ${replayed.join(', ')} as this team sent them`, theirs);
      notAsSent(theirs, differs, shown, got, { resource: live.resource, write: writeKindOf(live) });
      return;
    }
    if (live.kind === 'patch') {
      // team B's own record; a pre-existing one (a project) gets the value it has, changing nothing
      const theirsTarget = createOf(c, live.resource)
        ? (await made(c, live.resource, { auth: 'otherTeam' })).record
        : await c.ledger.before('projects', b.project, { auth: 'otherTeam' });
      const text = marked(c, live);
      const body = text ? { [text.field]: createOf(c, live.resource) ? markedText(c) : theirsTarget[text.field] } : {};
      const theirs = await send(c, live, { id: String(theirsTarget.id), sent: { body }, auth: 'otherTeam', idempotencyKey: key });
      if (refusedOr(theirs)) return;
      const got = expectResource(theirs, recordKind(live)!, `${op.op} answer`);
      if (got.id !== theirsTarget.id) fail(`the other team's ${op.op} of its own record with this team's key answered record ${String(got.id)}`, theirs);
      const { differs } = echoes(body, got);
      // still the value it had: the request was not applied (taken for this team's retry); another
      // value is the field's own bug, one cause wherever it shows (harness/wrong-fields.ts)
      const kept = differs.filter((f) => canonical(got[f]) === canonical(theirsTarget[f]));
      if (kept.length) fail(`the other team's ${op.op} with this team's key was not applied: ${kept.join(', ')}`, theirs);
      notAsSent(theirs, differs, body, got, { resource: live.resource, write: writeKindOf(live) });
      return;
    }
    const [theirsTarget] = await siblings(c, live.resource, 'otherTeam');
    const theirs = await send(c, live, { id: String(theirsTarget.id), auth: 'otherTeam', idempotencyKey: key });
    if (refusedOr(theirs)) return;
    await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, theirsTarget, { auth: 'otherTeam' }), 'otherTeam'), 'absent',
      `after the other team's ${op.op} of its own record with this team's key answered ${theirs.status}`);
  }, { mutates: true, keys: ['otherTeam'], needs: needsOf(op.op), cells: cellsOf(titles.otherTeamKey(op.op), op.op) });
}
