// Every request field of every mutating operation, with every kind of value (§2 fields, §4
// payloads), over the table of harness/plan/table.ts: a create with every field filled — nested
// objects, arrays, text in every script — and one with only its required fields read back the
// same through every view; a PATCH of each field alone changes it and nothing else; each field
// sent as null where §2 does not type it nullable is refused leaving no trace; a value of another
// type is refused leaving no trace or applied alike in every view (the document does not say
// which: both are accepted and recorded); each
// listed value of an enumerated field is taken where a request takes it.
import type { Rec } from '../contract/json.js';
import { wrongTypeOf } from '../specs/arbitraries.js';
import { schema } from '../specs/index.js';
import { allFields, type Field, operations } from '../specs/surface.js';
import { expectEveryView } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { expectErrorEnvelope, expectResource } from './harness/judge/problems.js';
import { servedShape } from './harness/judge/shape.js';
import { type Cell, exercised, skippedCell, titles } from './harness/plan/cells.js';
import { type Operation, recordKind, requestTo, servedOperations } from './harness/plan/operations.js';
import { cellsOf, makeable } from './harness/plan/table.js';
import { filledBody } from './harness/records.js';
import { anotherReference, bodyOf, createOf, made, patchTarget, send, type Sent, shownOf, subjectOf, textFieldOf } from './harness/subjects.js';
import type { ApiResponse } from './harness/transport/client.js';
import { canonical, echoes, type RecordSubject, viewsMatching, viewsOf } from './harness/views.js';
import { fieldFindingKey, notAsSent, writeConcern, writeKindOf } from './harness/wrong-fields.js';

/** Stamped by the server on any write (§2 lists them; their rules are not shown). */
const WRITE_STAMPS = ['updated_at', 'last_activity_at'];
const show = (v: unknown) => JSON.stringify(v);

/** The operations the checks are declared for (the document's; an extension's path comes from the target, and none has fields). */
const ops = () => operations();

const cell = (op: string, f: Field | string, aspect: string): Cell => ({
  dimension: 'fields',
  subject: op,
  aspect: `${typeof f === 'string' ? f : f.path} ${aspect}`,
});
const viewCell = (op: string, name: string): Cell => ({ dimension: 'views', subject: op, aspect: name });

/** The table's cells of this check that are run (not reasoned), by aspect. */
function planned(c: CheckContext, title: string, op: string): Set<string> {
  return new Set(cellsOf(title, op)(c.settings).filter((p) => !p.reason).map((p) => p.aspect));
}

/**
 * The record shows what was sent: a field it shows otherwise fails; one it leaves out is a
 * reading (the document does not say which fields are always present, RES-INHERENT-FIELDS); text
 * in another Unicode normal form is a reading too.
 */
function expectEchoed(c: CheckContext, sent: Rec, got: Rec, res: ApiResponse, op: Operation, resource: string): string[] {
  const { absent, differs, normalized } = echoes(sent, got);
  // a field shown otherwise than sent is that field's finding, wherever it shows (harness/wrong-fields.ts)
  notAsSent(res, differs, sent, got, { resource, write: writeKindOf(op) });
  if (normalized.length) c.reading(`text.normal-form.${resource}`, `stored in another Unicode normal form: ${normalized.join(', ')}`);
  if (absent.length) c.reading(`fields.absent.${resource}`, absent.join(','));
  return absent;
}

/**
 * Whether the comparison of a sent record with what came back ran on a field cell: its top-level
 * field was sent and shown, and a `value X` cell's value is the one sent (a nested one: among the
 * items sent). View cells are marked by the views' own comparison.
 */
