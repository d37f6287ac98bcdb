// Faults generated over the API's surface (specs/surface.ts): its request fields, references,
// nullable fields, list filters and sort fields, and its mutating operations. Each family breaks
// one rule in one place — a field, an operation, a list, an order — so the self-test proves the
// suite checks every field, operation and list, not only the first it met: a PATCH that applies
// another team's reference in one field, drops one optional field it does not name, keeps a
// nullable field sent null, takes a null for a field not typed nullable, or answers a null it does
// not store; a list whose tie-break breaks in
// one order, whose filter is dropped beside a sort, or that ignores the order beside a sort; a
// cursor of the default sort taken for any sort; a key ignored on a retry, or shared across teams,
// on one operation; text that loses the characters beyond the Basic Multilingual Plane.
import { listResources } from '../../contract/settings.js';
import { schema, type SchemaName } from '../../specs/index.js';
import { type Operation, operations } from '../../specs/surface.js';
import type { AppContext } from '../reference/context.js';
import type { Exchange } from '../reference/exchange.js';
import type { Hooks } from '../reference/hooks.js';
import type { Claim } from '../reference/idempotency-store.js';
import { SORT_FIELDS } from '../reference/lists.js';
import { CHOSEN_PATHS } from '../reference/openapi.js';
import type { Row } from '../reference/store.js';
import type { Fault } from './fault.js';
import { editCursor, reissued, sortFieldsOf, viewsOf } from './lists.js';
import { letThrough } from './refusals.js';
import { afterWrite } from './writes.js';

/** The operations the mock serves, read through the surface (the document's and its chosen paths). */
const served = (): Operation[] => operations(CHOSEN_PATHS);

export const referenceAccepted = (op: string, field: string) => `reference-accepted:${op}:${field}` as const;
export const patchDropsOptional = (op: string, field: string) => `patch-drops-optional:${op}:${field}` as const;
export const nullableNullKept = (op: string, field: string) => `nullable-null-kept:${op}:${field}` as const;
/** What an odd value sent for a field is: null for a field typed non-null, or a value of another type. */
export type OddValue = 'null' | 'wrong-type';
export const answeredNotStored = (kind: OddValue, op: string) => `answered-not-stored:${kind}:${op}` as const;
export const nullAccepted = (op: string, field: string) => `null-accepted:${op}:${field}` as const;
export const tieBreakBroken = (op: string, order: 'asc' | 'desc') => `tie-break-broken:${op}:${order}` as const;
export const filterDroppedWhenSorted = (view: string) => `filter-dropped-when-sorted:${view}` as const;
export const orderIgnoredWhenSorted = (op: string) => `order-ignored-when-sorted:${op}` as const;
export const defaultCursorAnySort = (op: string) => `default-cursor-any-sort:${op}` as const;
export const keyIgnored = (op: string) => `key-ignored:${op}` as const;
export const keyAcrossTeams = (op: string) => `key-across-teams:${op}` as const;
export const astralDropped = (op: string) => `astral-dropped:${op}` as const;

export type SurfaceFaultName = ReturnType<
  | typeof referenceAccepted
  | typeof patchDropsOptional
  | typeof nullableNullKept
  | typeof answeredNotStored
  | typeof nullAccepted
  | typeof tieBreakBroken
  | typeof filterDroppedWhenSorted
  | typeof orderIgnoredWhenSorted
  | typeof defaultCursorAnySort
  | typeof keyIgnored
  | typeof keyAcrossTeams
  | typeof astralDropped
>;

const mine = (op: string) => (ex: Exchange | undefined) => ex?.operationId === op;

/** The fields of a record schema it cannot lack. */
const requiredOf = (o: Operation): Set<string> => new Set(o.record ? ((schema(o.record as SchemaName) as { required?: string[]; }).required ?? []) : []);

/** §3 state fields of projects: their PATCH is a transition with rules of its own (state.check.ts). */
const STATE = new Set(['status', 'archived_at', 'closed_at', 'close_reason', 'close_reason_category']);

/** A claim that holds nothing: the key is not held, and the answer not kept. */
const NO_CLAIM: Claim = { kind: 'claimed', complete() {}, release() {} };

