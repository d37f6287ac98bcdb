// Faults generated over the endpoint table (specs/openapi/operations.ts and the mock's chosen
// paths), so a new endpoint gets its faults without anyone writing them: for every mutating
// endpoint whose effect some view shows, each way a request can be refused is also a way a buggy
// server applies it anyway; every list and filter can keep deleted records, ignore limit after
// the first page, repeat a record across a page boundary or break a cursor rule on its own, or
// leak another team's records through a channel; every record kind can lose a field its schema
// requires; every write can answer or store the wrong thing. Each family is a generator of faults
// and their hooks. The self-test (suites/self/faults.test.ts) proves each is detected.
import { schema } from '../../specs/index.js';
import { parameters } from '../../specs/openapi/components.js';
import { type Endpoint, endpoints } from '../../specs/openapi/operations.js';
import { collectionOf, type Refusal, REFUSALS, resource, resources } from '../../specs/registry.js';
import { requirements } from '../../specs/requirements.js';
import { ALL_SCOPES } from '../reference/auth.js';
import type { AppContext } from '../reference/context.js';
import type { Exchange } from '../reference/exchange.js';
import type { Hooks } from '../reference/hooks.js';
import type { Claim } from '../reference/idempotency-store.js';
import { cursorAfter, type CursorPayload } from '../reference/pagination.js';
import { compareKeys, type Row, type TeamId } from '../reference/store.js';
import type { Fault } from './fault.js';
import { CURSOR_RULES, type CursorRule, editCursor, fromEveryTeam, Removed, viewsOf } from './lists.js';
import { editRecords, RECORD_KINDS, type RecordKind, shown } from './records.js';
import { answerKeptRefusal, keepRefusal, letThrough, TEAM_A } from './refusals.js';
import { type SurfaceFaultName, surfaceFaults } from './surface-families.js';
import { afterWrite, before } from './writes.js';

export { type Refusal, REFUSALS };

/** Requirement ids a run must report failed when a refused request is applied anyway. */
const refusalRequirements = {
  'cross-team': ['ISO-MUTATE-OTHER-TEAM-NO-EFFECT'],
  'read-only': ['AUTH-READ-ONLY-KEY-NO-WRITE'],
  'no-key': ['AUTH-BEARER-REQUIRED'],
  'invalid-body': ['EP-INVALID-BODY-NO-EFFECT'],
  'reused-key': ['IDEM-REPLAY'],
} as const satisfies Record<Refusal, readonly string[]>;

const refusalWords = {
  'cross-team': "aimed at another team's record (or naming one)",
  'read-only': 'sent with a key without the write scope',
  'no-key': 'sent without a key',
  'invalid-body': 'whose body has a field of the wrong type',
  'reused-key': 'reusing an idempotency key with another request',
} as const satisfies Record<Refusal, string>;

/** Mutating endpoints beyond the table of shown paths: the file delete (path chosen by the mock). */
const chosen: Pick<Endpoint, 'method' | 'path' | 'operationId'>[] = [{ method: 'delete', path: '/files/{id}', operationId: 'deleteFile' }];

/** Effects no view of the document shows: a created employee nobody references, a file without its id, a capture. */
const UNOBSERVABLE = new Set(['createEmployee', 'uploadFile', 'createCapture']);

const referencesRecords = (e: Pick<Endpoint, 'json' | 'multipart'>) =>
  e.multipart
    ? 'entity_id' in ((e.multipart as { properties?: object; }).properties ?? {})
    : e.json === 'AssignmentCreate';

/** (operation, refusal) pairs whose applied-anyway effect some view shows. */
export function refusalCases(): { op: string; refusal: Refusal; }[] {
  const mutating = [...endpoints.filter((e) => e.method !== 'get'), ...chosen].filter((e) => !UNOBSERVABLE.has(e.operationId));
  return mutating.flatMap((e) =>
    REFUSALS.filter((r) => {
      if (r === 'cross-team') return e.path.includes('{id}') || referencesRecords(e as Endpoint);
      if (r === 'invalid-body') return (e as Endpoint).json !== undefined;
      // A DELETE's other request is another path, which a deployment may key apart (suites/harness/mutations.ts DELETES).
      if (r === 'reused-key') return e.method !== 'delete';
      return true;
    }).map((refusal) => ({ op: e.operationId, refusal }))
  );
}

