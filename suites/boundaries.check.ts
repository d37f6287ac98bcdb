// Every field of every write takes every entry of its type's boundary catalog (specs/boundaries.ts),
// in creates and in PATCHes: an empty string, zero and false (a truthiness test drops them), an
// empty array (a length test drops it), text at and past common column widths, in every Unicode
// plane and normal form and in other scripts, timestamps with offsets and fractions, days at the
// ends of years, null on the fields typed "or null", each value the document lists. The answer
// and every view must show what was sent, in the document's terms (§2: instants as instants,
// numbers as numbers). Where the document is silent on a value (§2: "Formats of timestamps and
// dates, and the currency code format, are not shown"; no length or range is shown) it may be
// refused, leaving no trace; where it is explicit (a boolean, null on a field typed "or null", a
// listed value) a refusal fails.
import type { Rec } from '../contract/json.js';
import { BOUNDARIES, type Boundary, boundaryTypesOf, type Compare, NON_ASCII } from '../specs/boundaries.js';
import { type Field, operations } from '../specs/surface.js';
import { expectEveryView } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { fail, is2xx } from './harness/judge/assert.js';
import { expectResource } from './harness/judge/problems.js';
import { type Operation, recordKind, requestTo, servedOperations } from './harness/plan/operations.js';
import { testFile } from './harness/records.js';
import { bodyOf, createOf, patchTarget, send, type Sent, subjectOf, textFieldOf } from './harness/subjects.js';
import type { ApiResponse } from './harness/transport/client.js';
import { canonical, echo, viewsOf } from './harness/views.js';
import { fieldFindingKey, writeConcern } from './harness/wrong-fields.js';

/** Stamped by the server on any write (§2 lists them; their rules are not shown). */
const WRITE_STAMPS = ['updated_at', 'last_activity_at'];
const show = (v: unknown) => {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
};

interface Probe {
  field: Field;
  entry: Boundary;
  value: unknown;
}

/**
 * The catalog entries of a field, its listed values first (§2 "value seen": values the field takes),
 * and its text outside ASCII last (NON_ASCII): the value the field holds when every view of the
 * record is read after the rounds, so that each view is read with such text in every string field
 * that takes it.
 */
function probesOf(f: Field): Probe[] {
  const out: Probe[] = [];
  const last: Probe[] = [];
  for (const v of f.examples ?? []) {
    if (f.items !== 'string') {
      out.push({ field: f, entry: { name: `listed ${v}`, value: v, reveals: 'a value the document lists refused or changed', must: true }, value: v });
    } else {out.push({
        field: f,
        entry: { name: `listed [${v}]`, value: [v], reveals: 'a value the document lists refused or changed', must: true },
        value: [v],
      });}
  }
  for (const type of boundaryTypesOf(f)) {
    for (const entry of BOUNDARIES[type] as readonly Boundary[]) {
      const into = NON_ASCII[type] === entry.name ? last : out;
      if (typeof entry.value === 'function') {
        // an entry derived from the field's listed values (another letter case, text outside ASCII)
        for (const v of f.examples ?? []) {
          const value = (entry.value as (s: string) => string)(v);
          if (value !== v) into.push({ field: f, entry: { ...entry, name: `${entry.name} ${v}` }, value });
        }
        continue;
      }
      into.push({ field: f, entry, value: entry.value });
    }
  }
  return [...out, ...last];
}

/**
 * The fields of a project's §3 states: "Archiving records the prior stage and status in
 * `archived_from_stage` and `archived_from_status`, and sets `archived_at`. Closing sets
 * `closed_at`, `close_reason` and `close_reason_category`." Transitions are not shown, so a value
 * sent there may move other fields too: state.check.ts tries them in each write form.
 */
const STATE_FIELDS = new Set(['status', 'archived_at', 'closed_at', 'close_reason', 'close_reason_category']);

/** The fields of `op` a boundary can be sent to: top-level, not a reference, not an array of unshown items, not a §3 state, not the run's marked text. */
function boundedFields(op: Operation, marked?: string): Field[] {
  return op.fields.filter((f) => !f.references && f.items !== 'unknown' && f.name !== 'id' && f.name !== marked && !STATE_FIELDS.has(f.name));
}

