// What the API document says of every response, judged on each response the run receives,
// whichever check sent it: a JSON body where JSON is due (§1), the error envelope on errors (§7),
// the §2 conventions (ids are UUID strings; `*_at` and `*_date` are strings that read as an
// instant in some common spelling, since their formats are not shown; fields typed null, and only
// those, may be null), and the shape of the resource the operation answers with (specs/schemas/,
// the operation table telling which; the older project and organization shapes detected per
// resource, shape.ts). Each violation is named by what is wrong and where — the rule and the
// pointer, folded over list items — so that one bug met by many checks is one finding, under the
// requirements it violates: the rule's own and, inside a record, the resource's shape.
//
// Judging sends nothing. The records a response shows, and the references they hold, are handed
// on (references.ts resolves them, within a bounded number of requests).
import { isRecord, type Rec } from '../../../contract/json.js';
import { API_PREFIX, type Settings } from '../../../contract/settings.js';
import { join as joinPointer, lookup as valueAt, unescapeToken } from '../../../specs/diff/pointer.js';
import { schema, type SchemaError, type SchemaName, schemaNames, validate } from '../../../specs/index.js';
import { endpoints } from '../../../specs/openapi/operations.js';
import { escapeRegExp } from '../../../specs/patterns.js';
import { collectionOf, type RecordKind, resource, resources } from '../../../specs/registry.js';
import type { Violation } from '../transport/client.js';
import { instantOf } from './instants.js';
import { servedShape, type ShapedKind, shapeOfRecord } from './shape.js';

export type { RecordKind };

/** A violation as met in one response (declared by the transport, which carries it): where in its body, and what it is. */
export type { Violation };

/** A record a response shows at the top level (an item of a page, or the body itself). */
export interface ShownRecord {
  kind: RecordKind;
  pointer: string;
  value: Rec;
}

export interface Judgement {
  /** `GET /projects/{id}`: the operation the request was for, or undefined when it names none of the document's. */
  operation?: string;
  violations: Violation[];
  /** The requirements this response was judged for. */
  judged: string[];
  /** Records shown, for the references they hold (2xx answers only). */
  records: ShownRecord[];
}

/** A response as received. */
export interface Received {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  body: unknown;
}

/** What an operation answers with on success. */
interface Answers {
  kind: RecordKind | 'delete-result';
  page: boolean;
}

interface JudgedOperation {
  name: string;
  method: string;
  pattern: RegExp;
  /** Undefined: the document shows no shape (capture intake, file delete). */
  answers?: Answers;
  /** Whether a success body must be JSON: not the download stream, not the description (JSON or YAML). */
  json: boolean;
  /** Not judged at all: the machine-readable description is no resource. */
  skip?: boolean;
  /** The short error envelope is allowed (§7: on the older project and organization list and update shapes). */
  shortErrors: boolean;
}

/** The shape requirement of each kind of record (§2 names one per resource) and of the delete result. */
const shapeRequirement = (kind: Answers['kind']): string => (kind === 'delete-result' ? 'RES-DELETE-RESULT' : `RES-${kind.toUpperCase()}-SHAPE`);

/** The kinds of record a response can show: those of a resource with a record schema. */
const SHOWN_KINDS = new Set<string>(resources().filter((r) => r.record).map((r) => r.kind));

/** The conventions of §2 every record is judged for, beside its shape. */
const CONVENTIONS = ['RES-ID-UUID', 'RES-TIMESTAMPS-DATES-STRINGS', 'RES-NULLABLE-FIELDS', 'RES-NON-NULL-FIELDS', 'RES-INHERENT-FIELDS'] as const;

/** `ProjectPage`, `ProjectResponse`, `FileRecord`, `DeleteResult` → what they answer with. */
function answersOf(returns: string | object): Answers | undefined {
  if (typeof returns !== 'string') return undefined;
  const page = returns.endsWith('Page');
  const name = returns.replace(/(Page|Response|Record)$/, '').replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
  return SHOWN_KINDS.has(name) || name === 'delete-result' ? { kind: name as Answers['kind'], page } : undefined;
}

