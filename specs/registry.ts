// The resource registry: for each collection of the API, everything the rest of the project asks
// about it, read from the operation table (openapi/operations.ts, through surface.ts) and the
// schemas, plus the one row of choices the document leaves open (registry-rows.ts). The mock's
// routes, store and scopes, the suite's lists, subjects and coverage table, the fault families and
// the settings all read their resources here; none keeps a list of its own.
//
// Adding a resource: its schemas under specs/schemas/, its endpoints in the operation table, and
// one row in registry-rows.ts (ARCHITECTURE.md, "Add a resource").
import { holdSchema, type SchemaName, schemaNames } from './names.js';
import { type Endpoint, endpoints } from './openapi/operations.js';
import { type Collection, COLLECTIONS, isCollection, kindOf, type RecordKind, RESOURCE_ROWS, type ResourceRow } from './registry-rows.js';
import { EXTENSION_SETTINGS, type Field, type Operation, operations, recordOf, type View, viewsOf } from './surface.js';

export {
  type Collection,
  collectionOf,
  COLLECTIONS,
  isCollection,
  kindOf,
  RECORD_KINDS,
  type RecordKind,
  RESOURCE_ROWS,
  type ResourceRow,
} from './registry-rows.js';

/** What an operation does to its resource's records. An upload is a create of a multipart body; the intake is the capture's create at a chosen path. */
export type ResourceOperation = 'list' | 'get' | 'create' | 'patch' | 'delete' | 'upload' | 'download' | 'intake';

/** An `*_id` field of a request (or a list filter) naming records of another collection. */
export interface Reference {
  /** The operation whose body or query holds it. */
  op: string;
  field: string;
  /** Where in the body: `entity_id`, `addresses[].id`. */
  path: string;
  /** Each collection it may name (several when a sibling `*_type` chooses). */
  to: readonly Collection[];
  /** A list filter rather than a body field. */
  filter: boolean;
}

export interface Resource {
  collection: Collection;
  kind: RecordKind;
  /** The record schema of its answers (§2), when an operation answers its records. */
  record?: SchemaName;
  /** The other shape §2 shows of the record (Project, Organization: a legacy shape). */
  legacy?: SchemaName;
  /** The component name of its list's answer (`ProjectPage`): a page envelope of records. */
  page?: string;
  /** Its operations by what they do. */
  operations: Readonly<Partial<Record<ResourceOperation, Operation>>>;
  /** §5: "Keys carry scopes named `<resource>:read` and `<resource>:write`". */
  scopes: { read: `${Collection}:read`; write: `${Collection}:write`; };
  /** The filters of its list beyond the list parameters. */
  filters: readonly Field[];
  /** Its list paginates without a filter it must be given (the lists a run walks whole). */
  pageable: boolean;
  /** Sort fields of its list (the row's reading). */
  sort: readonly string[];
  search?: string;
  /** The references its requests make to other collections. */
  references: readonly Reference[];
  /** Where copies of its records are embedded in other records (assignment.employee). */
  embeddedIn: readonly { parent: Collection; property: string; }[];
  /** Every view that shows a record of it. */
  views: readonly View[];
  row: ResourceRow;
}

/** The collection an operation belongs to: a chosen path names its row, otherwise the first segment of its path. */
export function collectionOfOperation(o: Pick<Operation, 'op' | 'resource'>): Collection | undefined {
  const setting = (EXTENSION_SETTINGS as Record<string, string>)[o.op];
  if (setting) {
    const owner = COLLECTIONS.find((c) => setting in ((RESOURCE_ROWS[c] as ResourceRow).chosen ?? {}));
    if (owner) return owner;
  }
  return isCollection(o.resource) ? o.resource : undefined;
}

/** What an operation does, in the registry's words. */
export function roleOf(o: Operation): ResourceOperation | undefined {
  if (o.kind === 'create') return collectionOfOperation(o) !== o.resource ? 'intake' : o.multipart ? 'upload' : 'create';
  return o.kind === 'other' ? undefined : o.kind;
}

const pageOf = (collection: string): string | undefined => {
  const list = endpoints.find((e) => e.list && e.path === `/${collection}`);
  return typeof list?.returns === 'string' ? list.returns : undefined;
};