/** Characters beyond the Basic Multilingual Plane (emoji) removed, as a utf8mb3 column does. */
const bmpOnly = (v: unknown): unknown =>
  typeof v === 'string'
    ? v.replace(/[\u{10000}-\u{10FFFF}]/gu, '')
    : Array.isArray(v)
    ? v.map(bmpOnly)
    : v && typeof v === 'object'
    ? Object.fromEntries(Object.entries(v as Row).map(([k, x]) => [k, bmpOnly(x)]))
    : v;

function referenceFaults(ops: readonly Operation[]): Fault[] {
  return ops.filter((o) => o.method !== 'get').flatMap((o) =>
    // a reference to a resource no operation serves (a project's primary contact) names nothing a run can make
    o.fields.filter((f) => f.references?.some((r) => ops.some((x) => x.resource === r))).map((f): Fault => ({
      name: referenceAccepted(o.op, f.name),
      requirements: ['ISO-REFERENCE-OTHER-TEAM-AS-MISSING'],
      description: `${o.op} takes another team's record in ${f.name} (the other references, and other operations, are checked)`,
      shape: 'full',
      hooks: () => ({
        lookup: (ex, find, next) =>
          !mine(o.op)(ex) || find.access !== 'reference' || find.field !== f.name ? next() : letThrough(next, (err) => {
            const other = find.collection.find(find.id);
            if (!other || other.team === ex.principal.team) throw err;
            return other;
          }),
      }),
    }))
  );
}

function patchFaults(ops: readonly Operation[]): Fault[] {
  const out: Fault[] = [];
  for (const o of ops.filter((x) => x.kind === 'patch')) {
    const required = requiredOf(o);
    for (const f of o.fields.filter((x) => !required.has(x.name) && !STATE.has(x.name) && x.name !== 'id')) {
      out.push({
        name: patchDropsOptional(o.op, f.name),
        requirements: ['EP-PATCH-PARTIAL'],
        description: `${o.op} drops ${f.name} when the PATCH does not name it`,
        shape: 'full',
        hooks: (ctx) => ({
          handle: afterWrite(ctx, mine(o.op), ({ entry }, ex) => {
            if (f.name in ex.body || !(f.name in entry.row)) return undefined;
            const { [f.name]: _dropped, ...rest } = entry.row;
            return { row: rest as Row };
          }),
        }),
      });
    }
    for (const f of o.fields.filter((x) => x.nullable)) {
      out.push({
        name: nullableNullKept(o.op, f.name),
        requirements: ['EP-PATCH-PERSISTS'],
        description: `${o.op} keeps ${f.name} as it was when it is sent null, though its type allows null`,
        shape: 'full',
        hooks: () => ({
          handle: (ex, next) => {
            if (mine(o.op)(ex) && ex.body[f.name] === null) {
              const { [f.name]: _ignored, ...rest } = ex.body;
              ex.body = rest;
            }
            return next();
          },
        }),
      });
    }
  }
  return out;
}

/** The JSON type of a value, in the names of a schema's `type`. */
const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v);

/** Whether a value is odd for a field: null where null is not typed, or of a type the field does not take. */
function odd(kind: OddValue, types: readonly string[], v: unknown): boolean {
  if (kind === 'null') return v === null && !types.includes('null');
  return v !== null && v !== undefined && !types.includes(jsonType(v)) && !(jsonType(v) === 'number' && types.includes('integer'));
}

/**
 * Hooks that let a request's odd values past the body check, store the record without them (a
 * create's defaults, a PATCH's fields as they were) and answer them applied: null as cleared, a
 * value of another type as sent.
 */
function answeredNotStoredHooks(ctx: AppContext, o: Operation, kind: OddValue): Hooks {
  const kept = new WeakMap<Exchange, Record<string, unknown>>();
  const typesOf = new Map(o.fields.map((f) => [f.name, f.types]));
  return {
    validate: (ex, next) => {
      const fields = mine(o.op)(ex) ? Object.keys(ex.body).filter((k) => typesOf.has(k) && odd(kind, typesOf.get(k)!, ex.body[k])) : [];
      if (!fields.length) return next();
      kept.set(ex, Object.fromEntries(fields.map((k) => [k, ex.body[k]])));
    },
    handle: afterWrite(ctx, (ex) => {
      const sent = kept.get(ex);
      if (sent) ex.body = Object.fromEntries(Object.entries(ex.body).filter(([k]) => !(k in sent)));
      return sent !== undefined;
    }, ({ result }, ex) => {
      const body = JSON.parse(String(result.json)) as Row;
      for (const [k, v] of Object.entries(kept.get(ex) ?? {})) {
        if (kind === 'null') delete body[k];
        else body[k] = v;
      }
      return { answer: { ...result, json: JSON.stringify(body) } };
    }),
  };
}

