// Faults generated over the endpoint table (specs/openapi/operations.ts and the mock's chosen
// paths), so a new endpoint gets its faults without anyone writing them: for every mutating
// endpoint whose effect some view shows, each way a request can be refused is also a way a buggy
// server applies it anyway; every list and filter can keep deleted records, ignore limit after
// the first page, repeat a record across a page boundary or break a cursor rule on its own, or
// leak another team's records through a channel; every record kind can lose a
// field its schema requires. The self-test (suites/self/faults.test.ts) proves each is detected.
import { schema, type SchemaName } from '../specs/index.js';
import { parameters } from '../specs/openapi/components.js';
import { type Endpoint, endpoints } from '../specs/openapi/operations.js';

export interface FaultInfo {
  name: string;
  requirements: readonly string[];
  description: string;
  /** The project/organization shape the mock must serve for the fault to show. */
  shape: 'full' | 'legacy';
}

export const REFUSALS = ['cross-team', 'read-only', 'no-key', 'invalid-body', 'reused-key'] as const;
export type Refusal = (typeof REFUSALS)[number];

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

/** Response schemas of records, and the fields each requires beyond id (whose loss has its own fault). */
const RECORD_SCHEMAS = ['project', 'assignment', 'attachment', 'employee', 'organization', 'file', 'cv'] as const satisfies readonly SchemaName[];
const shapeRequirement: Record<(typeof RECORD_SCHEMAS)[number], string[]> = {
  project: ['RES-PROJECT-SHAPE', 'RES-INHERENT-FIELDS'],
  assignment: ['RES-ASSIGNMENT-SHAPE', 'RES-INHERENT-FIELDS'],
  attachment: ['RES-ATTACHMENT-SHAPE', 'RES-INHERENT-FIELDS'],
  employee: ['RES-EMPLOYEE-SHAPE', 'RES-INHERENT-FIELDS'],
  organization: ['RES-ORGANIZATION-SHAPE', 'RES-INHERENT-FIELDS'],
  file: ['RES-FILE-SHAPE', 'RES-INHERENT-FIELDS'],
  cv: ['RES-CV-SHAPE', 'RES-INHERENT-FIELDS'],
};

