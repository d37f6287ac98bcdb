// Model-based runs over a team's whole state: random sequences of every create, PATCH and DELETE
// the operation table offers (harness/operations.ts), each sent with an idempotency key of its
// own, mixed with retries of the last request with its key, requests of the other team with that
// key, and requests aimed at the other team's records or naming them. A model of the team's
// records says what each must answer; after every step the records it touched are read through
// every view of their resource and must agree with the model. The cost is bounded by the
// settings (CONFORMANCE_STATEFUL_RUNS runs of at most CONFORMANCE_STATEFUL_STEPS steps), never by
// the deployment's size: lists are read within the walk budget.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import { collectionOf, type RecordKind } from '../specs/registry.js';
import { expectEveryView, ownFields } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { expectStatus, fail, is2xx, step } from './harness/judge/assert.js';
import { expectResource } from './harness/judge/problems.js';
import { type Operation, recordKind, servedOperations } from './harness/plan/operations.js';
import { modelCommands, property } from './harness/property.js';
import { filledBody } from './harness/records.js';
import { bodyOf, patchTarget, send, type Sent, shownOf } from './harness/subjects.js';
import { type TeamB, teamB } from './harness/team-b.js';
import type { ApiResponse } from './harness/transport/client.js';
import { canonical, disagreements, echoes, type RecordSubject, type View, viewsOf } from './harness/views.js';
import { fieldFindingKey, notAsSent, replayFindingKey, writeConcern, writeKindOf } from './harness/wrong-fields.js';

/**
 * A record of the team as the model knows it: as last answered. Every view of it is derived from
 * the model's one state (expectedOf), never from a copy taken elsewhere.
 */
interface Known {
  resource: string;
  record: Rec;
}

/** The last change sent: what a retry sends again, and what it must answer. */
interface LastWrite {
  op: Operation;
  id?: string;
  sent?: Sent;
  key: string;
  answer: ApiResponse;
  touched: string[];
}

interface Model {
  live: Map<string, Known>;
  gone: Map<string, Known>;
  last?: LastWrite;
}

interface Real {
  c: CheckContext;
  b: TeamB;
  /** Team B's records as they were before the run: a request aimed at them must leave them so. */
  theirs: Map<string, Rec>;
}

type Cmd = fc.AsyncCommand<Model, Real>;

/** Stamped by the server on any write (§2 lists them; their rules are not shown). */
const WRITE_STAMPS = ['updated_at', 'last_activity_at'];
const pick = <T>(items: readonly T[], n: number): T | undefined => items[n % Math.max(items.length, 1)];
const liveOf = (m: Readonly<Model>, resources: readonly string[]) => [...m.live.entries()].filter(([, k]) => resources.includes(k.resource));
const opOf = (c: CheckContext, resource: string, kind: Operation['kind']) =>
  servedOperations(c.settings).find((o) => o.resource === resource && o.kind === kind);

/**
 * What every view must show of a known record: the record as last answered, with each copy of
 * another known record it embeds (an assignment's `employee`, named by `employee_id`) derived from
 * that record's current state in the model, not from the copy answered when it was last written.
 */
function expectedOf(m: Readonly<Model>, id: string, depth = 0): Rec {
  const record = { ...m.live.get(id)!.record };
  if (depth > 2) return record;
  for (const [key, v] of Object.entries(record)) {
    const ref = record[`${key}_id`];
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof ref === 'string' && m.live.has(ref)) record[key] = expectedOf(m, ref, depth + 1);
  }
  return record;
}

/** The subject of a known record: a record only shown embedded is shown by the known records that embed it. */
function subjectOf(m: Readonly<Model>, id: string, k: Known): RecordSubject {
  const embeddedIn: Record<string, Rec[]> = {};
  for (const p of m.live.values()) {
    for (const [key, v] of Object.entries(p.record)) if (key.endsWith('_id') && v === id) (embeddedIn[p.resource] ??= []).push(p.record);
  }
  return { resource: k.resource, record: k.record, embeddedIn };
}

/**
 * The requirement of a view the check is tagged with: a view that disagrees with the model fails
 * the rule of the step and the view's own, the two a client cannot tell apart.
 */
