// Every field of every write takes every entry of its type's boundary catalog (specs/boundaries.ts),
// in creates and in PATCHes: an empty string, zero and false (a truthiness test drops them), an
// empty array (a length test drops it), text at and past common column widths, in every Unicode
// plane and normal form and in other scripts, timestamps with offsets and fractions, days at the
// ends of years, null on the fields typed "or null", each value the document lists. The answer
// and every view must show what was sent, in the document's terms (§2: instants as instants,
// numbers as numbers). Where the document is silent on a value (§2: "Formats of timestamps and
// dates, and the currency code format, are not shown"; no length or range is shown) it may be
// refused, leaving no trace; where it is explicit (a boolean, null on a field typed "or null", a
// listed value) a refusal fails. A value taken and answered without its field, where the record
// shows the field otherwise, was not kept ("" is a string, not the field's absence).
//
// The fields of an array's items (`addresses[].postal_code`) take their catalogs in one item per
// write. The field the run names its records with takes the values too: a PATCH names the record
// again at its end; a create of a resource the API cannot delete (its records stay on the target)
// takes one value per failure mode (`few`), the run id carried by another free-text field that
// takes no value in that create.
import type { Rec } from '../contract/json.js';
import { BOUNDARIES, type Boundary, boundaryTypesOf, type Compare, NON_ASCII } from '../specs/boundaries.js';
import { type Field, operations } from '../specs/surface.js';
import { expectEveryView } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { fail, is2xx } from './harness/judge/assert.js';
import { expectResource } from './harness/judge/problems.js';
import { type Operation, recordKind, requestTo, servedOperations } from './harness/plan/operations.js';
import { markedText, testFile } from './harness/records.js';
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
  /** An array of objects sent with one item holding these values of its fields (`addresses[].city`). */
  parts?: readonly Probe[];
  /**
   * The span of the request, for a §3 stamp the server may set itself ("Closing sets `closed_at`"):
   * shown as an instant within it, the value is the server's stamp of the transition.
   */
  stamped?: { from: number; to: number; };
}

/**
 * The catalog entries of a field, its listed values first (§2 "value seen": values the field takes),
 * and its text outside ASCII last (NON_ASCII): the value the field holds when every view of the
 * record is read after the rounds, so that each view is read with such text in every string field
 * that takes it.
 */
function probesOf(f: Field, keep: (p: Probe) => boolean = () => true): Probe[] {
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
      if (entry.fits && !entry.fits.test(f.name)) continue;
      const into = NON_ASCII[type] === entry.name ? last : out;
      if (typeof entry.value === 'function') {
        // an entry derived from the field's listed values (another letter case, other text beside it)
        for (const v of f.examples ?? []) {
          const value = (entry.value as (s: string) => string)(v);
          if (value !== v) into.push({ field: f, entry: { ...entry, name: `${entry.name} ${v}` }, value });
        }
        continue;
      }
      into.push({ field: f, entry, value: entry.value });
    }
  }
  const kept = [...out, ...last].filter(keep);
  // an array of objects also takes one item whose fields take their own catalogs, the i-th value of
  // each field in the i-th item (the fields of the item are fields of the write: §2 Address)
  if (f.items === 'object' && f.fields) {
    for (const parts of roundsOf(f.fields.filter(bounded), keep)) {
      if (parts.length) kept.push(itemProbe(f, parts));
    }
  }
  return kept;
}

/** The probe of an array of objects sent with one item holding `parts`. */
function itemProbe(f: Field, parts: readonly Probe[]): Probe {
  const item = Object.fromEntries(parts.map((p) => [p.field.name, p.value]));
  const name = parts.length === 1 ? `item ${parts[0]!.field.name} ${parts[0]!.entry.name}` : `item of ${parts.length} boundary values`;
  return { field: f, entry: { name, value: [item], reveals: parts.map((p) => `${p.field.name}: ${p.entry.reveals}`).join('; ') }, value: [item], parts };
}

/** A probe split into probes of one value each, for a refusal to be told apart (an item's fields each alone). */
const singles = (p: Probe): Probe[] => (p.parts && p.parts.length > 1 ? p.parts.map((part) => itemProbe(p.field, [part])) : [p]);