/** A value a truthiness or length test drops (`body.x || default`): what a create's defaults are applied over. */
const falsy = (v: unknown) => v === '' || v === 0 || v === false || v === null || (Array.isArray(v) && v.length === 0);

/** Rounds: the i-th probe of every field together (one request per round while every value is taken). */
function roundsOf(fields: readonly Field[], keep: (p: Probe) => boolean = () => true): Probe[][] {
  const per = fields.map((f) => probesOf(f).filter(keep));
  const n = Math.max(0, ...per.map((p) => p.length));
  return Array.from({ length: n }, (_, i) => per.map((p) => p[i]).filter((p): p is Probe => p !== undefined));
}

type Verdict = { ok: true; note?: string; } | { ok: false; why: string; };

const numbersClose = (a: unknown, b: unknown) => typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= 0.005 + 1e-9;

/** Whether `got` shows the sent value as the entry's comparison reads it. */
function judge(p: Probe, got: unknown, present: boolean): Verdict {
  const f = p.field;
  if (p.value === null) {
    if (!present) return { ok: true, note: 'answered without the field' };
    return got === null ? { ok: true } : { ok: false, why: `null was answered as ${show(got)}` };
  }
  if (!present) return { ok: true, note: 'answered without the field' };
  const e = echo(f.name, p.value, got);
  if (e === 'same') return { ok: true };
  if (e === 'normalized') return { ok: true, note: 'stored in another Unicode normal form' };
  const mode: Compare = p.entry.compare ?? 'exact';
  if (mode === 'trim' && typeof p.value === 'string' && typeof got === 'string' && got === p.value.trim()) {
    return { ok: true, note: 'whitespace at the ends removed' };
  }
  if (mode === 'rounded' && numbersClose(p.value, got)) return { ok: true, note: `kept as ${show(got)}` };
  if (mode === 'set' && Array.isArray(p.value) && Array.isArray(got)) {
    const a = [...new Set((p.value as unknown[]).map((x) => canonical(x)))].sort();
    const b = [...new Set(got.map((x) => canonical(x)))].sort();
    if (canonical(a) === canonical(b)) return { ok: true, note: 'kept as a set (another order)' };
  }
  return { ok: false, why: `sent ${show(p.value)}, answered ${show(got)}` };
}

/** Records each accepted probe's verdict; fails on the first value shown otherwise than sent. */
function expectShown(c: CheckContext, op: Operation, probes: readonly Probe[], record: Rec, res: ApiResponse, where: string): void {
  const wrong: string[] = [];
  let first: string | undefined;
  for (const p of probes) {
    const v = judge(p, record[p.field.name], p.field.name in record);
    if (!v.ok) {
      first ??= p.field.name;
      wrong.push(`${p.field.name} (${p.entry.name}: ${p.entry.reveals}) ${v.why}`);
    } else if (v.note) c.reading(`boundaries.${op.op}.${p.field.name}.${p.entry.name}`, v.note);
  }
  // the first field shown otherwise is the cause wherever else it shows (harness/wrong-fields.ts)
  if (first !== undefined) fail(`${where}: ${wrong.join('; ')}`, res, writeConcern(fieldFindingKey(op.resource, first)));
}

/** A refusal is one of the answers the document leaves open for the value, or fails where it is explicit. */
function refused(c: CheckContext, op: Operation, p: Probe, res: ApiResponse): void {
  if (res.status >= 500) fail(`${op.op} with ${p.field.name} ${p.entry.name} (${show(p.value)}) answered ${res.status}: ${p.entry.reveals}`, res);
  if (p.entry.must) {
    fail(`${op.op} refused ${p.field.name}=${show(p.value)} with ${res.status}, a value the document gives the field (${p.entry.reveals})`, res);
  }
  c.reading(`boundaries.${op.op}.${p.field.name}.${p.entry.name}`, `refused ${res.status}`);
}

const getOf = (c: CheckContext, op: Operation) => servedOperations(c.settings).find((o) => o.resource === op.resource && o.kind === 'get');