const VIEW_RULES: Record<string, string> = {
  'GET /assignments/{id}': 'EP-ASSIGNMENTS-GET',
  'GET /files/{id}': 'EP-FILES-GET',
};
const viewRule = (view: View): string | undefined =>
  VIEW_RULES[view.name] ?? (view.filters && 'employee_id' in view.filters ? 'LIST-FILTER-EMPLOYEE-ID' : undefined);

/** Every view of every record the step touched agrees with the model: a known record as the model derives it, a deleted one nowhere. */
async function agree(m: Readonly<Model>, r: Real, touched: readonly string[], what: string, rule: readonly string[]): Promise<void> {
  const each = async (views: readonly View[], expected: Rec | 'absent', ignore?: readonly string[]) => {
    for (const view of views) {
      const own = viewRule(view);
      await step(own ? [...rule, own] : rule, () => expectEveryView(r.c, [view], expected, what, ignore));
    }
  };
  for (const id of new Set(touched)) {
    const live = m.live.get(id);
    const gone = m.gone.get(id);
    if (live) await each(viewsOf(r.c, subjectOf(m, id, live)), expectedOf(m, id), WRITE_STAMPS);
    else if (gone) await each(viewsOf(r.c, { resource: gone.resource, record: gone.record }), 'absent');
  }
}

// The rule each step checks: its failure fails that requirement alone (and a view's own, agree()).
const CREATE_RULE = ['EP-CREATE-PERSISTS'];
const DELETE_RULE = ['EP-DELETE-GONE'];
const RETRY_RULE = ['IDEM-REPLAY'];
const OTHER_TEAM_KEY_RULE = ['ISO-IDEMPOTENCY-PER-TEAM'];
const FOREIGN_RULE = ['ISO-MUTATE-OTHER-TEAM-NO-EFFECT'];
/** A PATCH persists (§4); an organization's is its endpoint's rule, an employee's is_active the §3 state's. */
function patchRule(resource: string, field: string | undefined): string[] {
  if (resource === 'employees' && field === 'is_active') return ['STATE-EMPLOYEE-IS-ACTIVE'];
  return resource === 'organizations' ? ['EP-PATCH-PERSISTS', 'EP-ORGANIZATIONS-PATCH'] : ['EP-PATCH-PERSISTS'];
}

/** The fields a PATCH step writes: not references, nor the state fields whose writes §3 leaves open. */
const writableOf = (op: Operation) =>
  op.fields.filter((f) =>
    !f.references && f.name !== 'id' && f.items !== 'unknown'
    && !['status', 'archived_at', 'closed_at', 'close_reason', 'close_reason_category'].includes(f.name)
  );

/** The record ids a record names (an assignment's employee: its embedded copy changes with it). */
const named = (record: Rec) => Object.entries(record).filter(([k, v]) => k.endsWith('_id') && typeof v === 'string').map(([, v]) => String(v));

class Create implements Cmd {
  constructor(readonly resource: string) {}
  check = () => true;
  run = (m: Model, r: Real) => step(CREATE_RULE, () => this.runStep(m, r));
  async runStep(m: Model, r: Real) {
    const op = opOf(r.c, this.resource, 'create')!;
    const sent = await bodyOf(r.c, op);
    // a reference to a record the model knows, when it knows one of that resource
    for (const f of op.fields.filter((x) => x.references && x.name in sent.body)) {
      const known = liveOf(m, f.references!)[0];
      if (known && !op.fields.some((x) => x.name === `${f.name.slice(0, -3)}_type`)) sent.body[f.name] = known[0];
    }
    const key = randomUUID();
    const res = await send(r.c, op, { sent, idempotencyKey: key });
    expectStatus(res, '2xx', op.op);
    const shown = shownOf(op, sent);
    const record = expectResource(res, recordKind(op)!, { what: `${op.op} answer`, reads: Object.keys(shown) });
    // a field shown otherwise than sent is that field's finding; the model keeps what was answered
    notAsSent(res, echoes(shown, record).differs, shown, record, { resource: op.resource, write: writeKindOf(op) });
    const id = String(record.id);
    m.live.set(id, { resource: this.resource, record });
    m.last = { op, sent, key, answer: res, touched: [id, ...named(record)] };
    await agree(m, r, m.last.touched, `after ${op.op}`, CREATE_RULE);
  }
  toString = () => `create(${this.resource})`;
}