/**
 * The fields of a project's §3 states: "Archiving records the prior stage and status in
 * `archived_from_stage` and `archived_from_status`, and sets `archived_at`. Closing sets
 * `closed_at`, `close_reason` and `close_reason_category`." Transitions are not shown, so a value
 * sent there may move other fields too: state.check.ts tries them in each write form.
 */
const STATE_FIELDS = new Set(['status', 'archived_at', 'closed_at', 'close_reason', 'close_reason_category']);

/** Whether a boundary can be sent to the field: not a reference, not an id (an array of unshown items takes the empty array alone). */
const sendable = (f: Field) => !f.references && f.name !== 'id';
/** Whether a boundary can be sent to the field together with the other fields' (a §3 state takes its values one field per request). */
const bounded = (f: Field) => sendable(f) && !STATE_FIELDS.has(f.name);

/** The top-level fields of `op` a boundary can be sent to. */
function boundedFields(op: Operation): Field[] {
  return op.fields.filter(bounded);
}

/** A value a truthiness or length test drops (`body.x || default`): what a create's defaults are applied over. */
const falsy = (v: unknown) => v === '' || v === 0 || v === false || v === null || (Array.isArray(v) && v.length === 0);

/** Rounds: the i-th probe of every field together (one request per round while every value is taken). */
function roundsOf(fields: readonly Field[], keep: (p: Probe) => boolean = () => true): Probe[][] {
  const per = fields.map((f) => probesOf(f, keep));
  const n = Math.max(0, ...per.map((p) => p.length));
  return Array.from({ length: n }, (_, i) => per.map((p) => p[i]).filter((p): p is Probe => p !== undefined));
}

type Verdict = { ok: true; note?: string; } | { ok: false; why: string; } | { absent: true; };

const numbersClose = (a: unknown, b: unknown) => typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= 0.005 + 1e-9;

/**
 * Whether `got` shows the sent value as the entry's comparison reads it. A field answered without
 * is `absent`: what it means is known once the record is seen to show the field (below).
 */
function judge(p: Probe, got: unknown, present: boolean): Verdict {
  const f = p.field;
  if (p.value === null) {
    // §2 "Fields typed `null` in a response can be null": it is silent on leaving them out
    if (!present) return { ok: true, note: 'answered without the field' };
    return got === null ? { ok: true } : { ok: false, why: `null was answered as ${show(got)}` };
  }
  // a date or timestamp sent as "" may be read as no value (Boundary.clears): the field cleared
  if (p.entry.clears && (!present || got === null)) return { ok: true, note: 'read as clearing the field' };
  if (!present) return { absent: true };
  const e = echo(f.name, p.value, got);
  if (e === 'same') return { ok: true };
  if (e === 'normalized') return { ok: true, note: 'stored in another Unicode normal form' };
  const mode: Compare = p.entry.compare ?? 'exact';
  if (mode === 'trim' && typeof p.value === 'string' && typeof got === 'string' && got === p.value.trim()) {
    return { ok: true, note: 'whitespace at the ends removed' };
  }
  if (mode === 'rounded' && numbersClose(p.value, got)) return { ok: true, note: `kept as ${show(got)}` };
  const at = typeof got === 'string' && /(Z|[+-]\d{2}:?\d{2})$/i.test(got) ? Date.parse(got) : Number.NaN;
  if (p.stamped && at >= p.stamped.from && at <= p.stamped.to) return { ok: true, note: 'stamped with the time of the request' };
  if (mode === 'set' && Array.isArray(p.value) && Array.isArray(got)) {
    const a = [...new Set((p.value as unknown[]).map((x) => canonical(x)))].sort();
    const b = [...new Set(got.map((x) => canonical(x)))].sort();
    if (canonical(a) === canonical(b)) return { ok: true, note: 'kept as a set (another order)' };
  }
  return { ok: false, why: `sent ${show(p.value)}, answered ${show(got)}` };
}