function compared(aspect: string, sent: Rec, got: Rec): boolean {
  const m = /^([^ \[]+)(?:\[\]\.([^ ]+))? (.+)$/.exec(aspect);
  if (!m || aspect.startsWith('GET') || aspect.startsWith('download')) return false;
  const [, top, nested, what] = m as unknown as [string, string, string | undefined, string];
  if (!(top in sent) || !(top in got)) return false;
  if (!what.startsWith('value ')) return true;
  const v = what.slice('value '.length);
  const values = nested ? (Array.isArray(sent[top]) ? (sent[top] as Rec[]).map((i) => i?.[nested]) : []) : [sent[top]].flat();
  return values.some((x) => x === v);
}

/** Marks the views of the subject as exercised for `op`, then compares every view with `expected`. */
async function everyView(c: CheckContext, op: string, subject: RecordSubject, expected: Rec | 'absent', what: string, ignore: readonly string[] = []) {
  const views = viewsOf(c, subject);
  for (const v of views) exercised(viewCell(op, v.surface ?? v.name));
  await expectEveryView(c, views, expected, what, ignore);
}

/**
 * A sent field the create answer left out, which a PATCH of the same value then shows: the create
 * dropped it (a field a deployment does not keep at all is left out of both: a reading).
 */
async function expectKeptOnCreate(c: CheckContext, op: Operation, record: Rec, absent: string[], sent: Rec, res: ApiResponse): Promise<void> {
  const patch = servedOperations(c.settings).find((o) => o.resource === op.resource && o.kind === 'patch');
  if (!patch || !absent.length) return;
  const probe = Object.fromEntries(absent.filter((k) => patch.fields.some((f) => f.name === k)).map((k) => [k, sent[k]]));
  if (!Object.keys(probe).length) return;
  const after = await send(c, patch, { id: String(record.id), sent: { body: probe } });
  if (!is2xx(after)) return;
  const shown = Object.keys(probe).filter((k) => k in (after.body as Rec));
  if (shown.length) fail(`${op.op} left out ${shown.join(', ')}, which a PATCH of the same value then shows: the create dropped them`, res);
}

// --- creates -----------------------------------------------------------------------------------

for (const op of ops().filter((o) => o.kind === 'create' && o.fields.length)) {
  check([
    'EP-CREATE-PERSISTS',
  ], titles.createFilled(op.op), async (c) => {
    const live = createOf(c, op.resource)!;
    const { record, res, sent } = await made(c, op.resource);
    const shown = shownOf(live, sent);
    const run = planned(c, titles.createFilled(op.op), op.op);
    const absent = expectEchoed(c, shown, record, res, live, op.resource);
    await expectKeptOnCreate(c, live, record, absent, sent.body, res);
    await everyView(c, op.op, await subjectOf(c, op.resource, record), record, `after ${op.op}`, WRITE_STAMPS);
    // a cell is checked once its comparison ran: the field was sent and shown (one left out is a reading), with the value it names
    for (const aspect of run) if (compared(aspect, shown, record)) exercised({ dimension: 'fields', subject: op.op, aspect });
  }, { mutates: true, cells: cellsOf(titles.createFilled(op.op), op.op) });

  check([
    'EP-CREATE-PERSISTS',
  ], titles.createRequired(op.op), async (c) => {
    const live = createOf(c, op.resource)!;
    const sent = await bodyOf(c, live, { required: true });
    const { record, res } = await made(c, op.resource, { sent });
    const marked = textFieldOf(live)?.name;
    for (const f of allFields(live.fields).filter((x) => !x.required && !x.path.includes('[]'))) {
      if (f.name === marked) skippedCell(cell(op.op, f, 'omitted'), 'sent always: it carries the run id every record left behind is named with');
      else exercised(cell(op.op, f, 'omitted'));
    }
    expectEchoed(c, shownOf(live, sent), record, res, live, op.resource);
    await everyView(c, op.op, await subjectOf(c, op.resource, record), record, `after ${op.op} with only its required fields`, WRITE_STAMPS);
  }, { mutates: true, cells: cellsOf(titles.createRequired(op.op), op.op) });
}

// --- patches -----------------------------------------------------------------------------------

/**
 * The other end of a range a field is one end of (`agreed_rate_min` of `agreed_rate_max`,
 * `start_date` of `end_date`): a deployment may insist that a range does not run backwards.
 */
function rangePartner(name: string): { partner: string; end: 'low' | 'high'; } | undefined {
  const pairs: [RegExp, string, string][] = [[/_min$/, '_min', '_max'], [/start_date$/, 'start_date', 'end_date']];
  for (const [re, low, high] of pairs) {
    if (re.test(name)) return { partner: name.replace(low, high), end: 'low' };
    if (name.endsWith(high)) return { partner: name.replace(high, low), end: 'high' };
  }
  return undefined;
}

/** A value of a range's end on the right side of the other end the record holds. */
function withinRange(name: string, v: unknown, record: Rec): unknown {
  const r = rangePartner(name);
  const other = r ? record[r.partner] : undefined;
  if (!r || other === undefined || other === null) return v;
  if (typeof v === 'number' && typeof other === 'number') return r.end === 'low' ? Math.max(0, Math.min(v, other - 0.01)) : Math.max(v, other + 0.01);
  if (typeof v === 'string' && typeof other === 'string' && /^\d{4}-\d\d-\d\d$/.test(v)) {
    const shift = (d: string, days: number) => new Date(Date.parse(d.slice(0, 10)) + days * 86_400_000).toISOString().slice(0, 10);
    return r.end === 'low' ? (v < other.slice(0, 10) ? v : shift(other, -1)) : (v > other.slice(0, 10) ? v : shift(other, 1));
  }
  return v;
}

/**
 * A valid value of the field other than the one the record holds, on the right side of its range:
 * a few draws, then the draw changed by hand (a PATCH of the value the record already holds proves
 * nothing); undefined when the field takes no other value (one listed value, a boolean pinned by a range).
 */
function otherValue(c: CheckContext, op: Operation, f: Field, record: Rec, n: number): unknown {
  const current = record[f.name];
  const differs = (v: unknown) => v !== undefined && canonical(v) !== canonical(current);
  let last: unknown;
  for (let i = 0; i < 5; i += 1) {
    last = withinRange(f.name, filledBody(c, op.op, c.target.seed + 31 * n + 977 * i)[f.name], record);
    if (differs(last)) return last;
  }
  const listed = [...(f.enum ?? []), ...(f.examples ?? [])].map((v) => listedAs(f, v)).find((v) => differs(v));
  if (listed !== undefined) return listed;
  const changed = changedValue(last ?? current);
  return differs(changed) ? withinRange(f.name, changed, record) : undefined;
}

/** A listed value as the field takes it: an array's values are its items'. */
const listedAs = (f: Field, v: string): unknown => (f.types.includes('array') && !f.types.includes('string') ? [v] : v);

/** A value of the same type as `v`, other than it: a string with a character more, a number moved, a boolean flipped, a date a day on. */
function changedValue(v: unknown): unknown {
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\d$/.test(v)) return new Date(Date.parse(v) + 86_400_000).toISOString().slice(0, 10);
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v)) return new Date(Date.parse(v) + 86_400_000).toISOString();
  if (typeof v === 'string' && /^https?:\/\//.test(v)) return `${v.replace(/\/$/, '')}/other`;
  if (typeof v === 'string' && v.includes('@')) return `other.${v}`;
  if (typeof v === 'string') return `${v} (changed)`;
  if (Array.isArray(v)) return v.length ? v.slice(0, -1) : undefined;
  return undefined;
}

