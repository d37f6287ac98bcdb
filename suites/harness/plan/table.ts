// The coverage table: every cell a check could run over, derived from the API's surface
// (specs/surface.ts, as the target serves it) and the settings — operations × request fields ×
// the kinds of value sent, mutating operations × the ways a request is refused, × the views of
// their resource, × a retry with the same key and with the other team's key, lists × sort ×
// order, and where a cursor came from × what it is used with. Each cell names the check that
// records it, which runs it unless the cell carries a reason; the reasons are facts the surface
// shows (no JSON body, no view that lists the records, a setting unset), never a list of cases.
// suites/harness/coverage.test.ts fails when a cell has neither a check nor a reason, so a new
// operation, field or view of the document is covered, or visibly not, without anyone
// remembering to add it.
import type { ListResource, Settings } from '../../../contract/settings.js';
import { allFields, type Field, type Operation, type View, viewsOf } from '../../../specs/surface.js';
import { type CellPlan, type CellReason, type Refusal, REFUSALS, titles } from './cells.js';
import { servedOperations } from './operations.js';
import { REFUSAL_ROWS } from './refusal-rows.js';

/** §3 state fields: restored together, so that a server deriving one from another ends where it started. */
export const STATE_FIELDS = ['status', 'archived_at', 'closed_at', 'close_reason', 'close_reason_category'];

type TableSettings = Pick<Settings, 'paths' | 'sortFields' | 'scratchProjects'>;

const SCRATCH_NEEDED: CellReason = { kind: 'setting', text: 'changes pre-existing projects: runs on CONFORMANCE_SCRATCH_PROJECTS only, and none is set' };
const MULTIPART_TEXT: CellReason = { kind: 'not-shown', text: 'a multipart field is text: it has no null and no other JSON type' };

/** Whether a run can make records of a resource: one with a create operation, or projects set aside for testing. */
export function makeable(ops: readonly Operation[], settings: Pick<Settings, 'scratchProjects'>, resource: string): CellReason | undefined {
  if (ops.some((o) => o.resource === resource && o.kind === 'create')) return undefined;
  if (resource === 'projects') return settings.scratchProjects.length ? undefined : SCRATCH_NEEDED;
  if (ops.some((o) => o.resource === resource)) return { kind: 'not-shown', text: `no operation creates ${resource}` };
  return { kind: 'not-shown', text: `${resource}: no path shown (§1 names them only)` };
}

/** Views that show a resource's records without knowing their ids: where a record a refused request made would be found. */
const findable = (ops: readonly Operation[], resource: string) => viewsOf(resource, ops).some((v) => ['list', 'filter', 'entity', 'q'].includes(v.kind));

const isCreate = (o: Operation) => o.kind === 'create';
const changeCheck = (o: Operation) => (isCreate(o) ? titles.createFilled(o.op) : titles.patchEach(o.op));

// --- fields ------------------------------------------------------------------------------------

/** Why a field is not written by the field checks, or undefined when it is. */
function fieldReason(o: Operation, f: Field, settings: Pick<Settings, 'scratchProjects'>): CellReason | undefined {
  if (f.name === 'id') return { kind: 'not-shown', text: 'an id the server assigns: a request names none of its own' };
  if (f.items === 'unknown') return { kind: 'not-shown', text: `element shape not shown (§2)` };
  if (o.resource === 'projects' && (STATE_FIELDS as readonly string[]).includes(f.name)) {
    return { kind: 'elsewhere', text: 'a §3 transition: state.check.ts writes it in each form the document leaves open, on scratch projects' };
  }
  if (o.resource === 'projects' && !settings.scratchProjects.length) return SCRATCH_NEEDED;
  return undefined;
}

/**
 * Why a field is not sent as null or with a value of another type: fewer reasons than for writing
 * it, since neither needs the element shape of an array, nor a §3 transition (a refusal, or a
 * clearing the views agree on, is what the field checks judge; on scratch projects only).
 */