const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The fields the records of a check were seen to show (an item's by path: `addresses[].city`),
 * and the values answered without their field. §2 lists the fields of each record, and a value
 * sent is the field's value: `""`, `0`, `false` and `[]` are values, not the field's absence. A
 * deployment may leave a field out of every record (a shape question, not this check's); a field
 * its records show, left out once a value was sent to it, is a value not kept.
 */
class Shown {
  private readonly seen = new Set<string>();
  private readonly missing: { path: string; message: string; res: ApiResponse; }[] = [];

  see(record: Rec): void {
    for (const [k, v] of Object.entries(record)) {
      this.seen.add(k);
      if (Array.isArray(v)) { for (const item of v) if (isRec(item)) { for (const ik of Object.keys(item)) this.seen.add(`${k}[].${ik}`); } }
    }
  }

  absent(path: string, message: string, res: ApiResponse): void {
    if (this.seen.has(path)) fail(message, res);
    this.missing.push({ path, message, res });
  }

  /** Fails on a value answered without its field, where a record of the check showed the field. */
  settle(): void {
    const m = this.missing.find((x) => this.seen.has(x.path));
    if (m) fail(`${m.message}, a field the record shows otherwise`, m.res);
  }
}

/** Records each accepted probe's verdict; fails on the first value shown otherwise than sent. */
function expectShown(c: CheckContext, shown: Shown, op: Operation, probes: readonly Probe[], record: Rec, res: ApiResponse, where: string): void {
  shown.see(record);
  const wrong: string[] = [];
  let first: string | undefined;
  const absent: Probe[] = [];
  const verdict = (p: Probe, v: Verdict) => {
    if ('absent' in v) absent.push(p);
    else if (!v.ok) {
      first ??= p.field.path.split(/[.[]/)[0];
      wrong.push(`${p.field.path} (${p.entry.name}: ${p.entry.reveals}) ${v.why}`);
    } else if (v.note) c.reading(`boundaries.${op.op}.${p.field.path}.${p.entry.name}`, v.note);
  };
  for (const p of probes) {
    const got = record[p.field.name];
    if (!p.parts || !(p.field.name in record)) {
      verdict(p, judge(p, got, p.field.name in record));
      continue;
    }
    // one item was sent: the record shows one item, holding each value as sent
    const item = Array.isArray(got) && got.length === 1 && isRec(got[0]) ? got[0] : undefined;
    if (!item) {
      first ??= p.field.name;
      wrong.push(`${p.field.path} (${p.entry.name}) sent one item, answered ${show(got)}`);
      continue;
    }
    for (const part of p.parts) verdict(part, judge(part, item[part.field.name], part.field.name in item));
  }
  // the first field shown otherwise is the cause wherever else it shows (harness/wrong-fields.ts)
  if (first !== undefined) {
    fail(`${where}: ${wrong.join('; ')}`, res, writeConcern(fieldFindingKey(op.resource, first), { resource: op.resource, field: first }));
  }
  for (const p of absent) {
    shown.absent(p.field.path, `${where}: ${p.field.path} (${p.entry.name}: ${p.entry.reveals}) sent ${show(p.value)}, answered without the field`, res);
  }
}

/** A refusal is one of the answers the document leaves open for the value, or fails where it is explicit. */
function refused(c: CheckContext, op: Operation, p: Probe, res: ApiResponse): void {
  if (res.status >= 500) fail(`${op.op} with ${p.field.path} ${p.entry.name} (${show(p.value)}) answered ${res.status}: ${p.entry.reveals}`, res);
  const must = p.parts ? p.parts.find((x) => x.entry.must) : p.entry.must ? p : undefined;
  if (must) {
    fail(`${op.op} refused ${must.field.path}=${show(must.value)} with ${res.status}, a value the document gives the field (${must.entry.reveals})`, res);
  }
  c.reading(`boundaries.${op.op}.${p.field.path}.${p.entry.name}`, `refused ${res.status}`);
}

const getOf = (c: CheckContext, op: Operation) => servedOperations(c.settings).find((o) => o.resource === op.resource && o.kind === 'get');

/** GET by id (where the resource has one) shows what the write answered, on the probed fields. */
async function expectGetShows(c: CheckContext, shown: Shown, op: Operation, id: string, probes: readonly Probe[], what: string): Promise<void> {
  const get = getOf(c, op);
  if (!get) return;
  const res = await c.api.send(requestTo(get, id));
  if (!is2xx(res)) fail(`${what}: ${get.method.toUpperCase()} ${get.path} answered ${res.status}`, res);
  expectShown(c, shown, op, probes, res.body as Rec, res, `${what}, then ${get.method.toUpperCase()} ${get.path}`);
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
      const shown = new Shown();
      shown.see(current);
      const patch = async (probes: readonly Probe[]) => {
        const body = Object.fromEntries(probes.map((p) => [p.field.name, p.value]));
        return { body, res: await send(c, live, { id, sent: { body } }) };
      };
      try {
        // the field the run names its records with takes the values too: it is named again below
        for (const round of roundsOf(boundedFields(live))) {
          // a value the record already holds proves nothing: those go in a later round
          const probes = round.filter((p) => canonical(current[p.field.name]) !== canonical(p.value));
          if (!probes.length) continue;
          const { res } = await patch(probes);
          if (is2xx(res)) {
            const after = expectResource(res, recordKind(live)!, `${live.op} answer`);
            expectShown(c, shown, live, probes, after, res, `${live.op} with boundary values`);
            await expectGetShows(c, shown, live, id, probes, `${live.op} with boundary values`);
            current = after;
            continue;
          }
          // one of them was refused: each alone (an item's values each alone), so that each value gets its own answer
          for (const p of probes.flatMap(singles)) {
            const one = await patch([p]);
            if (!is2xx(one.res)) {
              refused(c, live, p, one.res);
              // a refusal leaves no trace: the record still shows what it held
              await expectGetShows(c, shown, live, id, [{ field: p.field, entry: p.entry, value: current[p.field.name] }],
                `${live.op} with ${p.field.path} ${p.entry.name} refused`);
              continue;
            }
            const after = expectResource(one.res, recordKind(live)!, `${live.op} answer`);
            expectShown(c, shown, live, [p], after, one.res, `${live.op} with ${p.field.path} ${p.entry.name}`);
            await expectGetShows(c, shown, live, id, [p], `${live.op} with ${p.field.path} ${p.entry.name}`);
            current = after;
          }
        }
        // §3 state fields, one field per request: a value sent there may move the other state
        // fields ("Transitions: not shown"), never the field itself. The PATCH target of a
        // project is a scratch project (subjects.ts patchTarget), whose transitions may stay.
        // The status first, so that archiving records a status holding text outside ASCII
        // (archived_from_status), then the stamps, the other fields, and the status's last value
        // again: a transition a stamp makes (closing) moves the status, which then keeps text
        // outside ASCII for every view read below.
        const order = (f: Field) => (f.name === 'status' ? 0 : boundaryTypesOf(f).includes('timestamp') ? 1 : 2);
        const states = live.fields.filter((x) => sendable(x) && STATE_FIELDS.has(x.name)).sort((a, b) => order(a) - order(b));
        const status = states.find((f) => f.name === 'status');
        const rounds: [Field, Probe[]][] = [
          ...states.map((f): [Field, Probe[]] => [f, probesOf(f)]),
          ...(status ? [[status, probesOf(status).slice(-1)] as [Field, Probe[]]] : []),
        ];
        for (const [f, probes] of rounds) {
          // a timestamp of a transition may be the server's stamp of it ("Archiving ... sets `archived_at`")
          const stamps = boundaryTypesOf(f).includes('timestamp');
          // "Transitions: not shown": any value may be refused there, the document's own ones too
          for (const p of probes.map((x) => ({ ...x, entry: { ...x.entry, must: false } }))) {
            if (canonical(current[f.name]) === canonical(p.value)) continue;
            const from = Date.now() - 5_000;
            const { res } = await patch([p]);
            const probe: Probe = stamps ? { ...p, stamped: { from, to: Date.now() + 5_000 } } : p;
            if (!is2xx(res)) {
              refused(c, live, p, res);
              await expectGetShows(c, shown, live, id, [{ field: f, entry: p.entry, value: current[f.name] }],
                `${live.op} with ${f.path} ${p.entry.name} refused`);
              continue;
            }
            const after = expectResource(res, recordKind(live)!, `${live.op} answer`);
            expectShown(c, shown, live, [probe], after, res, `${live.op} with ${f.path} ${p.entry.name}`);
            await expectGetShows(c, shown, live, id, [{ ...probe, value: after[f.name] ?? probe.value }], `${live.op} with ${f.path} ${p.entry.name}`);
            current = after;
          }
        }
        shown.settle();
        // the last values, in every view of the record (the lists, the filters, the copies embedded elsewhere)
        await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, current)), current, `after ${live.op} with boundary values`, WRITE_STAMPS);
      } finally {
        // the record is named with the run id again (a record the API cannot delete is found by it), whatever the check found
        if (marked && typeof markedValue === 'string') await send(c, live, { id, sent: { body: { [marked]: markedValue } } });
      }
    }, { mutates: true, timeout: 120_000 });
}