/** §7: the short error envelope is allowed on the older shapes' list and update: those of a resource §2 shows in two shapes. */
const SHORT_ERRORS = new Set(
  resources().filter((r) => r.legacy).flatMap((r) => [r.operations.list?.op, r.operations.patch?.op].filter((o) => o !== undefined)),
);

const patternOf = (path: string) => new RegExp(`^${escapeRegExp(path).replace(/\\\{id\\\}/g, '[^/]+')}$`);

/** The document's operations, and those whose paths the settings give; per settings object. */
const tables = new WeakMap<Settings, JudgedOperation[]>();

function operationsFor(settings: Settings): JudgedOperation[] {
  let table = tables.get(settings);
  if (table) return table;
  const shown = (method: string, path: string) => `${method.toUpperCase()} ${path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) || '/' : path}`;
  const p = settings.paths;
  const configured: JudgedOperation[] = [
    {
      name: shown(p.organizationCreate.method, p.organizationCreate.path),
      method: p.organizationCreate.method,
      pattern: patternOf(p.organizationCreate.path),
      answers: { kind: 'organization', page: false },
      json: true,
      shortErrors: false,
    },
    ...(p.attachmentDownload
      ? [{
        name: shown(p.attachmentDownload.method, p.attachmentDownload.path),
        method: p.attachmentDownload.method,
        pattern: patternOf(p.attachmentDownload.path),
        json: false,
        shortErrors: false,
      }]
      : []),
    ...(p.fileDelete
      ? [{
        name: shown(p.fileDelete.method, p.fileDelete.path),
        method: p.fileDelete.method,
        pattern: patternOf(p.fileDelete.path),
        json: true,
        shortErrors: false,
      }]
      : []),
    ...(p.captureIntake
      ? [{
        name: shown(p.captureIntake.method, p.captureIntake.path),
        method: p.captureIntake.method,
        pattern: patternOf(p.captureIntake.path),
        json: true,
        shortErrors: false,
      }]
      : []),
    ...(p.openapi
      ? [{
        name: shown(p.openapi.method, p.openapi.path),
        method: p.openapi.method,
        pattern: patternOf(p.openapi.path),
        json: false,
        skip: true,
        shortErrors: false,
      }]
      : []),
  ];
  const documented: JudgedOperation[] = endpoints.map((e) => {
    const answers = answersOf(e.returns);
    return {
      name: `${e.method.toUpperCase()} ${e.path}`,
      method: e.method.toUpperCase(),
      pattern: patternOf(`${API_PREFIX}${e.path}`),
      ...(answers ? { answers } : {}),
      json: e.stream !== true,
      shortErrors: SHORT_ERRORS.has(e.operationId),
    };
  });
  // A path the settings give wins over the table's (create organization may live elsewhere).
  table = [...configured, ...documented];
  tables.set(settings, table);
  return table;
}

function operationOf(settings: Settings & { baseUrl: string; }, method: string, url: string): JudgedOperation | undefined {
  const base = new URL(settings.baseUrl).pathname.replace(/\/+$/, '');
  let path = new URL(url).pathname;
  if (base && path.startsWith(base)) path = path.slice(base.length);
  return operationsFor(settings).find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
}

// ── naming what is wrong ─────────────────────────────────────────────────────────────────────

/** `/addresses/0/is_default` → `addresses[].is_default`. */
const fieldName = (pointer: string) =>
  pointer.split('/').slice(1).map(unescapeToken).map((t) => (/^\d+$/.test(t) ? '[]' : `.${t}`)).join('').replace(/^\./, '').replace(/\.\[\]/g, '[]');

/**
 * The pointer with list positions folded, and the name of the list too: one problem of many items
 * is one, and so is one problem of the items of several lists of a record (the `hidden` of every
 * section of a CV).
 */