export const appliedWhenRefused = (refusal: Refusal, op: string) => `applied-when-refused:${refusal}:${op}` as const;

/** The hooks that let one refusal of one operation through, then answer it in place of the result. */
function refusedButApplied(refusal: Refusal, op: string, ctx: AppContext): Hooks {
  const mine = (ex: Exchange | undefined) => ex?.operationId === op;
  const respond = answerKeptRefusal;
  switch (refusal) {
    case 'cross-team':
      return {
        respond,
        lookup: (ex, find, next) =>
          !mine(ex) || find.access === 'read' ? next() : letThrough(next, (err) => {
            const other = find.collection.find(find.id);
            if (!other || other.team === ex.principal.team) throw err;
            keepRefusal(ex, err);
            return other;
          }),
      };
    case 'read-only':
    case 'no-key':
      return {
        respond,
        authenticate: (ex, next) =>
          !mine(ex) ? next() : letThrough(next, (err) => {
            const own = ctx.auth.principalOf(ex.headers.authorization);
            const lifted = refusal === 'no-key' && err.code === 'unauthorized'
              ? TEAM_A(ALL_SCOPES)
              : refusal === 'read-only' && err.code === 'forbidden' && own
              ? { ...own, scopes: new Set(ALL_SCOPES) }
              : undefined;
            if (!lifted) throw err;
            keepRefusal(ex, err);
            return lifted;
          }),
      };
    case 'invalid-body':
      return { respond, validate: (ex, next) => (!mine(ex) ? next() : letThrough(next, (err) => keepRefusal(ex, err))) };
    case 'reused-key':
      return {
        respond,
        idempotency: {
          reused: (ex, err) => {
            if (!mine(ex)) return 'refuse';
            keepRefusal(ex, err);
            return 'run';
          },
        },
      };
  }
}

/** Response schemas of records, and the fields each requires beyond id (whose loss has its own fault). */
const requirementIds = new Set(requirements.map((r) => r.id));
const shapeRequirement = (kind: RecordKind): string[] => [
  ...(requirementIds.has(`RES-${kind.toUpperCase()}-SHAPE`) ? [`RES-${kind.toUpperCase()}-SHAPE`] : []),
  'RES-INHERENT-FIELDS',
];

export function requiredFieldCases(): { kind: RecordKind; field: string; }[] {
  // a property holding another resource's embedded copy has faults of its own (the embedded record's)
  const embedded = (kind: RecordKind) =>
    new Set(resources().flatMap((r) => r.embeddedIn.filter((e) => e.parent === collectionOf(kind)).map((e) => e.property)));
  return RECORD_KINDS.flatMap((kind) =>
    ((schema(resource(collectionOf(kind)).record!) as { required?: string[]; }).required ?? [])
      .filter((f) => f !== 'id' && !embedded(kind).has(f))
      .map((field) => ({ kind, field }))
  );
}

export const requiredMissing = (kind: string, field: string) => `required-missing:${kind}.${field}` as const;

/** PATCH endpoints, for the families of a PATCH that answers or stores the wrong thing. */
const patchOps = () => endpoints.filter((e) => e.method === 'patch').map((e) => e.operationId);

export const patchAnswersOld = (op: string) => `patch-answers-old:${op}` as const;
export const patchDropsUnnamed = (op: string) => `patch-drops-unnamed:${op}` as const;
export const createStoresLess = (op: string) => `create-stores-less:${op}` as const;

/** Creates with an idempotency key, each of which can lose its in-flight lock. */
const createOps = () => endpoints.filter((e) => e.method === 'post').map((e) => e.operationId);
export const idempotencyRace = (op: string) => `idempotency-race:${op}` as const;
/** The race's common mend: each concurrent request creates its record, then answers the first one's stored response. */
export const idempotencyRaceHidden = (op: string) => `idempotency-race-hidden:${op}` as const;

/** Fields every record keeps, whatever a write does to it. */
const SERVER_FIELDS = ['id', 'created_at', 'updated_at'];

/** A claim that holds nothing: the key is not held while the request runs, and its answer is not kept. */
const NO_CLAIM: Claim = { kind: 'claimed', complete() {}, release() {} };