/**
 * A null taken for one field §2 does not type as nullable, on one create or PATCH: left out of the
 * body before it is checked, so the write goes on without the field (the request is answered as
 * if the field had not been sent). Over every such field of every JSON write but the fields a
 * create requires.
 */
function nullAcceptedFaults(ops: readonly Operation[]): Fault[] {
  return ops.filter((o) => (o.kind === 'create' || o.kind === 'patch') && o.body && !o.multipart).flatMap((o) =>
    // a field the create requires, left out, is refused as missing: no fault to show there
    o.fields.filter((f) => !f.nullable && !f.required && f.name !== 'id').map((f): Fault => ({
      name: nullAccepted(o.op, f.name),
      requirements: ['RES-NON-NULL-WRITE-REFUSED'],
      description: `${o.op} takes null for ${f.name}, which §2 does not type as nullable, instead of refusing it`,
      shape: 'full',
      hooks: () => ({
        validate: (ex, next) => {
          if (mine(o.op)(ex) && ex.body[f.name] === null) {
            const { [f.name]: _taken, ...rest } = ex.body;
            ex.body = rest;
          }
          next();
        },
      }),
    }))
  );
}

function oddValueFaults(ops: readonly Operation[]): Fault[] {
  // over the resources a run can create (a project the run did not make is put back by the ledger)
  const checked = ops.filter((o) => (o.kind === 'create' || o.kind === 'patch') && o.body && ops.some((x) => x.resource === o.resource && x.kind === 'create'));
  return checked.flatMap((o) =>
    (['null', 'wrong-type'] as const).map((kind): Fault => ({
      name: answeredNotStored(kind, o.op),
      requirements: [o.kind === 'create' ? 'EP-CREATE-PERSISTS' : 'EP-PATCH-PERSISTS', ...(kind === 'null' ? ['RES-NON-NULL-WRITE-REFUSED'] : [])],
      description: `${o.op} takes ${
        kind === 'null' ? 'null for a field typed non-null' : 'a value of another type'
      } and answers it applied, but stores the record without it`,
      shape: 'full',
      hooks: (ctx) => answeredNotStoredHooks(ctx, o, kind),
    }))
  );
}

/** Fields a request of the resource writes: a sort field among them gives records a run can tie on. */
const written = (ops: readonly Operation[], resource: string) =>
  new Set(ops.filter((o) => o.resource === resource && (o.kind === 'create' || o.kind === 'patch')).flatMap((o) => o.fields.map((f) => f.name)));

/** The mock's sort fields of a list resource (the first is its default). */
const sortsOf = (resource: string): readonly string[] => (SORT_FIELDS as Record<string, readonly string[] | undefined>)[resource] ?? [];