class Patch implements Cmd {
  constructor(readonly resource: string, readonly n: number, readonly field: number, readonly seed: number) {}
  check = (m: Readonly<Model>) => liveOf(m, [this.resource]).length > 0;
  async run(m: Model, r: Real) {
    const op = opOf(r.c, this.resource, 'patch')!;
    const [id] = pick(liveOf(m, [this.resource]), this.n)!;
    const rule = patchRule(this.resource, this.fieldOf(r));
    await step(rule, () => this.runStep(m, r, op, id, rule));
  }
  private fieldOf(r: Real): string | undefined {
    return pick(writableOf(opOf(r.c, this.resource, 'patch')!), this.field)?.name;
  }
  private async runStep(m: Model, r: Real, op: Operation, id: string, rule: readonly string[]) {
    const f = pick(writableOf(op), this.field)!;
    const body = { [f.name]: filledBody(r.c, op.op, this.seed)[f.name] };
    const key = randomUUID();
    const res = await send(r.c, op, { id, sent: { body }, idempotencyKey: key });
    expectStatus(res, '2xx', `${op.op} ${f.name}`);
    const record = expectResource(res, recordKind(op)!, { what: `${op.op} answer`, reads: [f.name] });
    notAsSent(res, echoes(body, record).differs, body, record, { resource: op.resource, write: writeKindOf(op) });
    const changed = ownFields(res, op.resource, disagreements(expectedOf(m, id), record, [f.name, ...WRITE_STAMPS]), expectedOf(m, id), record);
    if (changed.length) {
      fail(`${op.op} ${f.name} also changed ${changed.join(', ')}`, res,
        writeConcern(fieldFindingKey(op.resource, changed[0]!), { resource: op.resource, field: changed[0]! }, 'EP-PATCH-PARTIAL'));
    }
    m.live.set(id, { resource: this.resource, record });
    m.last = { op, id, sent: { body }, key, answer: res, touched: [id, ...named(record)] };
    await agree(m, r, m.last.touched, `after ${op.op} ${f.name}`, rule);
  }
  toString = () => `patch(${this.resource}, ${this.n}, field ${this.field}, seed ${this.seed})`;
}

class Delete implements Cmd {
  constructor(readonly resource: string, readonly n: number) {}
  check = (m: Readonly<Model>) => liveOf(m, [this.resource]).length > 0;
  run = (m: Model, r: Real) => step(DELETE_RULE, () => this.runStep(m, r));
  async runStep(m: Model, r: Real) {
    const op = opOf(r.c, this.resource, 'delete')!;
    const [id, known] = pick(liveOf(m, [this.resource]), this.n)!;
    const key = randomUUID();
    const res = await send(r.c, op, { id, idempotencyKey: key });
    expectStatus(res, '2xx', op.op);
    m.live.delete(id);
    m.gone.set(id, known);
    m.last = { op, id, key, answer: res, touched: [id, ...named(known.record)] };
    await agree(m, r, m.last.touched, `after ${op.op}`, DELETE_RULE);
  }
  toString = () => `delete(${this.resource}, ${this.n})`;
}

/** The last change sent again with its key: the first answer replayed, nothing changed. */
class Retry implements Cmd {
  check = (m: Readonly<Model>) => m.last !== undefined;
  run = (m: Model, r: Real) => step(RETRY_RULE, () => this.runStep(m, r));
  async runStep(m: Model, r: Real) {
    const last = m.last!;
    const again = await send(r.c, last.op, { id: last.id, sent: last.sent, idempotencyKey: last.key });
    const same = again.status === last.answer.status && canonical(again.body ?? null) === canonical(last.answer.body ?? null);
    if (!same) {
      fail(`${last.op.op} sent again with its key answered ${again.status}, not a replay of the first answer (${last.answer.status})`, again, {
        finding: replayFindingKey(last.op.op),
        requirement: RETRY_RULE,
      });
    }
    await agree(m, r, last.touched, `after ${last.op.op} was retried with its key`, RETRY_RULE);
  }
  toString = () => 'retryLast()';
}