// --- creates -----------------------------------------------------------------------------------

/** Free text a person reads (no listed values, no format): fields a record can be named with the run id in. */
const namable = (f: Field) => boundaryTypesOf(f).includes('text');

/**
 * The creates that send each field its values: the i-th value of every field in the i-th create,
 * but for the field `carrying` each create's run id (a record the API cannot delete is left on the
 * target named with it). That field is the one with the fewest values left among `carriers` (the
 * field the run names records with first), so that each takes its values in another create.
 */
function createRounds(fields: readonly Field[], keep: (p: Probe) => boolean, carriers: readonly string[]): { probes: Probe[]; carrying?: string; }[] {
  const queues = new Map(fields.map((f) => [f.name, probesOf(f, keep)]));
  const left = () => [...queues.values()].some((q) => q.length > 0);
  const out: { probes: Probe[]; carrying?: string; }[] = [];
  while (left()) {
    const others = (name: string) => [...queues].some(([n, q]) => n !== name && q.length > 0);
    const carrying = [...carriers].sort((a, b) => (queues.get(a)?.length ?? 0) - (queues.get(b)?.length ?? 0)).find(others);
    if (carriers.length && !carrying) {
      // only a carrier has values left, and no other field can carry the run id
      break;
    }
    const probes = [...queues].filter(([n]) => n !== carrying).flatMap(([, q]) => (q.length ? [q.shift()!] : []));
    out.push({ probes, ...(carrying ? { carrying } : {}) });
  }
  return out;
}