const folded = (pointer: string) => pointer.replace(/\/[^/]+\/\d+(?=\/|$)/g, '/*[]').replace(/\/\d+(?=\/|$)/g, '/*');

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const shown = JSON.stringify(value);
  const text = shown.length > 40 ? `${shown.slice(0, 39)}…` : shown;
  if (typeof value === 'string') return value === '' ? 'an empty string' : `the string ${text}`;
  return `a ${typeof value} (${text})`;
}

/** `a string`, `an integer`. */
export const article = (word: string): string => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
/** "must be string,null" → "a string or null". */
const expectedType = (message: string) => message.replace(/^must be /, '').split(',').map((t) => (t === 'null' ? 'null' : article(t))).join(' or ');

/**
 * What a violation is about: the noun of the whole (`every project`, `every error body`) and the
 * prefix of its fields' names (`project.title`; none for an envelope, whose fields are `page`,
 * `data`, `error`, `detail`).
 */
interface Subject {
  noun: string;
  prefix?: string;
}

const record = (kind: RecordKind): Subject => ({ noun: kind, prefix: kind });
const PAGE: Subject = { noun: 'list body' };
const ERROR: Subject = { noun: 'error body' };
const DELETE_RESULT: Subject = { noun: 'delete result' };

/** One schema error in plain words: what the field is, and what the document has. */
function plainWords(s: Subject, e: SchemaError, value: unknown): string {
  const field = fieldName(e.path);
  const name = e.path === '' ? `the ${s.noun}` : s.prefix ? `${s.prefix}.${field}` : field;
  const subject = s.noun;
  switch (e.keyword) {
    case 'type':
      return `${name} is ${describe(value)}, where the API document has ${expectedType(e.message)}`;
    case 'required':
      return `${name} is missing, and the API document makes it part of every ${subject}`;
    case 'format':
      return `${name} is ${describe(value)}, not ${e.message.includes('uuid') ? 'a UUID' : `of format ${e.message.replace(/^must match format /, '')}`}`;
    case 'enum':
    case 'const':
      return `${name} is ${describe(value)}, outside the values the API document allows`;
    case 'minLength':
      return e.path === '/page/nextCursor' ? `${name} is empty while page.hasMore is true` : `${name} is empty`;
    default:
      return `${name} ${e.message}`;
  }
}