/** The other team creates a record of its own with the key of this team's last change: its own record, or refused. */
class OtherTeamKey implements Cmd {
  check = (m: Readonly<Model>) => m.last !== undefined;
  run = (m: Model, r: Real) => step(OTHER_TEAM_KEY_RULE, () => this.runStep(m, r));
  async runStep(m: Model, r: Real) {
    const op = servedOperations(r.c.settings).find((o) => o.kind === 'create' && o.resource === 'employees');
    if (!op) return;
    const res = await send(r.c, op, { sent: await bodyOf(r.c, op, { auth: 'otherTeam' }), auth: 'otherTeam', idempotencyKey: m.last!.key });
    const id = (res.body as Rec | undefined)?.id;
    if (is2xx(res) && (m.live.has(String(id)) || m.gone.has(String(id)) || id === (m.last!.answer.body as Rec | undefined)?.id)) {
      fail(`the other team's ${op.op} with this team's key was answered with this team's record ${String(id)}`, res);
    }
    await agree(m, r, m.last!.touched, `after the other team used this team's key`, OTHER_TEAM_KEY_RULE);
  }
  toString = () => 'otherTeamKey()';
}

/** A PATCH of the other team's record of a resource, or of one of this team's records naming another team's record: refused, nothing changed. */
class Foreign implements Cmd {
  constructor(readonly resource: string, readonly n: number, readonly viaReference: boolean) {}
  check = (m: Readonly<Model>) => !this.viaReference || liveOf(m, [this.resource]).length > 0;
  run = (m: Model, r: Real) => step(FOREIGN_RULE, () => this.runStep(m, r));
  async runStep(m: Model, r: Real) {
    const op = opOf(r.c, this.resource, 'patch')!;
    const text = op.fields.find((f) => f.types.includes('string') && !f.references && !f.examples && !f.format && !f.enum);
    if (this.viaReference) {
      const [id] = pick(liveOf(m, [this.resource]), this.n)!;
      const ref = op.fields.find((f) => f.references?.some((x) => r.theirs.has(x)));
      if (!ref) return;
      const theirs = r.theirs.get(ref.references!.find((x) => r.theirs.has(x))!)!;
      const res = await send(r.c, op, { id, sent: { body: { [ref.name]: theirs.id } } });
      if (is2xx(res)) fail(`${op.op} naming another team's record in ${ref.name} was accepted`, res);
      await agree(m, r, [id], `after ${op.op} naming another team's record answered ${res.status}`, FOREIGN_RULE);
      return;
    }
    const theirs = r.theirs.get(this.resource);
    if (!theirs || !text) return;
    const res = await send(r.c, op, { id: String(theirs.id), sent: { body: { [text.name]: `intruder ${randomUUID().slice(0, 8)}` } } });
    if (is2xx(res)) fail(`${op.op} of another team's record answered ${res.status}`, res);
    const views = viewsOf(r.c, { resource: this.resource, record: theirs }, 'otherTeam');
    await expectEveryView(r.c, views, theirs, `after ${op.op} of another team's record answered ${res.status}`, WRITE_STAMPS);
  }
  toString = () => `foreign(${this.resource}, ${this.n}, ${this.viaReference ? 'reference' : 'record'})`;
}

/** Resources in the order their creates can name each other: a resource another's create references comes first. */
function byReference(ops: readonly Operation[], resources: readonly string[]): string[] {
  const refs = (res: string) =>
    new Set(ops.filter((o) => o.resource === res && o.kind === 'create').flatMap((o) => o.fields.flatMap((f) => f.references ?? [])));
  const out: string[] = [];
  const visit = (res: string, path: string[]) => {
    if (out.includes(res) || path.includes(res)) return;
    for (const r of refs(res)) if (resources.includes(r)) visit(r, [...path, res]);
    out.push(res);
  };
  for (const res of resources) visit(res, []);
  return out;
}

/**
 * The steps every run starts with, whatever the seed: each kind of step on every resource, so that
 * what a bug needs to show (a record embedded in another, a PATCH of it read through every view, a
 * retry of a create, a PATCH and a DELETE, the other team's key, the other team's records) is
 * examined on every run; the seed varies only the values (which field, which body). A record a
 * create names is created and PATCHed before the record naming it, so the embedding record is
 * then read after the record it embeds has changed. Random steps follow.
 */