function oddValueReason(o: Operation, f: Field, settings: Pick<Settings, 'scratchProjects'>): CellReason | undefined {
  const why = fieldReason(o, f, settings);
  if (!why || f.name === 'id') return why;
  if (o.resource === 'projects' && !settings.scratchProjects.length) return SCRATCH_NEEDED;
  return undefined;
}

function fieldCells(o: Operation, settings: Pick<Settings, 'scratchProjects'>, ops: readonly Operation[]): CellPlan[] {
  const out: CellPlan[] = [];
  const cell = (f: Field, aspect: string, check: string, reason?: CellReason) =>
    out.push({ dimension: 'fields', subject: o.op, aspect: `${f.path} ${aspect}`, check, ...(reason ? { reason } : {}) });
  for (const f of allFields(o.fields)) {
    const why = fieldReason(o, f, settings);
    if (f.references) {
      // a reference to resources no operation serves (a project's primary contact) names nothing a run can make or miss
      const served = f.references.some((r) => ops.some((x) => x.resource === r));
      const probe = served ? titles.otherTeamReference(o.op) : changeCheck(o);
      for (const r of f.references) {
        const cannot = why ?? makeable(ops, settings, r);
        cell(f, `reference own ${r}`, changeCheck(o), cannot);
        // another team's record is read from that team's list, never made: only a resource no operation serves is out of reach
        cell(f, `reference other team ${r}`, probe, why ?? (ops.some((x) => x.resource === r) ? undefined : cannot));
      }
      cell(f, 'reference missing', probe, why ?? (served ? undefined : makeable(ops, settings, f.references[0]!)));
    } else cell(f, 'filled', changeCheck(o), why);
    // an enumerated type names the resource of the record it goes with (§2 entity_type)
    for (const v of f.enum ?? []) cell(f, `value ${v}`, titles.values(o.op), why ?? (f.name.endsWith('_type') ? makeable(ops, settings, `${v}s`) : undefined));
    for (const v of f.examples ?? []) cell(f, `value ${v}`, changeCheck(o), why);
    if (isCreate(o) && !f.required && !f.path.includes('[]')) cell(f, 'omitted', titles.createRequired(o.op), why);
    if (o.kind === 'patch') cell(f, 'kept when unnamed', titles.patchEach(o.op), why);
    // a multipart field has no check of its own for these: the create's records that it has none
    const odd = oddValueReason(o, f, settings);
    cell(f, 'null', o.multipart ? changeCheck(o) : titles.nulls(o.op), o.multipart ? MULTIPART_TEXT : odd);
    cell(f, 'wrong type', o.multipart ? changeCheck(o) : titles.wrongType(o.op), o.multipart ? MULTIPART_TEXT : odd);
  }
  return out;
}

// --- refusals, views, retries ------------------------------------------------------------------

/** What the refusal table says of an operation and a refusal: its check, or a reason the surface shows. */
function refusalPlan(o: Operation, r: Refusal, ops: readonly Operation[]): Pick<CellPlan, 'check' | 'reason'> {
  const row = REFUSAL_ROWS.find((m) => m.op === o.op);
  if (row?.refusals.includes(r)) return { check: titles.refused(row.name, r) };
  // the check that records a cell its own refusal check does not run: any table check of the operation
  const owner = row ? titles.refused(row.name, row.refusals[0]!) : o.fields.length ? changeCheck(o) : o.resource === 'intake' ? titles.intake : undefined;
  const because = (reason: CellReason) => ({ ...(owner ? { check: owner } : {}), reason });
  // a refused capture is seen through the intake's own deduplication: the same thread captured then is new (intake.check.ts)
  if (o.resource === 'intake' && r !== 'cross-team') return { check: titles.intakeRefused };
  if (o.resource === 'intake') return because({ kind: 'not-shown', text: "the request names no record: there is no other team's record to aim it at" });
  if (r === 'cross-team' && !o.path.includes('{id}') && !o.fields.some((f) => f.references)) {
    return because({ kind: 'not-shown', text: "the request names no record: there is no other team's record to aim it at" });
  }
  if (r === 'invalid-body' && !o.body) return because({ kind: 'not-shown', text: 'no JSON body: no field can have the wrong type' });
  if (r === 'reused-key' && o.kind === 'delete') {
    return because({
      kind: 'not-shown',
      text: "a DELETE's other request is another path, and how far a key reaches (one operation, or one method and path) is not shown",
    });
  }
  if (isCreate(o) && !findable(ops, o.resource)) {
    return because({ kind: 'unobservable', text: `a refused ${o.op} leaves nothing a client can look for: no view lists ${o.resource}` });
  }
  return {};
}