for (const op of operations().filter((o) => o.kind === 'create' && o.body)) {
  check([
    'EP-CREATE-PERSISTS',
  ], `boundaries: ${op.op} takes every boundary value of each field's type, kept as sent in the answer and every view, or refused`, async (c) => {
    const live = servedOperations(c.settings).find((o) => o.op === op.op)!;
    const marked = textFieldOf(live)?.name;
    const shown = new Shown();
    // a resource the API deletes has its records cleaned up by id: its creates take every value,
    // the field the run names records with too. A record the API cannot delete stays on the target
    // (someone's staging): those creates are few, each value one per failure mode (`few`) beside the
    // empty values its defaults are applied over and those the document gives the field, and each
    // is named with the run id in a free-text field that takes no value in that create
    const deletable = operations().some((o) => o.resource === live.resource && o.kind === 'delete');
    const keep = (p: Probe) => deletable || falsy(p.value) || p.entry.must === true || p.entry.few === true;
    const carriers = deletable || !marked ? [] : [marked, ...boundedFields(live).filter((f) => f.name !== marked && namable(f)).map((f) => f.name)];
    const create = async (probes: readonly Probe[], carrying?: string) => {
      const sent = await bodyOf(c, live);
      for (const p of probes) sent.body[p.field.name] = p.value;
      if (carrying) sent.body[carrying] = markedText(c);
      return { sent, res: await send(c, live, { sent }) };
    };
    for (const { probes, carrying } of createRounds(boundedFields(live), keep, carriers)) {
      const { res } = await create(probes, carrying);
      if (is2xx(res)) {
        const record = expectResource(res, recordKind(live)!, `${live.op} answer`);
        expectShown(c, shown, live, probes, record, res, `${live.op} with boundary values`);
        await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, record)), record, `after ${live.op} with boundary values`, WRITE_STAMPS);
        continue;
      }
      for (const p of probes.flatMap(singles)) {
        const one = await create([p], carrying);
        if (!is2xx(one.res)) {
          refused(c, live, p, one.res);
          continue;
        }
        const record = expectResource(one.res, recordKind(live)!, `${live.op} answer`);
        expectShown(c, shown, live, [p], record, one.res, `${live.op} with ${p.field.path} ${p.entry.name}`);
        await expectGetShows(c, shown, live, String(record.id), [p], `${live.op} with ${p.field.path} ${p.entry.name}`);
      }
    }
    shown.settle();
  }, { mutates: true, timeout: 120_000 });
}