function listFaults(ops: readonly Operation[]): Fault[] {
  const out: Fault[] = [];
  for (const l of ops.filter((o) => o.kind === 'list')) {
    const isMine = mine(l.op);
    const explicitSort = (ex: Exchange) => typeof ex.query.sort === 'string' && ex.query.sort !== '';
    // ties: only on a sort field a request writes (records the server stamps tie by chance)
    const tieable = sortsOf(l.resource).some((s) => written(ops, l.resource).has(s));
    // a sort parameter: only on the lists a run's settings name sort fields of (CONFORMANCE_SORT_FIELDS)
    const sortable = (listResources as readonly string[]).includes(l.resource);
    for (const order of tieable ? (['asc', 'desc'] as const) : []) {
      out.push({
        name: tieBreakBroken(l.op, order),
        requirements: ['LIST-WALK-EVERY-RECORD-ONCE'],
        description: `${l.op} in order ${order}: the page after a cursor starts after every record sharing its sort value, skipping the rest of a tie`,
        shape: 'full',
        hooks: () => ({
          list: (ex, plan) => {
            const after = plan.query.after;
            if (!isMine(ex) || plan.query.order !== order || !after) return plan;
            return { ...plan, query: { ...plan.query, after: { ...after, i: order === 'asc' ? '\uffff' : '' } } };
          },
        }),
      });
    }
    if (!sortable) continue;
    for (const f of l.filters.filter((x) => x.references && !x.required)) {
      const view = `${l.op}?${f.name}`;
      out.push({
        name: filterDroppedWhenSorted(view),
        requirements: [f.name === 'project_id' ? 'LIST-FILTER-PROJECT-ID' : 'LIST-FILTER-EMPLOYEE-ID'],
        description: `${l.op} drops its ${f.name} filter when a sort is given`,
        shape: 'full',
        hooks: () => ({
          list: (ex, plan) =>
            isMine(ex) && explicitSort(ex) && viewsOf(ex).includes(view)
              ? { ...plan, source: { ...plan.source, filters: plan.source.filters.filter((x) => x.field !== f.name) } }
              : plan,
        }),
      });
    }
    out.push({
      name: orderIgnoredWhenSorted(l.op),
      requirements: ['LIST-ORDER'],
      description: `${l.op} walks in ascending order whatever order says, when a sort is given`,
      shape: 'full',
      hooks: () => ({ list: (ex, plan) => (isMine(ex) && explicitSort(ex) ? { ...plan, query: { ...plan.query, order: 'asc' } } : plan) }),
    });
    // a cursor of the default sort read under a sort of another kind (a name, not a timestamp) leads elsewhere
    if (!sortsOf(l.resource).some((s) => !s.endsWith('_at'))) continue;
    out.push({
      name: defaultCursorAnySort(l.op),
      requirements: ['LIST-CURSOR-OTHER-SORT'],
      description: `${l.op} takes a cursor issued for its default sort with any other sort given`,
      shape: 'full',
      hooks: (ctx) => ({
        handle: editCursor(ctx, (ex) => isMine(ex) && explicitSort(ex), (c, ex, cursor) => {
          const sorts = sortFieldsOf(c, l.op);
          const p = c.codec.decode(cursor);
          return p && p.s === sorts[0] && ex.query.sort !== sorts[0] ? reissued(c, cursor, (x) => ({ ...x, s: String(ex.query.sort) })) : cursor;
        }),
      }),
    });
  }
  return out;
}

function keyFaults(ops: readonly Operation[]): Fault[] {
  const out: Fault[] = [];
  for (const o of ops.filter((x) => x.method !== 'get' && x.resource !== 'intake')) {
    if (o.kind !== 'create') {
      out.push({
        name: keyIgnored(o.op),
        requirements: ['IDEM-REPLAY'],
        description: `${o.op} ignores its idempotency key: a retry runs again`,
        shape: 'full',
        hooks: () => ({ idempotency: { claim: async (ex, _scope, _key, next) => (mine(o.op)(ex) ? NO_CLAIM : next()) } }),
      });
    }
    out.push({
      name: keyAcrossTeams(o.op),
      requirements: ['ISO-IDEMPOTENCY-PER-TEAM'],
      description: `${o.op} holds idempotency keys for every team and every request: another team's request with a key this team used gets this team's answer`,
      shape: 'full',
      hooks: () => ({
        idempotency: {
          scope: (ex, scope) => (mine(o.op)(ex) ? scope.filter((part) => part !== ex.principal.team) : scope),
          fingerprint: (ex, parts) => (mine(o.op)(ex) ? [] : parts),
        },
      }),
    });
  }
  return out;
}

function textFaults(ops: readonly Operation[]): Fault[] {
  return ops.filter((o) => (o.kind === 'create' || o.kind === 'patch') && (o.body || o.multipart)).map((o): Fault => ({
    name: astralDropped(o.op),
    requirements: [o.kind === 'create' ? 'EP-CREATE-PERSISTS' : 'EP-PATCH-PERSISTS'],
    description: `${o.op} stores text without the characters beyond the Basic Multilingual Plane (emoji), as a utf8mb3 column does`,
    shape: 'full',
    hooks: () => ({
      handle: (ex, next) => {
        if (mine(o.op)(ex) && !o.multipart) ex.body = bmpOnly(ex.body) as Row;
        return next();
      },
      received: async (ex, upload) =>
        mine(o.op)(ex) && upload.file ? { ...upload, file: { ...upload.file, filename: String(bmpOnly(upload.file.filename)) } } : upload,
    }),
  }));
}

/** Every fault of the surface's families. */
export function surfaceFaults(): Fault[] {
  const ops = served();
  return [
    ...referenceFaults(ops),
    ...patchFaults(ops),
    ...oddValueFaults(ops),
    ...nullAcceptedFaults(ops),
    ...listFaults(ops),
    ...keyFaults(ops),
    ...textFaults(ops),
  ];
}