function viewCells(o: Operation, ops: readonly Operation[], settings: Pick<Settings, 'scratchProjects'>): CellPlan[] {
  const views = viewsOf(o.resource, ops);
  const check = isCreate(o) || o.kind === 'patch' ? changeCheck(o) : o.kind === 'delete' ? titles.deleted(o.op) : undefined;
  if (!views.length) {
    return [{
      dimension: 'views',
      subject: o.op,
      aspect: '(none)',
      check: o.resource === 'intake' ? titles.intake : check,
      reason: { kind: 'unobservable', text: `no operation shows ${o.resource}` },
    }];
  }
  const cannot = o.resource === 'projects' && !settings.scratchProjects.length ? SCRATCH_NEEDED : undefined;
  return views.map((v) => ({ dimension: 'views', subject: o.op, aspect: v.name, check, ...(cannot ? { reason: cannot } : {}) }));
}

function retryCells(o: Operation, settings: Pick<Settings, 'scratchProjects'>): CellPlan[] {
  if (o.resource === 'intake') {
    const reason: CellReason = { kind: 'elsewhere', text: 'a repeat capture answers the existing item with 200 (intake.check.ts)' };
    return ['same key', 'other team key'].map((aspect) => ({ dimension: 'retries', subject: o.op, aspect, check: titles.intake, reason }));
  }
  const cannot = o.resource === 'projects' && !settings.scratchProjects.length ? { reason: SCRATCH_NEEDED } : {};
  return [
    { dimension: 'retries', subject: o.op, aspect: 'same key', check: titles.retry(o.op), ...cannot },
    { dimension: 'retries', subject: o.op, aspect: 'other team key', check: titles.otherTeamKey(o.op), ...cannot },
  ];
}

// --- walks and cursors -------------------------------------------------------------------------

export type Order = 'asc' | 'desc' | undefined;
export const ORDERS: readonly Order[] = [undefined, 'asc', 'desc'];
export const orderName = (o: Order) => o ?? 'default';
export const sortName = (s: string | undefined) => s ?? 'default';

/** The list views a walk reads: every list, filter and entity list. */
export function listViews(ops: readonly Operation[]): View[] {
  return [...new Set(ops.map((o) => o.resource))].flatMap((r) =>
    viewsOf(r, ops).filter((v) => v.kind === 'list' || v.kind === 'filter' || v.kind === 'entity')
  );
}

/** The sort fields a list is walked with: the default (no sort parameter), then those the settings name. */
export function sortsOf(settings: Pick<Settings, 'sortFields'>, op: Pick<Operation, 'resource'>): (string | undefined)[] {
  return [undefined, ...((settings.sortFields as Partial<Record<string, string[]>>)[op.resource as ListResource] ?? [])];
}

/** Why a run cannot give records equal values of a sort field, or undefined when it can (a field its requests write, of records it can make). */
export function tieReason(
  ops: readonly Operation[],
  settings: Pick<Settings, 'scratchProjects'>,
  resource: string,
  sort: string | undefined,
): CellReason | undefined {
  if (sort === undefined) return { kind: 'not-shown', text: 'the default sort field is not shown: records tie on it by chance only' };
  const written = ops.filter((o) => o.resource === resource && (o.kind === 'create' || o.kind === 'patch')).some((o) => o.fields.some((f) => f.name === sort));
  if (!written) return { kind: 'unobservable', text: `no request writes ${sort}: records tie on it by chance only` };
  return makeable(ops, settings, resource);
}