/** The PATCH answered `after`: the named fields as sent, every other field of `before` as it was (write stamps aside). */
async function expectOnlyNamed(c: CheckContext, op: Operation, before: Rec, after: Rec, body: Rec, res: ApiResponse): Promise<void> {
  const what = `PATCH ${op.path} ${Object.keys(body).join(',')}`;
  // a copy embedded by reference (an assignment's employee) follows the reference the body names
  const named = (k: string) => k in body || `${k}_id` in body;
  const changed = Object.keys(before).filter((k) => !named(k) && !WRITE_STAMPS.includes(k) && k in after && canonical(before[k]) !== canonical(after[k]));
  if (changed.length) {
    fail(`${what} also changed fields it did not name: ${changed.map((k) => `${k} ${show(before[k])} → ${show(after[k])}`).join(', ')}`, res,
      writeConcern(fieldFindingKey(op.resource, changed[0]!), { resource: op.resource, field: changed[0]! }, 'EP-PATCH-PARTIAL'));
  }
  let gone = Object.keys(before).filter((k) => !named(k) && !(k in after));
  const get = servedOperations(c.settings).find((o) => o.resource === op.resource && o.kind === 'get');
  if (gone.length && get) {
    // an answer may show fewer fields than GET (a shape question): a field is dropped when GET lost it too
    const read = await c.api.send({ method: 'GET', path: get.path.replace('{id}', String(before.id)) });
    expectStatus(read, '2xx', `GET ${get.path}`);
    for (const k of gone.filter((f) => f in (read.body as Rec))) c.reading(`fields.absent.${op.resource}-patch-answer`, k);
    gone = gone.filter((k) => !(k in (read.body as Rec)));
  }
  if (gone.length) fail(`${what} dropped fields it did not name: ${gone.join(', ')}`, res);
}