function prefixOf(ops: readonly Operation[], r: { creatable: string[]; patchable: string[]; deletable: string[]; foreign: string[]; }): fc.Arbitrary<Cmd[]> {
  const creatable = byReference(ops, r.creatable);
  const patchable = byReference(ops, r.patchable);
  const values = fc.array(fc.tuple(fc.nat(), fc.nat({ max: 1_000_000 })), { minLength: patchable.length, maxLength: patchable.length });
  return values.map((drawn): Cmd[] => [
    ...creatable.map((res) => new Create(res)),
    new Retry(),
    new OtherTeamKey(),
    ...patchable.map((res, i) => new Patch(res, 0, drawn[i]![0], drawn[i]![1])),
    new Retry(),
    ...r.foreign.flatMap((res) => [new Foreign(res, 0, false), new Foreign(res, 0, true)]),
    ...r.deletable.map((res) => new Delete(res, 0)),
    new Retry(),
    new OtherTeamKey(),
  ]);
}

check([
  'EP-CREATE-PERSISTS',
  'EP-PATCH-PERSISTS',
  'EP-DELETE-GONE',
  'IDEM-REPLAY',
  'ISO-MUTATE-OTHER-TEAM-NO-EFFECT',
  'ISO-IDEMPOTENCY-PER-TEAM',
  'LIST-FILTER-EMPLOYEE-ID',
  'EP-ASSIGNMENTS-GET',
  'EP-FILES-GET',
  'EP-ORGANIZATIONS-PATCH',
  'STATE-EMPLOYEE-IS-ACTIVE',
], "model-based: random creates, PATCHes, DELETEs, retries with their key, the other team's key and its records agree with a model of the team in every view",
  async (c) => {
    const ops = servedOperations(c.settings);
    const b = await teamB(c);
    // team B's records as they are (read with its key where a GET shows them, as the fixture answered otherwise)
    const theirs = new Map<string, Rec>(Object.entries(b).map(([kind, record]) => [collectionOf(kind as RecordKind), record as Rec]));
    const fresh = await c.api.send({ method: 'GET', path: `/assignments/${b.assignment.id}`, auth: 'otherTeam' });
    if (is2xx(fresh)) theirs.set('assignments', fresh.body as Rec);
    const creatable = [...new Set(ops.filter((o) => o.kind === 'create' && o.fields.length).map((o) => o.resource))];
    const patchable = [...new Set(ops.filter((o) => o.kind === 'patch' && creatable.includes(o.resource)).map((o) => o.resource))];
    const deletable = [...new Set(ops.filter((o) => o.kind === 'delete' && creatable.includes(o.resource)).map((o) => o.resource))];
    const foreign = patchable.filter((res) => theirs.has(res));
    // projects cannot be created: the model starts from a scratch project, when one is set aside
    const start = ops.some((o) => o.resource === 'projects' && o.kind === 'patch') && c.settings.scratchProjects.length
      ? await patchTarget(c, ops.find((o) => o.resource === 'projects' && o.kind === 'patch')!)
      : undefined;
    const commands = [
      fc.constantFrom(...creatable).map((res) => new Create(res)),
      fc.tuple(fc.constantFrom(...patchable, ...(start ? ['projects'] : [])), fc.nat(), fc.nat(), fc.nat({ max: 1_000_000 })).map(([res, n, f, s]) =>
        new Patch(res, n, f, s)
      ),
      ...(deletable.length ? [fc.tuple(fc.constantFrom(...deletable), fc.nat()).map(([res, n]) => new Delete(res, n))] : []),
      fc.constant(new Retry()),
      fc.constant(new OtherTeamKey()),
      ...(foreign.length ? [fc.tuple(fc.constantFrom(...foreign), fc.nat(), fc.boolean()).map(([res, n, ref]) => new Foreign(res, n, ref))] : []),
    ];
    const prefix = prefixOf(ops, { creatable, patchable: [...patchable, ...(start ? ['projects'] : [])], deletable, foreign });
    const run = fc.tuple(prefix, modelCommands(commands, { maxCommands: c.settings.statefulSteps, size: 'max' }));
    await property(run, async ([first, cmds]) => {
      // the scratch project as it is now: an earlier run changed it
      const project = start ? expectResource(await c.api.send({ method: 'GET', path: `/projects/${start.id}` }), 'project') : undefined;
      const model: Model = { live: new Map(project ? [[String(project.id), { resource: 'projects', record: project }]] : []), gone: new Map() };
      await fc.asyncModelRun(() => ({ model, real: { c, b, theirs } }), [...first, ...cmds]);
    }, { numRuns: c.settings.statefulRuns, timeLimitMs: 60_000 });
  }, { mutates: true, keys: ['otherTeam'], timeout: 180_000 });