function walkCells(ops: readonly Operation[], settings: Pick<Settings, 'sortFields' | 'scratchProjects'>): CellPlan[] {
  const out: CellPlan[] = [];
  for (const v of listViews(ops)) {
    const op = ops.find((o) => o.op === v.op)!;
    for (const sort of sortsOf(settings, op)) {
      for (const order of ORDERS) {
        out.push({ dimension: 'walks', subject: v.name, aspect: `sort=${sortName(sort)} order=${orderName(order)}`, check: titles.walks });
      }
      if (v.kind !== 'list') continue;
      const reason = tieReason(ops, settings, op.resource, sort);
      out.push({ dimension: 'walks', subject: v.name, aspect: `ties on ${sortName(sort)}`, check: titles.ties, ...(reason ? { reason } : {}) });
    }
  }
  return out;
}

/** A cursor's source (the sort and order it was issued for) and what it is then used with. */
export interface CursorUse {
  from: { sort: string | undefined; order: Order; };
  to: { sort: string | undefined; order: Order; };
}

/**
 * For each source (every sort, the default included, in every order, the default included): each
 * other order with the same sort, and the same order with the default sort swapped for the first
 * sort the settings name (or that one for the default): the pairs where one side may be a default
 * the other names, and those that differ outright.
 */
export function cursorUses(sorts: readonly (string | undefined)[]): CursorUse[] {
  const out: CursorUse[] = [];
  for (const sort of sorts) {
    for (const order of ORDERS) {
      for (const other of ORDERS) if (other !== order) out.push({ from: { sort, order }, to: { sort, order: other } });
      const swapped = sort === undefined ? sorts[1] : undefined;
      if (sorts.length > 1 && swapped !== sort) out.push({ from: { sort, order }, to: { sort: swapped, order } });
    }
  }
  return out;
}

export const cursorAspect = (u: CursorUse) =>
  `from sort=${sortName(u.from.sort)} order=${orderName(u.from.order)} to sort=${sortName(u.to.sort)} order=${orderName(u.to.order)}`;

/** The list endpoints that issue cursors (a filter aside: the document binds a cursor to its sort and order only). */
export function cursorViews(ops: readonly Operation[]): View[] {
  return listViews(ops).filter((v) => v.kind === 'list' || v.kind === 'entity');
}

function cursorCells(ops: readonly Operation[], settings: Pick<Settings, 'sortFields'>): CellPlan[] {
  return cursorViews(ops).flatMap((v) =>
    cursorUses(sortsOf(settings, ops.find((o) => o.op === v.op)!)).map((u): CellPlan => ({
      dimension: 'cursors',
      subject: v.name,
      aspect: cursorAspect(u),
      check: titles.cursors,
    }))
  );
}

// --- the whole table ---------------------------------------------------------------------------

/** Every cell of a surface. */
export function coverageTable(ops: readonly Operation[], settings: TableSettings): CellPlan[] {
  const mutating = ops.filter((o) => o.method !== 'get');
  return [
    ...mutating.flatMap((o) => fieldCells(o, settings, ops)),
    ...mutating.flatMap((o) => REFUSALS.map((r): CellPlan => ({ dimension: 'refusals', subject: o.op, aspect: r, ...refusalPlan(o, r, ops) }))),
    ...mutating.flatMap((o) => viewCells(o, ops, settings)),
    ...mutating.flatMap((o) => retryCells(o, settings)),
    ...walkCells(ops, settings),
    ...cursorCells(ops, settings),
  ];
}

const tables = new WeakMap<object, CellPlan[]>();

/** The table of the target the settings describe (built once per settings). */
export function targetTable(settings: TableSettings): CellPlan[] {
  let t = tables.get(settings);
  if (!t) tables.set(settings, t = coverageTable(servedOperations(settings), settings));
  return t;
}

/** The cells a check records (its `cells` option): those naming its title, for one row when `subject` is given. */
export function cellsOf(title: string, subject?: string): (settings: TableSettings) => CellPlan[] {
  return (settings) => targetTable(settings).filter((c) => c.check === title && (subject === undefined || c.subject === subject));
}