export function requiredFieldCases(): { kind: (typeof RECORD_SCHEMAS)[number]; field: string; }[] {
  return RECORD_SCHEMAS.flatMap((
    kind,
  ) => (((schema(kind) as { required?: string[]; }).required ?? []).filter((f) => f !== 'id' && !(kind === 'assignment' && f === 'employee')).map((field) => ({
    kind,
    field,
  }))));
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
  const param = (component: string) =>
    (parameters as Record<string, { name: string; required?: boolean; schema?: { format?: string; $ref?: string; }; }>)[component]!;
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

/** The cursor rules (§4 rules 1–2, changelog 1.4.0) a list can break on its own, and the requirements each names. */
export const CURSOR_RULES = {
  'cursor-undecodable-first-page': {
    requirements: ['LIST-CURSOR-UNDECODABLE', 'ERR-BAD-REQUEST-CURSOR', 'CHANGELOG-1-4-0-CURSOR-400'],
    words: 'an undecodable cursor answers the first page',
  },
  'cursor-empty-rejected': {
    requirements: ['LIST-CURSOR-EMPTY-FIRST-PAGE', 'CHANGELOG-1-4-0-EMPTY-CURSOR-FIRST-PAGE'],
    words: 'cursor= (empty) answers 400 instead of the first page',
  },
  'cursor-across-orders': {
    requirements: ['LIST-CURSOR-OTHER-ORDER', 'ERR-BAD-REQUEST-CURSOR'],
    words: 'a cursor issued for the other order is accepted',
  },
} as const;
export type CursorRule = keyof typeof CURSOR_RULES;

export const cursorRuleBroken = (rule: CursorRule, op: string) => `${rule}:${op}` as const;
export const pageBoundaryRepeats = (view: string) => `page-boundary-repeats:${view}` as const;
export const deletedStillListed = (view: string) => `deleted-still-listed:${view}` as const;
export const limitIgnoredAfterFirstPage = (op: string) => `limit-ignored-after-first-page:${op}` as const;
export const leakSearch = (op: string) => `leak-search:${op}` as const;
export const leakCursor = (op: string) => `leak-cursor:${op}` as const;
export const leakFilter = (view: string) => `leak-filter:${view}` as const;

/** The names the families give their faults. */
export type FamilyFaultName = ReturnType<
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

function listFaults(): FaultInfo[] {
  const out: FaultInfo[] = [];
  for (const l of listEndpoints()) {
    out.push({
      name: limitIgnoredAfterFirstPage(l.op),
      requirements: ['LIST-LIMIT'],
      description: `${l.op} serves pages after the first at the default size, whatever limit says`,
      shape: 'full',
    });
    // A page boundary broken on one list or filter alone: every view a run can fill past one page
    // (a filter of records the API cannot create may hold one record per value, and never page).
    for (const view of [...(l.requiredFilters ? [] : [l.op]), ...(l.creatable ? l.idFilters.map((f) => `${l.op}?${f}`) : [])]) {
      out.push({
        name: pageBoundaryRepeats(view),
        requirements: ['LIST-WALK-EVERY-RECORD-ONCE'],
        description: `${view.replace('?', ' filtered by ')} starts each page after the first with the last item of the page before`,
        shape: 'full',
      });
    }
    // one list breaking a cursor rule while the others keep it: the suite must check every list
    for (const [rule, { requirements, words }] of Object.entries(CURSOR_RULES) as [CursorRule, (typeof CURSOR_RULES)[CursorRule]][]) {
      out.push({ name: cursorRuleBroken(rule, l.op), requirements, description: `${l.op} only: ${words}`, shape: 'full' });
    }
    // a list every request narrows to one entity cannot show another team's records through q or a cursor
    if (!l.requiredFilters) {
      out.push({
        name: leakSearch(l.op),
        requirements: ['ISO-LIST-OWN-TEAM-ONLY'],
        description: `${l.op} with q searches every team's records`,
        shape: 'full',
      });
      out.push({
        name: leakCursor(l.op),
        requirements: ['ISO-LIST-OWN-TEAM-ONLY'],
        description: `${l.op} cursors carry the team they were issued to, and whoever follows one reads that team's records`,
        shape: 'full',
      });
    }
    for (const f of l.idFilters) {
      out.push({
        name: leakFilter(`${l.op}?${f}`),
        requirements: ['ISO-LIST-OWN-TEAM-ONLY'],
        description: `${l.op} filtered by ${f} searches every team's records`,
        shape: 'full',
      });
    }
    if (!l.deletable) continue;
    for (const view of [...(l.requiredFilters ? [] : [l.op]), ...l.idFilters.map((f) => `${l.op}?${f}`)]) {
      out.push({
        name: deletedStillListed(view),
        requirements: ['EP-DELETE-GONE'],
        description: `${view.replace('?', ' filtered by ')} keeps showing deleted records`,
        shape: 'full',
      });
    }
  }
  return out;
}

export function familyFaults(): FaultInfo[] {
  const out: FaultInfo[] = [];
  for (const { op, refusal } of refusalCases()) {
    out.push({
      name: appliedWhenRefused(refusal, op),
      requirements: [...refusalRequirements[refusal]],
      description: `${op} refuses a request ${refusalWords[refusal]} but applies it anyway`,
      shape: 'full',
    });
  }
  for (const { kind, field } of requiredFieldCases()) {
    out.push({
      name: requiredMissing(kind, field),
      requirements: shapeRequirement[kind],
      description: `every ${kind} is served without ${field}, which its schema requires`,
      shape: 'full',
    });
  }
  for (const op of patchOps()) {
    out.push({
      name: patchAnswersOld(op),
      requirements: ['EP-PATCH-PARTIAL', 'EP-PATCH-PERSISTS'],
      description: `${op} stores the change but answers the record as it was`,
      shape: 'full',
    });
    out.push({
      name: patchDropsUnnamed(op),
      requirements: ['EP-PATCH-PARTIAL'],
      description: `${op} replaces the record with the fields it names, dropping the others`,
      shape: 'full',
    });
  }
  for (const op of createOps()) {
    out.push({
      name: idempotencyRace(op),
      requirements: ['IDEM-REPLAY'],
      description: `${op} has no in-flight lock: concurrent requests with one key each create a record`,
      shape: 'full',
    });
    // Only a list that shows the records can tell: an employee, a file or a capture has none.
    if (!UNOBSERVABLE.has(op)) {
      out.push({
        name: idempotencyRaceHidden(op),
        requirements: ['IDEM-REPLAY'],
        description: `${op} has no in-flight lock: concurrent requests with one key each create a record, then all answer the first one's response`,
        shape: 'full',
      });
    }
    out.push({
      name: createStoresLess(op),
      requirements: ['EP-CREATE-PERSISTS'],
      description: `${op} answers the fields sent but stores only those its schema requires`,
      shape: 'full',
    });
  }
  return [...out, ...listFaults()];
}
