// Requests in flight together, on every write of the operation table, answered as if each ran alone:
// - two PATCHes of different fields of one record both persist (§4 "JSON subset of … fields": a
//   PATCH changes the fields it names, and only those; one that lands beside another loses nothing);
// - retries of one create sent together with one idempotency key make one record (§4 "Every
//   mutating endpoint takes an optional header `idempotency-key`"; Upload rule 2 "a retry replays
//   the original response"; §1 "so the caller can retry safely");
// - both teams writing at once keep isolation (§1 "Every record belongs to a team. A record that
//   belongs to another team is reported as missing"): each record is its writer's, shown to it in
//   every view and to the other team in none.
// A few requests each: enough to meet in a server's window between reading and writing.
import { randomInt, randomUUID } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import type { KeyName } from '../contract/settings.js';
import { operations } from '../specs/surface.js';
import { expectEveryView } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { ensure, expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { type Field, type Operation, servedOperations } from './harness/plan/operations.js';
import { markedText } from './harness/records.js';
import { bodyOf, copiesOf, createOf, made, patchTarget, send, type Sent, subjectOf, textFieldOf } from './harness/subjects.js';
import { echo, viewsOf } from './harness/views.js';
import { fieldFindingKey, writeConcern } from './harness/wrong-fields.js';

const live = (c: CheckContext, op: Operation) => servedOperations(c.settings).find((o) => o.op === op.op)!;

/** Fields of a §3 transition (a stage change, closing, archiving): not changed by a check of plain fields. */
const TRANSITIONS = new Set(['status', 'stage', 'stage_id', 'stage_key', 'close_reason', 'close_reason_category']);

/** Two plain top-level fields a PATCH can set to a fresh value: free text first, then numbers. */
function twoFields(op: Operation): Field[] {
  const plain = op.fields.filter((f) =>
    f.path === f.name && f.name !== 'id' && !TRANSITIONS.has(f.name) && !f.references && !f.enum && !f.examples && !f.format && !/_(at|date)$/.test(f.name)
  );
  const text = plain.filter((f) => f.types.includes('string') && !f.types.includes('array') && !f.types.includes('object'));
  const numbers = plain.filter((f) => f.types.includes('number') || f.types.includes('integer'));
  const first = textFieldOf(op);
  const ordered = [...(first ? [first] : []), ...text.filter((f) => f.name !== first?.name), ...numbers];
  return ordered.slice(0, 2);
}

const freshValue = (c: CheckContext, f: Field) => (f.types.includes('string') ? `${markedText(c)} ${f.name}` : 100 + randomInt(1_000_000));

for (const op of operations().filter((o) => o.kind === 'patch' && o.body)) {
  check([
    'EP-PATCH-PERSISTS',
    'EP-PATCH-PARTIAL',
  ], `concurrency: two ${op.op} of different fields of one record, sent together, both persist in every view`, async (c) => {
    const w = live(c, op);
    const fields = twoFields(w);
    if (fields.length < 2) return c.skip(`${w.op} names fewer than two plain fields`);
    const before = await patchTarget(c, w);
    const values = fields.map((f) => freshValue(c, f));
    const answers = await Promise.all(fields.map((f, i) => send(c, w, { id: String(before.id), sent: { body: { [f.name]: values[i] } } })));
    answers.forEach((res, i) => expectStatus(res, '2xx', `${w.op} of ${fields[i]!.name}, sent beside one of ${fields[1 - i]!.name}`));
    // each as its own answer shows it: text may come back in another Unicode normal form (§2 shows none)
    const shown = fields.map((f, i) => (answers[i]!.body as Rec | undefined)?.[f.name]);
    fields.forEach((f, i) =>
      ensure(echo(f.name, values[i], shown[i]) !== 'differs', `${w.op} of ${f.name} answered ${JSON.stringify(shown[i])}, not what it sent`, answers[i],
        writeConcern(fieldFindingKey(w.resource, f.name), { resource: w.resource, field: f.name }))
    );
    const expected: Rec = { id: before.id, ...Object.fromEntries(fields.map((f, i) => [f.name, shown[i]])) };
    await expectEveryView(c, viewsOf(c, await subjectOf(c, w.resource, before)), expected, `after ${w.op} of ${
      fields.map((f) => f.name).join(' and ')
    } together`);
  }, { mutates: true });
}

/** Whether a listed record is one made of `sent` (its marked text, or an upload's name and size). */
function madeOf(op: Operation, sent: Sent): (i: Rec) => boolean {
  const text = textFieldOf(op)?.name;
  if (text && typeof sent.body[text] === 'string') return (i) => i[text] === sent.body[text];
  if (sent.file) return (i) => i.filename === sent.file!.filename && i.size === sent.file!.size;
  return () => false;
}

for (const op of operations().filter((o) => o.kind === 'create' && o.record)) {
  check([
    'IDEM-REPLAY',
  ], `concurrency: three ${op.op} retries sent together with one idempotency key make one record`, async (c) => {
    const w = live(c, op);
    const sent = await bodyOf(c, w);
    const key = randomUUID();
    const answers = await Promise.all([0, 1, 2].map(() => send(c, w, { sent, idempotencyKey: key })));
    ensure(answers.some(is2xx), `no ${w.op} of the three succeeded`, answers[0]);
    const ids = new Set(answers.filter(is2xx).map((a) => String((a.body as Rec | undefined)?.id)));
    if (ids.size !== 1) fail(`three ${w.op} with one key answered ${ids.size} different records`, answers.find(is2xx));
    const record = answers.find(is2xx)!.body as Rec;
    const stored = await copiesOf(c, w.resource, { ...sent.body, ...record }, madeOf(w, sent));
    if (stored === undefined) c.reading(`concurrency.retries-count ${w.op}`, 'no view read whole');
    else if (stored > 1) fail(`three ${w.op} with one key answered one record, but ${stored} are listed`, answers.find(is2xx));
    c.reading(`concurrency.retries-statuses ${w.op}`, answers.map((a) => a.status).sort().join(','));
  }, { mutates: true });

  check([
    'ISO-LIST-OWN-TEAM-ONLY',
    'ISO-OTHER-TEAM-AS-MISSING',
  ], `concurrency: both teams' ${op.op} in flight together each make a record of the writer's team, shown to it and never to the other`, async (c) => {
    const w = live(c, op);
    const teams: KeyName[] = ['team', 'otherTeam', 'team', 'otherTeam'];
    const bodies = await Promise.all(teams.map((auth) => bodyOf(c, w, { auth })));
    const answers = await Promise.all(teams.map((auth, i) => send(c, w, { sent: bodies[i], auth })));
    for (const [i, res] of answers.entries()) {
      expectStatus(res, '2xx', `${w.op} as ${teams[i]}, beside the other team's`);
      const record = res.body as Rec;
      const subject = await subjectOf(c, w.resource, record, { auth: teams[i] });
      await expectEveryView(c, viewsOf(c, subject, teams[i]), { id: record.id }, `${w.op} as ${teams[i]}, made beside the other team's: its own views`);
      const other: KeyName = teams[i] === 'team' ? 'otherTeam' : 'team';
      await expectEveryView(c, viewsOf(c, subject, other), 'absent', `${w.op} as ${teams[i]}, made beside the other team's: the other team's views`);
    }
  }, { mutates: true, keys: ['otherTeam'] });
}

// Retries of a change to one record, sent together with one key: the request runs once. A retry
// answered while the first runs may be refused (the document says nothing of retries in flight),
// or replay the first answer; a second answer of its own (a PATCH answered anew, a DELETE that
// finds nothing left) is the request run again.
for (const op of operations().filter((o) => (o.kind === 'patch' || o.kind === 'delete') && o.record)) {
  check([
    'IDEM-REPLAY',
  ], `concurrency: three ${op.op} retries sent together with one idempotency key run once`, async (c) => {
    const w = live(c, op);
    if (w.kind === 'delete' && !createOf(c, w.resource)) return c.skip(`${w.op} would delete a pre-existing ${w.resource}`);
    const target = w.kind === 'delete' ? (await made(c, w.resource)).record : await patchTarget(c, w);
    const text = w.kind === 'patch' ? textFieldOf(w)?.name : undefined;
    if (w.kind === 'patch' && !text) return c.skip(`${w.op} names no free-text field to write`);
    const key = randomUUID();
    const body = text ? { sent: { body: { [text]: markedText(c) } } } : {};
    const answers = await Promise.all([0, 1, 2].map(() => send(c, w, { id: String(target.id), ...body, idempotencyKey: key })));
    c.reading(`concurrency.retries-statuses ${w.op}`, answers.map((a) => a.status).sort().join(','));
    ensure(answers.some(is2xx), `no ${w.op} of the three succeeded`, answers[0]);
    const done = answers.filter(is2xx);
    const again = done.find((a) => JSON.stringify(a.body) !== JSON.stringify(done[0]!.body));
    if (again) fail(`three ${w.op} with one key answered two different answers: the request ran again`, again);
    const missing = answers.find((a) => a.status === 404);
    if (missing) fail(`three ${w.op} of one record with one key: one answered 404, the request run again after the first`, missing);
  }, { mutates: true });
}

// --- every route: both teams' requests in flight together ------------------------------------

/** A record of `resource` the team owns: one the check makes, or the first its list shows (a resource no request creates). */
async function ownRecordOf(c: CheckContext, resource: string, auth: KeyName): Promise<Rec | undefined> {
  if (createOf(c, resource)) return (await made(c, resource, { auth })).record;
  const list = servedOperations(c.settings).find((o) => o.resource === resource && o.kind === 'list' && !o.filters.some((p) => p.required));
  if (!list) return undefined;
  const res = await send(c, list, { auth });
  return is2xx(res) ? ((res.body as { data?: Rec[]; } | undefined)?.data ?? [])[0] : undefined;
}

// Each route keeps its caller apart from the other team's request beside it: a server that holds
// the caller in state shared between requests (a module variable, a request-scoped object reused)
// serves one team's request as the other's. §1 "Every record belongs to a team. A record that
// belongs to another team is reported as missing": a team's own record is never reported missing,
// and a list never shows the other team's.
for (const op of operations().filter((o) => ['get', 'download', 'patch', 'delete', 'list'].includes(o.kind) && o.resource !== 'intake')) {
  check([
    'ISO-OTHER-TEAM-AS-MISSING',
    'ISO-LIST-OWN-TEAM-ONLY',
  ], `concurrency: both teams' ${op.op} in flight together are each served as the caller's team`, async (c) => {
    const w = live(c, op);
    const teams: KeyName[] = ['team', 'otherTeam', 'team', 'otherTeam'];
    if (w.kind === 'list') {
      // a list that needs filter values (an entity's attachments) is read for a record each team makes
      const required = w.filters.filter((p) => p.required).map((p) => p.name);
      const queries: Record<string, Record<string, string>> = { team: {}, otherTeam: {} };
      for (const auth of ['team', 'otherTeam'] as const) {
        if (!required.length) continue;
        if (!createOf(c, w.resource)) return c.skip(`${w.op} needs a filter value of each team, and no request makes a record of ${w.resource}`);
        const { record, sent } = await made(c, w.resource, { auth });
        queries[auth] = Object.fromEntries(required.map((f) => [f, String(record[f] ?? sent.body[f] ?? '')]));
      }
      const list = (auth: KeyName) => c.api.send({ method: 'GET', path: w.path, query: queries[auth] ?? {}, auth });
      // what each team's list shows alone first: beside the other team's request, it shows none of the
      // other's, and its own still (a request served as the other team's shows that team's or nothing)
      // one after the other: alone
      const alone: Set<string>[] = [];
      for (const auth of ['team', 'otherTeam'] as const) {
        const res = await list(auth);
        expectStatus(res, '2xx', `${w.op} as ${auth}`);
        alone.push(new Set(((res.body as { data?: Rec[]; }).data ?? []).map((i) => String(i.id))));
      }
      const answers = await Promise.all(teams.map((auth) => list(auth)));
      for (const [i, res] of answers.entries()) {
        expectStatus(res, '2xx', `${w.op} as ${teams[i]}, beside the other team's`);
        const [own, others] = teams[i] === 'team' ? [alone[0]!, alone[1]!] : [alone[1]!, alone[0]!];
        const shown = ((res.body as { data?: Rec[]; }).data ?? []).map((r) => String(r.id));
        const stray = shown.find((id) => others.has(id));
        if (stray) {
          fail(`${w.op} as ${teams[i]}, beside the other team's, shows the other team's ${stray}`, res, { requirement: 'ISO-LIST-OWN-TEAM-ONLY' });
        }
        if (own.size > 0 && !shown.some((id) => own.has(id))) {
          fail(`${w.op} as ${teams[i]}, beside the other team's, shows none of the ${own.size} records it shows alone`, res, {
            requirement: 'ISO-OTHER-TEAM-AS-MISSING',
          });
        }
      }
      return;
    }
    // a resource no request creates is changed or deleted only as a pre-existing record: not here
    if ((w.kind === 'patch' || w.kind === 'delete') && !createOf(c, w.resource)) return c.skip(`${w.op} would change pre-existing ${w.resource}`);
    const records = await Promise.all(teams.map((auth) => ownRecordOf(c, w.resource, auth)));
    if (records.some((r) => !r)) return c.skip(`no record of ${w.resource} for each team`);
    const text = w.kind === 'patch' ? textFieldOf(w)?.name : undefined;
    if (w.kind === 'patch' && !text) return c.skip(`${w.op} names no free-text field to write`);
    const answers = await Promise.all(
      teams.map((auth, i) => send(c, w, { id: String(records[i]!.id), auth, ...(text ? { sent: { body: { [text]: markedText(c) } } } : {}) })),
    );
    for (const [i, res] of answers.entries()) {
      const what = `${w.op} of its own record as ${teams[i]}, beside the other team's`;
      if (!is2xx(res)) fail(`${what} answered ${res.status}`, res, { requirement: 'ISO-OTHER-TEAM-AS-MISSING' });
      const id = (res.body as Rec | undefined)?.id;
      if ((w.kind === 'get' || w.kind === 'patch') && id !== records[i]!.id) {
        fail(`${what} answered record ${String(id)}, not ${String(records[i]!.id)}`, res, { requirement: 'ISO-OTHER-TEAM-AS-MISSING' });
      }
    }
  }, { mutates: true, keys: ['otherTeam'] });
}