/** GET by id (where the resource has one) shows what the write answered, on the probed fields. */
async function expectGetShows(c: CheckContext, op: Operation, id: string, probes: readonly Probe[], what: string): Promise<void> {
  const get = getOf(c, op);
  if (!get) return;
  const res = await c.api.send(requestTo(get, id));
  if (!is2xx(res)) fail(`${what}: ${get.method.toUpperCase()} ${get.path} answered ${res.status}`, res);
  expectShown(c, op, probes, res.body as Rec, res, `${what}, then ${get.method.toUpperCase()} ${get.path}`);
}

// --- PATCH -------------------------------------------------------------------------------------

for (const op of operations().filter((o) => o.kind === 'patch' && o.body)) {
  check([
    'EP-PATCH-PERSISTS',
    'EP-PATCH-PARTIAL',
  ], `boundaries: ${op.op} takes every boundary value of each field's type, kept as sent in the answer and every view, or refused leaving no trace`,
    async (c) => {
      const live = servedOperations(c.settings).find((o) => o.op === op.op)!;
      const create = createOf(c, live.resource);
      const marked = create ? textFieldOf(create)?.name : undefined;
      let current = await patchTarget(c, live);
      const id = String(current.id);
      const markedValue = marked ? current[marked] : undefined;
      const patch = async (probes: readonly Probe[]) => {
        const body = Object.fromEntries(probes.map((p) => [p.field.name, p.value]));
        return { body, res: await send(c, live, { id, sent: { body } }) };
      };
      for (const round of roundsOf(boundedFields(live, marked))) {
        // a value the record already holds proves nothing: those go in a later round
        const probes = round.filter((p) => canonical(current[p.field.name]) !== canonical(p.value));
        if (!probes.length) continue;
        const { res } = await patch(probes);
        if (is2xx(res)) {
          const after = expectResource(res, recordKind(live)!, `${live.op} answer`);
          expectShown(c, live, probes, after, res, `${live.op} with boundary values`);
          await expectGetShows(c, live, id, probes, `${live.op} with boundary values`);
          current = after;
          continue;
        }
        // one of them was refused: each alone, so that each value gets its own answer
        for (const p of probes) {
          const one = await patch([p]);
          if (!is2xx(one.res)) {
            refused(c, live, p, one.res);
            // a refusal leaves no trace: the record still shows what it held
            await expectGetShows(c, live, id, [{ ...p, value: current[p.field.name] }], `${live.op} with ${p.field.name} ${p.entry.name} refused`);
            continue;
          }
          const after = expectResource(one.res, recordKind(live)!, `${live.op} answer`);
          expectShown(c, live, [p], after, one.res, `${live.op} with ${p.field.name} ${p.entry.name}`);
          await expectGetShows(c, live, id, [p], `${live.op} with ${p.field.name} ${p.entry.name}`);
          current = after;
        }
      }
      // the last values, in every view of the record (the lists, the filters, the copies embedded elsewhere)
      await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, current)), current, `after ${live.op} with boundary values`, WRITE_STAMPS);
      // the record is named with the run id again (a record the API cannot delete is found by it)
      if (marked && typeof markedValue === 'string') await send(c, live, { id, sent: { body: { [marked]: markedValue } } });
    }, { mutates: true, timeout: 120_000 });
}

// --- creates -----------------------------------------------------------------------------------