for (const op of ops().filter((o) => o.kind === 'patch')) {
  check([
    'EP-PATCH-PERSISTS',
    'EP-PATCH-PARTIAL',
  ], titles.patchEach(op.op), async (c) => {
    const run = planned(c, titles.patchEach(op.op), op.op);
    let expected = await patchTarget(c, op);
    const moved: RecordSubject[] = [];
    // fields a PATCH naming another field was seen to keep (expectOnlyNamed compared them)
    const keptUnnamed = new Set<string>();
    let n = 0;
    for (const f of op.fields) {
      const aspects = [...run].filter((a) => (a.startsWith(`${f.path} `) || a.startsWith(`${f.path}[].`)) && !a.endsWith(' kept when unnamed'));
      if (!aspects.length) continue;
      let value: unknown;
      if (f.references) {
        const other = await anotherReference(c, f.references[0]!, { id: expected[f.name] });
        if (!other) {
          for (const a of aspects) {
            skippedCell({ dimension: 'fields', subject: op.op, aspect: a }, `no second record of ${f.references[0]} to move ${f.name} to`);
          }
          continue;
        }
        moved.push({ resource: op.resource, record: { ...expected } });
        value = other.id;
      } else value = otherValue(c, op, f, expected, n += 1);
      if (value === undefined) {
        for (const a of aspects) {
          skippedCell({ dimension: 'fields', subject: op.op, aspect: a }, `no valid value of ${f.name} other than the one the record holds`);
        }
        continue;
      }
      // the listed examples of an open set (`value X`) are sent as themselves, where the record does not already hold them
      const examples: { v: unknown; sent: unknown; aspect?: string; }[] = (f.examples ?? []).filter((v) => run.has(`${f.path} value ${v}`)).map((
        v,
      ) => ({ v, sent: listedAs(f, v) }));
      // and those of a field of its items (`addresses[].type value billing`), in the first item of the value
      for (const a of aspects) {
        const m = /^[^ ]+\[\]\.([^ .[]+) value (.+)$/.exec(a);
        const first: unknown = Array.isArray(value) ? value[0] : undefined;
        if (m && a.startsWith(`${f.path}[].`) && first && typeof first === 'object') {
          examples.push({ v: a, sent: [{ ...(first as Rec), [m[1]!]: m[2] }, ...(value as unknown[]).slice(1)], aspect: a });
        }
      }
      for (const { v, sent, aspect } of [{ v: value, sent: value } as { v: unknown; sent: unknown; aspect?: string; }, ...examples]) {
        if (v !== value && canonical(sent) === canonical(expected[f.name])) continue;
        const body = { [f.name]: sent };
        const res = await send(c, op, { id: String(expected.id), sent: { body } });
        expectStatus(res, '2xx', `PATCH ${op.path} ${f.name}`);
        const after = expectResource(res, recordKind(op)!, `PATCH ${op.path} answer`);
        expectEchoed(c, body, after, res, op, op.resource);
        await expectOnlyNamed(c, op, expected, after, body, res);
        for (const k of Object.keys(expected)) if (k !== f.name && k in after) keptUnnamed.add(k);
        // a cell is checked once its PATCH sent a value the record did not hold and the answer was compared
        const listedSent = (a: string) => a.startsWith(`${f.path} value `) && canonical(listedAs(f, a.slice(`${f.path} value `.length))) === canonical(sent);
        for (const a of aspects) {
          if ((v === value && !/ value /.test(a)) || (aspect === undefined && listedSent(a)) || a === aspect) {
            exercised({ dimension: 'fields', subject: op.op, aspect: a });
          }
        }
        expected = after;
      }
    }
    for (const a of run) {
      const top = /^([^ \[]+)/.exec(a)?.[1];
      if (a.endsWith(' kept when unnamed') && top && keptUnnamed.has(top)) exercised({ dimension: 'fields', subject: op.op, aspect: a });
    }
    // every field's last value, in every view (a view that leaves a field out, or shows an older value, is found here)
    await everyView(c, op.op, await subjectOf(c, op.resource, expected), expected, `after PATCHes of each field of ${op.path}`, WRITE_STAMPS);
    // a record a reference moved away from is no longer in the filters by its former value
    for (const old of moved) {
      const stale = viewsOf(c, old).filter((v) => v.filters && Object.entries(v.filters).some(([k, value]) => expected[k] !== value));
      await expectEveryView(c, stale, 'absent', `after moving ${op.op}'s reference, the filter by its former value`);
    }
  }, { mutates: true, cells: cellsOf(titles.patchEach(op.op), op.op) });
}

// --- null and values of another type -----------------------------------------------------------

/** A body that sends `value` at the field's place (inside the first item of an array of objects, for a field of its items). */
function withValue(base: Rec, f: Field, value: unknown): Rec {
  const [head, rest] = f.path.split('[].') as [string, string | undefined];
  if (!rest) return { ...base, [head]: value };
  const items = Array.isArray(base[head]) && (base[head] as Rec[]).length ? (base[head] as Rec[]) : [{}];
  return { ...base, [head]: [{ ...items[0], [rest]: value }, ...items.slice(1)] };
}

type Kind = 'null' | 'wrong type';

/**
 * What an accepted odd value must show: a value of another type is whatever the answer says, as
 * long as every view agrees (a shape the response checks judge); a null, taken only on a field
 * typed nullable (refusedNull fails any other), is null, or absent (a reading).
 */
function accepted(c: CheckContext, op: Operation, f: Field, kind: Kind, after: Rec, res: ApiResponse): void {
  const top = f.path.split('[].')[0]!;
  if (kind === 'wrong type') return c.reading(`validation.${op.op}`, `a value of another type is accepted (${f.path})`);
  // only a nullable field reaches here: refusedNull failed any other
  if (f.path.includes('[].')) return;
  const v = after[top];
  if (v !== null && top in after) fail(`${op.op} with ${f.path} null (a nullable field) answered ${f.path}=${show(v)}`, res);
  if (!(top in after)) c.reading(`null.${op.op}`, `${f.path}: nullable, answered without the field`);
}

/**
 * A null for a field §2 does not type as nullable ("Fields typed `null` in a response can be
 * null"; specs/schemas) must be refused: a 4xx in the §7 envelope (the short one where the older
 * project and organization updates use it). Which code and detail the refusal carries is not shown
 * (§7 "The full catalog of codes ... not shown"); that it leaves no trace is checked after.
 */
function refusedNull(op: Operation, f: Field, res: ApiResponse): void {
  if (!inServedShape(op, f)) return;
  const concerning = { requirement: 'RES-NON-NULL-WRITE-REFUSED' };
  if (is2xx(res)) {
    fail(`${op.op} took null for ${f.path}, which §2 does not type as nullable, and answered ${res.status} instead of refusing it`, res, concerning);
  }
  if (res.status < 400 || res.status >= 500) fail(`${op.op} with ${f.path} null answered ${res.status}, not a 4xx refusal`, res, concerning);
  const short = op.kind === 'patch' && ['projects', 'organizations'].includes(op.resource);
  expectErrorEnvelope(res, `the refusal of ${op.op} with ${f.path} null`, short);
}

/**
 * Whether the shape the deployment serves lists the field. The older project and organization
 * shapes lack some (§2: "It has no `close_reason`, `close_reason_category`, `closed_at`, …"); for
 * such a deployment the field is one a request names beyond those shown (§4: "the request-body
 * fields of PATCH and POST endpoints beyond those named … are not shown"), so its null may be
 * ignored as well as refused.
 */
function inServedShape(op: Operation, f: Field): boolean {
  const kind = recordKind(op);
  if ((kind !== 'project' && kind !== 'organization') || servedShape(kind, undefined) !== 'legacy') return true;
  const top = f.path.split(/[.[]/)[0]!;
  return top in ((schema(`${kind}-legacy`) as { properties?: object; }).properties ?? {});
}

/** The fields a record cannot lack: those its schema requires, what the document makes inherent to the resource (§1, §3). */
const inherentOf = (op: Operation): readonly string[] =>
  recordKind(op) ? ((schema(recordKind(op)!) as { required?: string[]; }).required ?? []).filter((k) => k !== 'id') : [];

/**
 * Null for a field the record cannot lack (a project's `status`, an assignment's `employee_id`)
 * cannot clear it, and keeping it would read null as "no change", which the document does not
 * say: it is refused, 4xx in the §7 envelope (the audit judges the envelope), leaving no trace.
 */
function expectNullRefused(op: Operation, f: Field, kind: Kind, res: ApiResponse): void {
  if (kind !== 'null' || f.path.includes('[].') || !inherentOf(op).includes(f.name)) return;
  const rule = { requirement: 'RES-INHERENT-FIELDS' };
  if (res.status < 400 || res.status >= 500) {
    fail(`${op.op} with ${f.name} null (a field the record cannot lack) answered ${res.status}, not a refusal`, res, rule);
  }
  expectErrorEnvelope(res, `${op.op} refusing ${f.name} null`, true);
}

/**
 * Each field sent null (or of another type) on its own, to a PATCH of one record or to creates:
 * a refusal leaves no trace — the record reads as before, at the next answer and in every view at
 * the end — and an acceptance shows the same in every view.
 */
async function oddValues(c: CheckContext, op: Operation, kind: Kind, title: string): Promise<void> {
  const run = planned(c, title, op.op);
  const fields = allFields(op.fields).filter((f) => run.has(`${f.path} ${kind}`));
  const value = (f: Field) => (kind === 'null' ? null : wrongTypeOf(f));
  const readings: string[] = [];
  // the refusals null for a field the record cannot lack owes, judged once what was applied is compared in every view
  const strict: (() => void)[] = [];
  if (op.kind === 'patch') {
    let expected = await patchTarget(c, op);
    // fields an answer cleared by leaving them out: no view may show them afterwards
    const cleared = new Set<string>();
    // the odd values refused PATCHes sent: a record showing one of them kept what it refused
    const refusedValues: Rec = {};
    for (const f of fields) {
      const top = f.path.split('[].')[0]!;
      const body = withValue(f.path.includes('[].') ? { [top]: expected[top] } : {}, f, value(f));
      const res = await send(c, op, { id: String(expected.id), sent: { body } });
      if (res.status >= 500) fail(`${op.op} with ${f.path} ${kind} answered ${res.status}`, res);
      strict.push(() => expectNullRefused(op, f, kind, res));
      if (kind === 'null' && !f.nullable) strict.push(() => refusedNull(op, f, res));
      // refused or applied, the answer is judged below (a refusal's trace at the end): the cell ran
      exercised(cell(op.op, f, kind));
      if (!is2xx(res)) {
        readings.push(`${f.path}: ${res.status}`);
        // a value the record held before shows nothing about the refusal
        if (!f.path.includes('[].') && canonical(expected[f.path]) !== canonical(value(f))) refusedValues[f.path] = value(f);
        continue;
      }
      const after = expectResource(res, recordKind(op)!, `${op.op} answer`);
      accepted(c, op, f, kind, after, res);
      await expectOnlyNamed(c, op, expected, after, { [top]: null }, res);
      // a field an earlier answer cleared by leaving it out, shown again by a PATCH that did not name it: it was never cleared
      const back = [...cleared].filter((k) => k !== top && k in after && after[k] !== null);
      if (back.length) {
        fail(`${op.op} answered ${back.join(', ')} cleared, yet the next answer shows ${back.map((k) => `${k}=${show(after[k])}`).join(', ')}`, res);
      }
      if (!(top in after)) cleared.add(top);
      else cleared.delete(top);
      expected = after;
    }
    if (readings.length) c.reading(`${kind === 'null' ? 'null' : 'validation'}.${op.op}.refused`, readings.join('; '));
    await expectNotKept(c, op, String(expected.id), refusedValues, kind);
    const shown = { ...Object.fromEntries([...cleared].filter((x) => !(x in expected)).map((x) => [x, null])), ...expected };
    await everyView(c, op.op, await subjectOf(c, op.resource, expected), shown,
      `after ${op.op} with fields sent ${kind === 'null' ? 'as null' : 'of another type'}`, WRITE_STAMPS);
    for (const judge of strict) judge();
    return;
  }
  // creates: each refusal must leave nothing where the record would be found (looked for once, at
  // the end, by every refused body's text); an acceptance reads back alike everywhere
  const refused: Rec[] = [];
  for (const f of fields) {
    const base = await bodyOf(c, op);
    const sent: Sent = { body: withValue(base.body, f, value(f)) };
    const res = await send(c, op, { sent });
    if (res.status >= 500) fail(`${op.op} with ${f.path} ${kind} answered ${res.status}`, res);
    strict.push(() => expectNullRefused(op, f, kind, res));
    if (kind === 'null' && !f.nullable) strict.push(() => refusedNull(op, f, res));
    exercised(cell(op.op, f, kind));
    if (!is2xx(res)) {
      readings.push(`${f.path}: ${res.status}`);
      refused.push(sent.body);
      continue;
    }
    const record = expectResource(res, recordKind(op)!, `${op.op} answer`);
    accepted(c, op, f, kind, record, res);
    // a field the answer cleared by leaving it out: no view may show a value of it
    const top = f.path.split('[].')[0]!;
    const shown = kind === 'null' && !(top in record) ? { ...record, [top]: null } : record;
    await everyView(c, op.op, await subjectOf(c, op.resource, record), shown, `after ${op.op} with ${f.path} ${kind}`, WRITE_STAMPS);
  }
  if (readings.length) c.reading(`${kind === 'null' ? 'null' : 'validation'}.${op.op}.refused`, readings.join('; '));
  await expectNoneLike(c, op, refused, `${op.op} with fields sent ${kind === 'null' ? 'as null' : 'of another type'} was refused`);
  for (const judge of strict) judge();
}

/**
 * A refused PATCH leaves no trace: the record does not show a value it refused. Read before the
 * views are compared, since a value of another type is also a violation of the record's shape,
 * which would keep the comparison from going on (the refusal that kept it is the cause).
 */
async function expectNotKept(c: CheckContext, op: Operation, id: string, refused: Rec, kind: Kind): Promise<void> {
  const get = servedOperations(c.settings).find((o) => o.resource === op.resource && o.kind === 'get');
  if (!get || !Object.keys(refused).length) return;
  const res = await c.api.send(requestTo(get, id));
  if (!is2xx(res) || res.body === null || typeof res.body !== 'object') return;
  const record = res.body as Rec;
  const kept = Object.keys(refused).filter((k) => k in record && canonical(record[k]) === canonical(refused[k]));
  if (kept.length) {
    fail(
      `${op.op} refused ${kept.join(', ')} ${kind === 'null' ? 'as null' : 'of another type'}, yet ${get.method.toUpperCase()} ${get.path} shows ${
        kept.map((k) => `${k}=${show(record[k])}`).join(', ')
      }`,
      res,
    );
  }
}

/**
 * No record refused creates would have made: none of the views that list the resource by what the
 * bodies name (their references, their text) shows a record with one of the bodies' marked text.
 */
async function expectNoneLike(c: CheckContext, op: Operation, bodies: readonly Rec[], what: string): Promise<void> {
  const field = textFieldOf(op)?.name;
  const texts = new Set(bodies.map((b) => (field ? b[field] : undefined)).filter((t): t is string => typeof t === 'string'));
  if (!field || !texts.size) return;
  // the bodies share their references (the same working records): one set of views finds them all
  const views = viewsMatching(c, op.resource, bodies[0]!, (i) => texts.has(String(i[field])));
  await Promise.all(views.map(async (view) => {
    const seen = await view.read();
    if (seen.state === 'present') fail(`${what}, yet ${view.name} shows a record with its ${field}`, seen.res);
  }));
}

const nullsOf = (op: Operation) => (c: CheckContext) => oddValues(c, servedOperations(c.settings).find((o) => o.op === op.op)!, 'null', titles.nulls(op.op));
const nullOpts = (op: Operation) => ({ mutates: true, cells: cellsOf(titles.nulls(op.op), op.op) });

// A request that writes fields its record cannot lack has their nulls refused (RES-INHERENT-FIELDS).
const writesInherent = (op: Operation) => inherentOf(op).some((k) => op.fields.some((f) => f.name === k));

for (const op of ops().filter((o) => o.body && o.kind === 'patch' && !writesInherent(o))) {
  check([
    'EP-PATCH-PERSISTS',
    'EP-INVALID-BODY-NO-EFFECT',
    'RES-NON-NULL-WRITE-REFUSED',
  ], titles.nulls(op.op), nullsOf(op), nullOpts(op));
}

for (const op of ops().filter((o) => o.body && o.kind === 'patch' && writesInherent(o))) {
  check([
    'EP-PATCH-PERSISTS',
    'EP-INVALID-BODY-NO-EFFECT',
    'RES-NON-NULL-WRITE-REFUSED',
    'RES-INHERENT-FIELDS',
  ], titles.nulls(op.op), nullsOf(op), nullOpts(op));
}

for (const op of ops().filter((o) => o.body && o.kind === 'create' && !writesInherent(o))) {
  check([
    'EP-CREATE-PERSISTS',
    'EP-INVALID-BODY-NO-EFFECT',
    'RES-NON-NULL-WRITE-REFUSED',
  ], titles.nulls(op.op), nullsOf(op), nullOpts(op));
}

for (const op of ops().filter((o) => o.body && o.kind === 'create' && writesInherent(o))) {
  check([
    'EP-CREATE-PERSISTS',
    'EP-INVALID-BODY-NO-EFFECT',
    'RES-NON-NULL-WRITE-REFUSED',
    'RES-INHERENT-FIELDS',
  ], titles.nulls(op.op), nullsOf(op), nullOpts(op));
}

const wrongTypesOf = (op: Operation) => (c: CheckContext) =>
  oddValues(c, servedOperations(c.settings).find((o) => o.op === op.op)!, 'wrong type', titles.wrongType(op.op));
const wrongTypeOpts = (op: Operation) => ({ mutates: true, cells: cellsOf(titles.wrongType(op.op), op.op) });

for (const op of ops().filter((o) => o.body && o.kind === 'patch')) {
  check([
    'EP-INVALID-BODY-NO-EFFECT',
    'EP-PATCH-PERSISTS',
  ], titles.wrongType(op.op), wrongTypesOf(op), wrongTypeOpts(op));
}

for (const op of ops().filter((o) => o.body && o.kind === 'create')) {
  check([
    'EP-INVALID-BODY-NO-EFFECT',
    'EP-CREATE-PERSISTS',
  ], titles.wrongType(op.op), wrongTypesOf(op), wrongTypeOpts(op));
}

// --- listed values -----------------------------------------------------------------------------

for (const op of ops().filter((o) => o.kind === 'create' && o.fields.some((f) => f.enum))) {
  check([
    'EP-ATTACHMENTS-CREATE',
    'LIST-ATTACHMENTS-FOR-ENTITY',
  ], titles.values(op.op), async (c) => {
    const live = createOf(c, op.resource)!;
    for (const f of live.fields.filter((x) => x.enum)) {
      for (const v of f.enum!) {
        // an enumerated *_type names the resource of the record it goes with
        const cannot = f.name.endsWith('_type') ? makeable(servedOperations(c.settings), c.settings, `${v}s`) : undefined;
        if (cannot) continue;
        const sent = await bodyOf(c, live, { type: f.name.endsWith('_type') ? v : undefined });
        if (!f.name.endsWith('_type')) sent.body[f.name] = v;
        const { record, res } = await made(c, op.resource, { sent });
        expectEchoed(c, shownOf(live, sent), record, res, live, op.resource);
        await expectEveryView(c, viewsOf(c, await subjectOf(c, op.resource, record)), record, `after ${op.op} with ${f.name}=${v}`, WRITE_STAMPS);
        exercised(cell(op.op, f, `value ${v}`));
      }
    }
  }, { mutates: true, cells: cellsOf(titles.values(op.op), op.op) });
}