/** Every resource, from the operation table at the given extension paths (the placeholders by default). */
export function registry(ops: readonly Operation[] = operations()): Resource[] {
  const refs = ops.flatMap((o) =>
    [...allOf(o.fields).map((f) => ({ f, filter: false })), ...o.filters.map((f) => ({ f, filter: true }))].flatMap(({ f, filter }) =>
      f.references ? [{ op: o.op, field: f.name, path: f.path, to: f.references.filter(isCollection), filter, from: collectionOfOperation(o) }] : []
    )
  );
  return COLLECTIONS.map((collection): Resource => {
    const own = ops.filter((o) => collectionOfOperation(o) === collection);
    const byRole: Partial<Record<ResourceOperation, Operation>> = {};
    for (const o of own) {
      const role = roleOf(o);
      if (role && !byRole[role]) byRole[role] = o;
    }
    const record = recordOf(collection) ?? own.find((o) => o.record)?.record;
    const legacy = record && (schemaNames as readonly string[]).includes(`${record}-legacy`) ? (`${record}-legacy` as SchemaName) : undefined;
    const row = RESOURCE_ROWS[collection] as ResourceRow;
    const list = byRole.list;
    const views = viewsOf(collection, ops);
    return {
      collection,
      kind: kindOf(collection),
      ...(record ? { record } : {}),
      ...(legacy ? { legacy } : {}),
      ...(pageOf(collection) ? { page: pageOf(collection)! } : {}),
      operations: byRole,
      scopes: { read: `${collection}:read`, write: `${collection}:write` },
      filters: list?.filters ?? [],
      pageable: !!list && !list.filters.some((f) => f.required),
      sort: row.sort,
      ...(row.search ? { search: row.search } : {}),
      references: refs.filter((r) => r.from === collection).map(({ from: _, ...r }) => r),
      embeddedIn: [...new Map(views.flatMap((v) =>
        v.embedded && isCollection(v.embedded.parent.resource)
          ? [[`${v.embedded.parent.resource}.${v.embedded.property}`, { parent: v.embedded.parent.resource, property: v.embedded.property }] as const]
          : []
      )).values()],
      views,
      row,
    };
  });
}

function allOf(fields: readonly Field[]): Field[] {
  return fields.flatMap((f) => [f, ...allOf(f.fields ?? [])]);
}

let cached: Resource[] | undefined;
/** The registry of the document's operations at the placeholder paths (read once). */
export function resources(): readonly Resource[] {
  return (cached ??= registry());
}

export function resource(collection: Collection | (string & {})): Resource {
  return resources().find((r) => r.collection === collection)!;
}

/** The collections with a list, whose sort fields a target may name (§4 sort is a parameter of every list). */
export const listedCollections = (): Collection[] => resources().filter((r) => !!r.operations.list).map((r) => r.collection);

/** The collections whose list a run walks whole: a list with no filter it must be given. */
export const pageableCollections = (): Collection[] => resources().filter((r) => r.pageable).map((r) => r.collection);

/** The scopes a key may carry: read and write of every collection (§5 rule 2). */
export const allScopes = (): string[] => resources().flatMap((r) => [r.scopes.read, r.scopes.write]);

/** A resource as the document would add it: its collection, its row, its endpoints and its schema documents. */
export interface ResourceDefinition {
  collection: string;
  row: ResourceRow;
  /** Its rows of the operation table. */
  endpoints: readonly Endpoint[];
  /** Schema documents by name (each with its `$id` and a `title`, the component name its endpoints use). */
  schemas: Readonly<Record<string, object>>;
}

/**
 * Adds a resource in memory, as if its schemas, its endpoints and its row were written in
 * specs/: every module that reads the registry, the operation table or the schemas after this
 * call sees it (those already loaded keep what they read). The steps of ARCHITECTURE.md, "Add a
 * resource", done without editing a file: a draft of the document's next resource can be served
 * by the mock and checked before it is written down.
 */
export function addResource(def: ResourceDefinition): void {
  if (isCollection(def.collection)) throw new Error(`resource ${def.collection} exists already`);
  for (const [name, doc] of Object.entries(def.schemas)) holdSchema(name, doc);
  (endpoints as Endpoint[]).push(...def.endpoints);
  (RESOURCE_ROWS as Record<string, ResourceRow>)[def.collection] = def.row;
  (COLLECTIONS as string[]).push(def.collection);
  cached = undefined;
}

// --- concepts every folder shares -------------------------------------------------------------

/**
 * The refusals a mutating request can meet, each a rule of the document: another team's record
 * (§1), a key without the write scope (§5), no key (§5), a body of the wrong shape (§7), an
 * idempotency key reused for another request (§4).
 */
export const REFUSALS = ['cross-team', 'read-only', 'no-key', 'invalid-body', 'reused-key'] as const;
export type Refusal = (typeof REFUSALS)[number];