for (const op of operations().filter((o) => o.kind === 'create' && o.body)) {
  check([
    'EP-CREATE-PERSISTS',
  ], `boundaries: ${op.op} takes every boundary value of each field's type, kept as sent in the answer and every view, or refused`, async (c) => {
    const live = servedOperations(c.settings).find((o) => o.op === op.op)!;
    const marked = textFieldOf(live)?.name;
    const create = async (probes: readonly Probe[]) => {
      const sent = await bodyOf(c, live);
      for (const p of probes) sent.body[p.field.name] = p.value;
      return { sent, res: await send(c, live, { sent }) };
    };
    // a create takes the values its defaults are applied over, and those the document gives the field;
    // the rest of the catalog goes through the PATCH of the same fields, but for a resource the API
    // deletes (its records are cleaned up): there a create takes every value, as a create stores it
    const deletable = operations().some((o) => o.resource === live.resource && o.kind === 'delete');
    for (const probes of roundsOf(boundedFields(live, marked), (p) => deletable || falsy(p.value) || p.entry.must === true)) {
      const { res } = await create(probes);
      if (is2xx(res)) {
        const record = expectResource(res, recordKind(live)!, `${live.op} answer`);
        expectShown(c, live, probes, record, res, `${live.op} with boundary values`);
        await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, record)), record, `after ${live.op} with boundary values`, WRITE_STAMPS);
        continue;
      }
      for (const p of probes) {
        const one = await create([p]);
        if (!is2xx(one.res)) {
          refused(c, live, p, one.res);
          continue;
        }
        const record = expectResource(one.res, recordKind(live)!, `${live.op} answer`);
        expectShown(c, live, [p], record, one.res, `${live.op} with ${p.field.name} ${p.entry.name}`);
        await expectGetShows(c, live, String(record.id), [p], `${live.op} with ${p.field.name} ${p.entry.name}`);
      }
    }
  }, { mutates: true, timeout: 120_000 });
}

// --- uploads: the file part's name, and the fields beside it -------------------------------------

for (const op of operations().filter((o) => o.kind === 'create' && o.multipart)) {
  check([
    'EP-CREATE-PERSISTS',
  ], `boundaries: ${op.op} keeps every boundary filename and each listed value of its fields as sent, in the answer and every view`, async (c) => {
    const live = servedOperations(c.settings).find((o) => o.op === op.op)!;
    const filenames = BOUNDARIES.filename as readonly Boundary[];
    const listed = live.fields.filter((f) => f.examples && !f.references);
    const n = Math.max(filenames.length, ...listed.map((f) => f.examples!.length));
    // then once more, each listed field with text outside ASCII (the catalog's NON_ASCII entry of a
    // listed value): §2 "Sets of allowed values of enumerated fields are not shown", so it may be
    // refused; taken, every view must show it as sent
    const nonAscii = (BOUNDARIES.listed as readonly Boundary[]).find((e) => e.name === NON_ASCII.listed)!;
    for (let i = 0; i <= n; i += 1) {
      const extra = i === n;
      if (extra && !listed.length) break;
      const sent: Sent = await bodyOf(c, live);
      const name = extra ? undefined : filenames[i];
      const file = { ...testFile(c, 64 + i), ...(name ? { filename: String(name.value) } : {}) };
      const probes: Probe[] = [];
      for (const f of listed) {
        const listedValue = f.examples![i % f.examples!.length]!;
        const v = extra ? (nonAscii.value as (s: string) => string)(listedValue) : listedValue;
        sent.body[f.name] = v;
        probes.push({
          field: f,
          entry: extra
            ? { ...nonAscii, name: `${nonAscii.name} ${listedValue}`, value: v }
            : { name: `listed ${v}`, value: v, reveals: 'a value the document lists refused or changed', must: true },
          value: v,
        });
      }
      const res = await send(c, live, { sent: { ...sent, file } });
      const filenameProbe: Probe | undefined = name
        ? { field: { name: 'filename', path: 'filename', types: ['string'], nullable: false, required: false }, entry: name, value: name.value }
        : undefined;
      if (!is2xx(res)) {
        if (res.status >= 500) fail(`${live.op} with the filename ${show(file.filename)} answered ${res.status}`, res);
        // a name the document says nothing about may be refused; the listed values may not
        if (probes.some((p) => p.entry.must) && !name) fail(`${live.op} refused a listed value with ${res.status}`, res);
        if (extra) { for (const p of probes) c.reading(`boundaries.${live.op}.${p.field.name}.${p.entry.name}`, `refused ${res.status}`); }
        else c.reading(`boundaries.${live.op}.filename.${name?.name ?? 'plain'}`, `refused ${res.status}`);
        continue;
      }
      const record = expectResource(res, recordKind(live)!, `${live.op} answer`);
      expectShown(c, live, [...probes, ...(filenameProbe ? [filenameProbe] : [])], record, res, `${live.op} with boundary values`);
      await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, record)), record, `after ${live.op} with boundary values`, WRITE_STAMPS);
    }
  }, { mutates: true, timeout: 120_000 });
}