/** How long a request holds its key before it runs, under the race faults: the window in which concurrent requests meet. */
const RACE_WINDOW_MS = 20;
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A list endpoint: its operation, its resource's path, and its filters by query parameter name. */
interface ListEndpoint {
  op: string;
  path: string;
  idFilters: string[];
  requiredFilters: boolean;
  deletable: boolean;
  /** The API creates its records (a run can fill each of its filtered views). */
  creatable: boolean;
}

function listEndpoints(): ListEndpoint[] {
  const param = (component: string) => (parameters as Record<string, { name: string; required?: boolean; }>)[component]!;
  return endpoints.filter((e) => e.list).map((e) => {
    const filters = (e.filters ?? []).map(param);
    const isId = (p: (typeof filters)[number]) => p.name.endsWith('_id');
    return {
      op: e.operationId,
      path: e.path,
      idFilters: filters.filter(isId).map((p) => p.name),
      requiredFilters: filters.some((p) => p.required === true),
      deletable: endpoints.some((d) => d.method === 'delete' && d.path === `${e.path}/{id}`),
      creatable: endpoints.some((p) => p.method === 'post' && p.path === e.path),
    };
  });
}

export const cursorRuleBroken = (rule: CursorRule, op: string) => `${rule}:${op}` as const;
export const pageBoundaryRepeats = (view: string) => `page-boundary-repeats:${view}` as const;
export const deletedStillListed = (view: string) => `deleted-still-listed:${view}` as const;
export const limitIgnoredAfterFirstPage = (op: string) => `limit-ignored-after-first-page:${op}` as const;
export const leakSearch = (op: string) => `leak-search:${op}` as const;
export const leakCursor = (op: string) => `leak-cursor:${op}` as const;
export const leakFilter = (view: string) => `leak-filter:${view}` as const;

/** The names the families give their faults. */
export type FamilyFaultName =
  | SurfaceFaultName
  | ReturnType<
    | typeof appliedWhenRefused
    | typeof cursorRuleBroken
    | typeof pageBoundaryRepeats
    | typeof requiredMissing
    | typeof patchAnswersOld
    | typeof patchDropsUnnamed
    | typeof createStoresLess
    | typeof idempotencyRace
    | typeof idempotencyRaceHidden
    | typeof deletedStillListed
    | typeof limitIgnoredAfterFirstPage
    | typeof leakSearch
    | typeof leakCursor
    | typeof leakFilter
  >;

/** A page hook that starts each page after the first with the last item of the page before. */
export const repeatBoundary = (ctx: AppContext, when: (ex: Exchange) => boolean): NonNullable<Hooks['page']> => (ex, page, plan) => {
  const after = plan.query.after;
  if (!after || !when(ex)) return page;
  const last = plan.source.col.find(after.i);
  if (!last || page.items[0] === last) return page;
  const items = [last, ...page.items];
  if (items.length <= plan.query.limit) return { ...page, items };
  items.pop();
  return { items, hasMore: true, nextCursor: cursorAfter(ctx.codec, plan.query, items[items.length - 1]!) };
};