const rule = (e: SchemaError) =>
  `${e.keyword}${e.keyword === 'type' || e.keyword === 'format' ? ` ${e.message.replace(/^must (be|match format) /, '').replace(/"/g, '')}` : ''}`;

// ── which requirement a problem inside a record is about ────────────────────────────────────

/** The innermost record a pointer inside a record is in (an assignment's embedded employee), and the pointer within it. */
function innermost(kind: RecordKind, pointer: string): { kind: RecordKind; rel: string; at: string; } {
  for (const e of embeddedOf(kind)) {
    const at = `/${e.property}`;
    if (pointer.startsWith(`${at}/`)) return { kind: e.kind, rel: pointer.slice(at.length), at };
  }
  return { kind, rel: pointer, at: '' };
}

/** The properties of a kind's records that hold a copy of another resource's record (the registry's embeddings). */
function embeddedOf(kind: RecordKind): { property: string; kind: RecordKind; }[] {
  return resources().flatMap((r) => r.embeddedIn.filter((e) => e.parent === collectionOf(kind)).map((e) => ({ property: e.property, kind: r.kind })));
}

const ID_FIELD = /\/(id|[a-z_]*[a-z]_id)$/;

/** The §2 rule (or §3 state) a problem at `rel` of a record of `kind` is about, before the resource's shape. */
function ruleRequirement(kind: RecordKind, rel: string, e: SchemaError, value: unknown, legacy: boolean): string | undefined {
  if (kind === 'project' && legacy && /^\/[a-z_]+_org_id$/.test(rel)) return 'RES-PROJECT-LEGACY-SHAPE';
  if (kind === 'organization' && legacy) return 'RES-ORGANIZATION-LEGACY-SHAPE';
  if (e.keyword === 'required') return 'RES-INHERENT-FIELDS';
  if (ID_FIELD.test(rel) && !/external_id$/.test(rel) && !/stage\/id$|\/addresses\/\d+\/id$/.test(rel)) return 'RES-ID-UUID';
  if (e.keyword === 'type' && e.message.endsWith(',null')) return 'RES-NULLABLE-FIELDS';
  if (value === null) return 'RES-NON-NULL-FIELDS';
  if (/_(at|date)$/.test(rel)) return 'RES-TIMESTAMPS-DATES-STRINGS';
  if (kind === 'project' && /(^|\/)(archived_from_)?stage\//.test(rel)) return 'STATE-STAGE-HIDDEN-SORT';
  if (kind === 'project' && /^\/(status|stage)$/.test(rel)) return 'STATE-PROJECT-STATUS-STAGE';
  if (kind === 'cv' && /^\/data\/[a-zA-Z]+\/\d+\/hidden$/.test(rel)) return 'RES-CV-DATA-HIDDEN';
  return undefined;
}

const unique = (ids: readonly (string | undefined)[]) => [...new Set(ids.filter((x): x is string => x !== undefined))];

const isShaped = (kind: RecordKind): kind is ShapedKind => kind === 'project' || kind === 'organization';

function schemaOf(kind: RecordKind, value: unknown): SchemaName {
  const { record, legacy } = resource(collectionOf(kind));
  return legacy && isShaped(kind) && servedShape(kind, value) === 'legacy' ? legacy : record!;
}

/** Every property name the schemas of §2 give, at any depth: the names a client of the document reads. */
const DOCUMENTED: ReadonlySet<string> = (() => {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isRecord(node)) return;
    if (isRecord(node.properties)) { for (const k of Object.keys(node.properties)) names.add(k); }
    for (const v of Object.values(node)) visit(v);
  };
  for (const name of schemaNames) visit(schema(name));
  return names;
})();
const spelling = (key: string) => key.replace(/[_\-\s]/g, '').toLowerCase();
const BY_SPELLING = new Map([...DOCUMENTED].map((k) => [spelling(k), k]));

/** A schema node as read: `$ref`s (`employee.json`, `project.json#/properties/title`) followed to what they name. */
type Node = Record<string, unknown>;

function resolved(node: unknown, base: SchemaName): { node: Node; base: SchemaName; } | undefined {
  let n = node;
  let b = base;
  for (let hops = 0; isRecord(n) && typeof n.$ref === 'string' && hops < 8; hops += 1) {
    const [file, pointer = ''] = n.$ref.split('#');
    const name = file ? file.replace(/^.*\//, '').replace(/\.json$/, '') : b;
    if (!(schemaNames as readonly string[]).includes(name)) return undefined;
    b = name as SchemaName;
    n = valueAt(schema(b), pointer);
  }
  return isRecord(n) ? { node: n, base: b } : undefined;
}

const typesOf = (node: Node): string[] => (Array.isArray(node.type) ? node.type.map(String) : typeof node.type === 'string' ? [node.type] : []);

/** The schema of a property of an object node (a listed one, else what the node allows besides). */
function propertyNode(at: { node: Node; base: SchemaName; } | undefined, key: string) {
  if (!at) return undefined;
  const props = isRecord(at.node.properties) ? at.node.properties : {};
  if (key in props) return resolved(props[key], at.base);
  return isRecord(at.node.additionalProperties) ? resolved(at.node.additionalProperties, at.base) : undefined;
}

const itemsNode = (at: { node: Node; base: SchemaName; } | undefined) => (at && isRecord(at.node.items) ? resolved(at.node.items, at.base) : undefined);

/**
 * The field §2 names that `key` spells another way (`firstName`, `FIRST_NAME` for `first_name`), when
 * the record shows the key but not the documented name: a serializer that rewrote the name. An extra
 * key beside the documented one is an addition (§9), never this. Where the schema of the object is
 * known, the names are its own: `endDate` is a CV item's name, and an assignment's `end_date`
 * answered as `endDate` is still a respelling there. Elsewhere (an element whose shape is not
 * shown) any name §2 gives anywhere.
 */
function respelled(key: string, node: Rec, at: { node: Node; base: SchemaName; } | undefined): string | undefined {
  const props = at && isRecord(at.node.properties) ? Object.keys(at.node.properties) : undefined;
  if (props) {
    if (props.includes(key)) return undefined;
    const named = props.find((k) => spelling(k) === spelling(key));
    return named !== undefined && !(named in node) ? named : undefined;
  }
  if (DOCUMENTED.has(key)) return undefined;
  const named = BY_SPELLING.get(spelling(key));
  return named !== undefined && !(named in node) ? named : undefined;
}

/**
 * The fields of an object's schema typed "or null" that the object leaves out. §2: "Fields typed
 * `null` in a response can be null." For those fields the document gives the value a record without
 * one shows: null (a field typed plain string has no such value, and one without a value may only be
 * left out, as `archived_at` of a project never archived). Left out, the field is missing where the
 * document's table lists it with its empty value: a serializer that drops nulls.
 */
function nullableLeftOut(node: Rec, at: { node: Node; base: SchemaName; } | undefined): string[] {
  if (!at || !isRecord(at.node.properties)) return [];
  return Object.entries(at.node.properties).filter(([k, p]) => {
    if (k in node) return false;
    const r = resolved(p, at.base);
    return r !== undefined && typesOf(r.node).includes('null');
  }).map(([k]) => k);
}

/** A record's violations: its schema in the served shape, the shape it shows, its timestamps and dates. */
function judgeRecord(kind: RecordKind, value: unknown, at: string, out: Violation[]): void {
  const legacy = isShaped(kind) && servedShape(kind, value) === 'legacy';
  if (isRecord(value) && isShaped(kind)) {
    const shown = shapeOfRecord(kind, value);
    const served = servedShape(kind, value);
    if (shown !== undefined && shown !== served) {
      out.push({
        key: `${kind} | shape ${shown}`,
        requirements: ['RES-SHAPE-CONSISTENT'],
        message: `a ${kind} is in the ${shown === 'legacy' ? 'older' : 'fuller'} shape, where the deployment was seen serving the ${
          served === 'legacy' ? 'older' : 'fuller'
        } one`,
        pointer: at,
        readable: true,
      });
    }
  }
  for (const e of validate(schemaOf(kind, value), value).errors) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const inner = innermost(kind, e.path);
    const relative = { ...e, path: inner.rel };
    const v = valueAt(value, e.path);
    out.push({
      // The record's kind is no part of what is wrong: a mistyped id of every kind of record is one bug.
      key: `record ${folded(inner.rel)} | ${rule(e)}`,
      requirements: unique([ruleRequirement(inner.kind, inner.rel, e, v, legacy && inner.kind === kind), shapeRequirement(inner.kind)]),
      message: plainWords(record(inner.kind), relative, v),
      pointer: `${at}${e.path}`,
    });
  }
  // §2: timestamps and dates are strings; their formats are not shown, so any common spelling reads.
  const walk = (node: unknown, pointer: string, sch: { node: Node; base: SchemaName; } | undefined): void => {
    if (Array.isArray(node)) return node.forEach((x, i) => walk(x, `${pointer}/${i}`, itemsNode(sch)));
    if (!isRecord(node)) return;
    for (const field of nullableLeftOut(node, sch)) {
      const here = joinPointer(pointer, field);
      const inner = innermost(kind, here);
      out.push({
        key: `record ${folded(inner.rel)} | null left out`,
        requirements: ['RES-NULLABLE-FIELDS', shapeRequirement(inner.kind)],
        message: `${inner.kind}.${fieldName(inner.rel)} is missing, where §2 types it "or null": a record without a value shows it as null`,
        pointer: `${at}${here}`,
      });
    }
    for (const [field, v] of Object.entries(node)) {
      const here = joinPointer(pointer, field);
      const named = respelled(field, node, sch);
      if (named !== undefined) {
        const inner = innermost(kind, here);
        out.push({
          key: `record ${folded(inner.rel)} | respelled`,
          requirements: [shapeRequirement(inner.kind)],
          message: `${inner.kind} shows \`${field}\` where §2 names \`${named}\`, which it leaves out: a client reading \`${named}\` finds nothing`,
          pointer: `${at}${here}`,
        });
      }
      if (/_(at|date)$/.test(field) && typeof v === 'string' && instantOf(v) === undefined) {
        const inner = innermost(kind, here);
        const what = field.endsWith('_at') ? 'timestamp' : 'date';
        out.push({
          key: `record ${folded(inner.rel)} | reads as no ${what}`,
          requirements: unique(['RES-TIMESTAMPS-DATES-STRINGS', shapeRequirement(inner.kind)]),
          message: `${inner.kind}.${fieldName(inner.rel)} is ${describe(v)}, which reads as no ${what} in any common format`,
          pointer: `${at}${here}`,
        });
      } else if (typeof v === 'object') walk(v, here, propertyNode(sch, field));
    }
  };
  const name = schemaOf(kind, value);
  walk(value, '', resolved(schema(name), name));
}

function judgeSuccess(op: JudgedOperation, body: unknown, out: Violation[], judged: Set<string>, records: ShownRecord[]): void {
  const answers = op.answers;
  if (!answers) return;
  const add = (kind: Answers['kind']) => {
    judged.add(shapeRequirement(kind));
    if (kind === 'delete-result') return;
    for (const id of CONVENTIONS) judged.add(id);
    if (kind === 'project') ['STATE-PROJECT-STATUS-STAGE', 'STATE-STAGE-HIDDEN-SORT'].forEach((id) => judged.add(id));
    for (const e of embeddedOf(kind)) judged.add(shapeRequirement(e.kind));
    if (kind === 'cv') judged.add('RES-CV-DATA-HIDDEN');
    if (isShaped(kind)) {
      judged.add('RES-SHAPE-CONSISTENT');
      if (servedShapeNow(kind) === 'legacy') judged.add(kind === 'project' ? 'RES-PROJECT-LEGACY-SHAPE' : 'RES-ORGANIZATION-LEGACY-SHAPE');
    }
  };
  if (answers.kind === 'delete-result') {
    add('delete-result');
    for (const e of validate('delete-result', body).errors) {
      out.push({
        key: `delete result ${e.path} | ${rule(e)}`,
        requirements: [shapeRequirement('delete-result')],
        message: plainWords(DELETE_RESULT, e, valueAt(body, e.path)),
        pointer: e.path,
      });
    }
    return;
  }
  const kind = answers.kind;
  if (!answers.page) {
    add(kind);
    judgeRecord(kind, body, '', out);
    if (isRecord(body)) records.push({ kind, pointer: '', value: body });
    return;
  }
  judged.add('RES-PAGE-ENVELOPE');
  for (const e of validate('page', body).errors) {
    if (e.keyword === 'if') continue;
    out.push({ key: `page ${e.path} | ${rule(e)}`, requirements: ['RES-PAGE-ENVELOPE'], message: plainWords(PAGE, e, valueAt(body, e.path)), pointer: e.path });
  }
  const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
  if (data.length > 0) add(kind);
  data.forEach((item, i) => {
    judgeRecord(kind, item, `/data/${i}`, out);
    if (isRecord(item)) records.push({ kind, pointer: `/data/${i}`, value: item });
  });
}

/** The served shape without reading a record (for what is judged). */
const servedShapeNow = (kind: ShapedKind) => servedShape(kind, undefined);

function judgeError(op: JudgedOperation, body: unknown, out: Violation[], judged: Set<string>): void {
  judged.add('ERR-ENVELOPES').add('ERR-FULL-ENVELOPE');
  if (op.shortErrors) judged.add('ERR-SHORT-ENVELOPE');
  if (isRecord(body) && body.detail !== undefined) judged.add('ERR-DETAIL-MAP');
  const full = validate('error', body).errors;
  if (full.length === 0) return;
  const short = op.shortErrors ? validate('error-short', body).errors : undefined;
  if (short?.length === 0) return;
  // A body that only ever shows the short envelope's two fields is judged as the short envelope.
  const looksShort = op.shortErrors && isRecord(body) && body.detail === undefined && isRecord(body.error)
    && Object.keys(body.error).every((k) => k === 'code' || k === 'message');
  for (const e of looksShort ? short! : full) {
    // As inside a record: the rule's own requirement, then the envelope's (the short one, or the full one).
    const envelope = looksShort ? 'ERR-SHORT-ENVELOPE' : 'ERR-FULL-ENVELOPE';
    const own = e.path === '' || e.path === '/error' ? 'ERR-ENVELOPES' : e.path.startsWith('/detail') ? 'ERR-DETAIL-MAP' : undefined;
    const requirements = unique([own, envelope]);
    // detail is a map: its keys are the request's fields, not the envelope's structure.
    const where = folded(e.path).replace(/^\/detail\/[^/]+/, '/detail/*');
    out.push({ key: `error ${where} | ${rule(e)}`, requirements, message: plainWords(ERROR, e, valueAt(body, e.path)), pointer: e.path });
  }
}

/** Judges one response for what the document says of every response. */
export function judge(settings: Settings & { baseUrl: string; }, r: Received): Judgement {
  const op = operationOf(settings, r.method, r.url);
  const none: Judgement = { violations: [], judged: [], records: [] };
  if (!op || op.skip) return { ...none, ...(op ? { operation: op.name } : {}) };
  const out: Violation[] = [];
  const judged = new Set<string>();
  const records: ShownRecord[] = [];
  const success = r.status >= 200 && r.status < 300;
  const jsonDue = r.text.length > 0 && (op.json || !success);
  if (jsonDue) {
    judged.add('GEN-JSON-BODIES');
    const type = r.headers['content-type'] ?? '';
    const shown = type ? JSON.stringify(type) : 'no content-type';
    // A body that is no JSON at all is one problem, whatever it is labelled.
    if (r.body === undefined) {
      out.push({
        key: 'response body | not JSON',
        requirements: ['GEN-JSON-BODIES'],
        message: `a response body is not JSON (${shown}), where the API document has JSON`,
        pointer: '',
      });
    } else if (!/json/i.test(type)) {
      out.push({
        key: 'response content-type | not JSON',
        requirements: ['GEN-JSON-BODIES'],
        message: `a response has content-type ${shown}, where the API document has JSON`,
        pointer: '',
        readable: true,
      });
    }
  }
  if (success && op.json && op.answers && r.text.length === 0 && r.method.toUpperCase() !== 'HEAD') {
    const what = op.answers.kind === 'delete-result' ? 'a Delete result' : op.answers.page ? 'a page' : `a ${op.answers.kind}`;
    out.push({
      key: `${op.answers.page ? 'page' : op.answers.kind} | no body`,
      requirements: [op.answers.page ? 'RES-PAGE-ENVELOPE' : shapeRequirement(op.answers.kind)],
      message: `${op.name} answers ${r.status} with no body, where the API document shows ${what}`,
      pointer: '',
    });
  } else if (success && op.json && r.body !== undefined) judgeSuccess(op, r.body, out, judged, records);
  else if (r.status >= 400 && r.body !== undefined) judgeError(op, r.body, out, judged);
  return { operation: op.name, violations: out, judged: [...judged], records };
}