// --- uploads: the file part's name, and the fields beside it -------------------------------------

for (const op of operations().filter((o) => o.kind === 'create' && o.multipart)) {
  check([
    'EP-CREATE-PERSISTS',
  ], `boundaries: ${op.op} keeps every boundary filename and each boundary value of its fields as sent, in the answer and every view`, async (c) => {
    const live = servedOperations(c.settings).find((o) => o.op === op.op)!;
    const filenames = BOUNDARIES.filename as readonly Boundary[];
    // the fields beside the file take their catalogs (a listed one its listed values first), one value per upload
    const fields = live.fields.filter((f) => !f.references && !f.enum && boundaryTypesOf(f).length);
    // An empty form field is how a form sends no value (an HTML form submits an unfilled input as
    // ""), and §4 gives uploads an "optional `category`" with no word on an empty one: a server may
    // take it for not sent (its default), so the empty entry is no upload's
    // and a form field's value may reach the handler with the whitespace at its ends trimmed (form
    // parsers do, RFC 7578 fixes no more than the part's body): text is compared without its ends
    const catalogs = fields.map((f) =>
      probesOf(f, (p) => p.entry.name !== 'empty').map((
        p,
      ) => (typeof p.value === 'string' ? { ...p, entry: { ...p.entry, compare: p.entry.compare ?? 'trim' } } : p))
    );
    const n = Math.max(filenames.length, ...catalogs.map((p) => p.length));
    const shown = new Shown();
    for (let i = 0; i < n; i += 1) {
      const name = filenames[i];
      const upload = async (probes: readonly Probe[], filename?: Boundary) => {
        const sent: Sent = await bodyOf(c, live);
        for (const p of probes) sent.body[p.field.name] = p.value;
        const file = { ...testFile(c, 64 + i), ...(filename ? { filename: String(filename.value) } : {}) };
        return { sent, file, res: await send(c, live, { sent: { ...sent, file } }) };
      };
      const filenameProbe = (b: Boundary): Probe => ({
        field: { name: 'filename', path: 'filename', types: ['string'], nullable: false, required: false },
        entry: b,
        value: b.value,
      });
      const probes = catalogs.flatMap((p) => (p[i] ? [p[i]!] : []));
      const one = await upload(probes, name);
      if (is2xx(one.res)) {
        const record = expectResource(one.res, recordKind(live)!, `${live.op} answer`);
        expectShown(c, shown, live, [...probes, ...(name ? [filenameProbe(name)] : [])], record, one.res, `${live.op} with boundary values`);
        await expectEveryView(c, viewsOf(c, await subjectOf(c, live.resource, record)), record, `after ${live.op} with boundary values`, WRITE_STAMPS);
        continue;
      }
      // one of them was refused: each alone, so that each value gets its own answer
      const alone: { probes: Probe[]; filename?: Boundary; what: Probe; }[] = [
        ...probes.map((p) => ({ probes: [p], what: p })),
        ...(name ? [{ probes: [], filename: name, what: filenameProbe(name) }] : []),
      ];
      if (alone.length === 1) {
        refused(c, live, alone[0]!.what, one.res);
        continue;
      }
      for (const a of alone) {
        const each = await upload(a.probes, a.filename);
        if (!is2xx(each.res)) {
          refused(c, live, a.what, each.res);
          continue;
        }
        const record = expectResource(each.res, recordKind(live)!, `${live.op} answer`);
        expectShown(c, shown, live, [a.what], record, each.res, `${live.op} with ${a.what.field.path} ${a.what.entry.name}`);
      }
    }
    shown.settle();
  }, { mutates: true, timeout: 120_000 });
}