function listFaults(): Fault[] {
  const out: Fault[] = [];
  for (const l of listEndpoints()) {
    const mine = (ex: Exchange) => ex.operationId === l.op;
    out.push({
      name: limitIgnoredAfterFirstPage(l.op),
      requirements: ['LIST-LIMIT'],
      description: `${l.op} serves pages after the first at the default size, whatever limit says`,
      shape: 'full',
      hooks: (ctx) => ({
        list: (ex, plan) => (mine(ex) && plan.query.after ? { ...plan, query: { ...plan.query, limit: Number(ctx.readings.value('default-limit')) } } : plan),
      }),
    });
    // A page boundary broken on one list or filter alone: every view a run can fill past one page
    // (a filter of records the API cannot create may hold one record per value, and never page).
    for (const view of [...(l.requiredFilters ? [] : [l.op]), ...(l.creatable ? l.idFilters.map((f) => `${l.op}?${f}`) : [])]) {
      out.push({
        name: pageBoundaryRepeats(view),
        requirements: ['LIST-WALK-EVERY-RECORD-ONCE'],
        description: `${view.replace('?', ' filtered by ')} starts each page after the first with the last item of the page before`,
        shape: 'full',
        hooks: (ctx) => ({ page: repeatBoundary(ctx, (ex) => viewsOf(ex).includes(view)) }),
      });
    }
    // one list breaking a cursor rule while the others keep it: the suite must check every list
    for (const [rule, { requirements, words, edit }] of Object.entries(CURSOR_RULES) as [CursorRule, (typeof CURSOR_RULES)[CursorRule]][]) {
      out.push({
        name: cursorRuleBroken(rule, l.op),
        requirements,
        description: `${l.op} only: ${words}`,
        shape: 'full',
        hooks: (ctx) => ({ handle: editCursor(ctx, mine, edit) }),
      });
    }
    // a list every request narrows to one entity cannot show another team's records through q or a cursor
    if (!l.requiredFilters) {
      out.push({
        name: leakSearch(l.op),
        requirements: ['ISO-LIST-OWN-TEAM-ONLY'],
        description: `${l.op} with q searches every team's records`,
        shape: 'full',
        hooks: () => ({ list: fromEveryTeam((ex, plan) => mine(ex) && plan.query.q !== undefined) }),
      });
      out.push({
        name: leakCursor(l.op),
        requirements: ['ISO-LIST-OWN-TEAM-ONLY'],
        description: `${l.op} cursors carry the team they were issued to, and whoever follows one reads that team's records`,
        shape: 'full',
        hooks: (ctx) => ({
          list: (ex, plan) => {
            const issuedTo = (plan.query.after as (CursorPayload & { t?: TeamId; }) | undefined)?.t;
            return mine(ex) && issuedTo !== undefined ? { ...plan, team: issuedTo } : plan;
          },
          page: (ex, page, plan) =>
            mine(ex) && page.nextCursor ? { ...page, nextCursor: ctx.codec.encode({ ...ctx.codec.decode(page.nextCursor)!, t: plan.team } as never) } : page,
        }),
      });
    }
    for (const f of l.idFilters) {
      const view = `${l.op}?${f}`;
      out.push({
        name: leakFilter(view),
        requirements: ['ISO-LIST-OWN-TEAM-ONLY'],
        description: `${l.op} filtered by ${f} searches every team's records`,
        shape: 'full',
        hooks: () => ({ list: fromEveryTeam((ex) => viewsOf(ex).includes(view)) }),
      });
    }
    if (!l.deletable) continue;
    for (const view of [...(l.requiredFilters ? [] : [l.op, `${l.op}?q`]), ...l.idFilters.map((f) => `${l.op}?${f}`)]) {
      out.push({
        name: deletedStillListed(view),
        requirements: ['EP-DELETE-GONE'],
        description: `${view.replace('?', ' filtered by ')} keeps showing deleted records`,
        shape: 'full',
        hooks: (ctx) => keepsDeleted(ctx, l.path, (ex) => viewsOf(ex).includes(view)),
      });
    }
  }
  return out;
}

/** Hooks that keep the deleted records of the collection at `path` and show them in the lists `when` picks. */
function keepsDeleted(ctx: AppContext, path: string, when: (ex: Exchange) => boolean): Hooks {
  const removed = new Removed();
  const deleteOp = [...endpoints, ...chosen].find((e) => e.method === 'delete' && e.path === `${path}/{id}`)?.operationId;
  return {
    handle: async (ex, next) => {
      if (ex.operationId !== deleteOp) return next();
      const gone = before(ctx, ex);
      const result = await next();
      const col = ctx.store.collections[path.slice(1) as keyof typeof ctx.store.collections];
      if (gone && result.status < 300 && !col.get(gone.team, gone.row.id)) removed.add(col, gone);
      return result;
    },
    list: (ex, plan) => {
      if (!when(ex)) return plan;
      const kept = removed.of(plan.source.col, plan.team);
      if (kept.length === 0) return plan;
      const sort = plan.query.sort;
      const entries = [...plan.source.col.sorted(plan.team, sort).entries, ...kept].sort((x, y) => compareKeys(x.row[sort], x.row.id, y, sort));
      return { ...plan, entries };
    },
  };
}

/** Hooks of a create that answers the fields sent but stores only those its schema requires. */
function storesLess(ctx: AppContext, op: string): Hooks {
  return {
    handle: afterWrite(ctx, (ex) => ex.operationId === op, ({ entry, result, kind }) => {
      const keep = new Set([...SERVER_FIELDS, ...((schema(resource(collectionOf(kind)).record!) as { required?: string[]; }).required ?? [])]);
      const stored = Object.fromEntries(Object.entries(entry.row).filter(([k]) => keep.has(k))) as Row;
      ctx.store.collections[collectionOf(kind)].replace(entry, stored);
      return { answer: result };
    }),
  };
}

/** Hooks of an idempotency lock that lets concurrent requests through; `hidden`: each then answers the first one's stored response. */
function raceHooks(ctx: AppContext, op: string, hidden: boolean): Hooks {
  const raced = new WeakMap<Exchange, { scope: readonly string[]; key: string; }>();
  return {
    idempotency: {
      claim: async (ex, scope, key, next) => {
        if (ex.operationId !== op) return next();
        if (!hidden) {
          await pause(RACE_WINDOW_MS);
          return NO_CLAIM;
        }
        const claim = next();
        if (claim.kind === 'in-flight') {
          raced.set(ex, { scope, key });
          return NO_CLAIM;
        }
        await pause(RACE_WINDOW_MS);
        return claim;
      },
    },
    handle: async (ex, next) => {
      const own = await next();
      const held = raced.get(ex);
      if (!held) return own;
      for (let waited = 0; waited < 2_000; waited += 10) {
        const claim = ctx.idem.claim(held.scope, held.key, undefined);
        if (claim.kind === 'replay') return { ...claim.response, replayed: true };
        if (claim.kind === 'claimed') {
          claim.release();
          break;
        }
        await pause(10);
      }
      return own;
    },
  };
}

export function familyFaults(): Fault[] {
  const out: Fault[] = [];
  for (const { op, refusal } of refusalCases()) {
    out.push({
      name: appliedWhenRefused(refusal, op),
      requirements: [...refusalRequirements[refusal]],
      description: `${op} refuses a request ${refusalWords[refusal]} but applies it anyway`,
      shape: 'full',
      hooks: (ctx) => refusedButApplied(refusal, op, ctx),
    });
  }
  for (const { kind, field } of requiredFieldCases()) {
    out.push({
      name: requiredMissing(kind, field),
      requirements: shapeRequirement(kind),
      description: `every ${kind} is served without ${field}, which its schema requires`,
      shape: 'full',
      hooks: () => ({
        respond: editRecords(kind, (o) => {
          const { [field]: _dropped, ...rest } = o;
          return rest;
        }),
      }),
    });
  }
  for (const op of patchOps()) {
    out.push({
      name: patchAnswersOld(op),
      requirements: ['EP-PATCH-PARTIAL', 'EP-PATCH-PERSISTS'],
      description: `${op} stores the change but answers the record as it was`,
      shape: 'full',
      hooks: (ctx) => ({
        handle: afterWrite(ctx, (ex) => ex.operationId === op,
          ({ prior, kind, result }) => (prior ? { answer: { ...result, json: shown(ctx, kind, prior) } } : undefined)),
      }),
    });
    out.push({
      name: patchDropsUnnamed(op),
      requirements: ['EP-PATCH-PARTIAL'],
      description: `${op} replaces the record with the fields it names, dropping the others`,
      shape: 'full',
      hooks: (ctx) => ({
        handle: afterWrite(ctx, (ex) => ex.operationId === op, ({ entry }, ex) => ({
          row: Object.fromEntries(Object.entries(entry.row).filter(([k]) => SERVER_FIELDS.includes(k) || k in ex.body)) as Row,
        })),
      }),
    });
  }
  for (const op of createOps()) {
    out.push({
      name: idempotencyRace(op),
      requirements: ['IDEM-REPLAY'],
      description: `${op} has no in-flight lock: concurrent requests with one key each create a record`,
      shape: 'full',
      hooks: (ctx) => raceHooks(ctx, op, false),
    });
    // Only a list that shows the records can tell: an employee, a file or a capture has none.
    if (!UNOBSERVABLE.has(op)) {
      out.push({
        name: idempotencyRaceHidden(op),
        requirements: ['IDEM-REPLAY'],
        description: `${op} has no in-flight lock: concurrent requests with one key each create a record, then all answer the first one's response`,
        shape: 'full',
        hooks: (ctx) => raceHooks(ctx, op, true),
      });
    }
    out.push({
      name: createStoresLess(op),
      requirements: ['EP-CREATE-PERSISTS'],
      description: `${op} answers the fields sent but stores only those its schema requires`,
      shape: 'full',
      hooks: (ctx) => storesLess(ctx, op),
    });
  }
  return [...out, ...listFaults(), ...surfaceFaults()];
}
