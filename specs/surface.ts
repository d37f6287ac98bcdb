// The API's surface as the checks and the mock's fault families read it, derived from the
// operation table (openapi/operations.ts, and openapi/extensions.ts for the paths a target
// supplies) and the schemas: each operation with its kind, resource and request fields (type,
// nullability, listed values, references to other resources), and each resource with the views
// that show its records (GET by id, each list and filter, `q`, copies embedded in another
// resource, downloads). Nothing here is written per endpoint: a new operation, field or filter in
// the document shows up in every table built from this one.
import { schema, type SchemaName, schemaNames } from './names.js';
import { parameters } from './openapi/components.js';
import { extensionEndpoints, type ExtensionPaths } from './openapi/extensions.js';
import { type Endpoint, endpoints } from './openapi/operations.js';
import { COLLECTIONS, RESOURCE_ROWS, type ResourceRow } from './registry-rows.js';

export type OperationKind = 'list' | 'get' | 'create' | 'patch' | 'delete' | 'download' | 'other';

type Node = Record<string, unknown>;

export interface Field {
  /** The property name. */
  name: string;
  /** Where it sits in a body: `addresses[].city` for a field of an array's items. */
  path: string;
  /** JSON types the schema allows, `null` included when the field is nullable. */
  types: readonly string[];
  nullable: boolean;
  /** The whole set of allowed values (a closed enumeration, §2 "one of"). */
  enum?: readonly string[];
  /** Values seen in the interface (§2 "value seen"): examples of an open set. */
  examples?: readonly string[];
  format?: string;
  /** Resources an `*_id` field names a record of (several when a sibling `*_type` chooses). */
  references?: readonly string[];
  /** Required in the request. */
  required: boolean;
  /** An array of strings, or of objects (whose fields are `items`). */
  items?: 'string' | 'number' | 'object' | 'unknown';
  /** The fields of an object, or of an array's object items. */
  fields?: readonly Field[];
}

export interface Operation {
  op: string;
  method: Endpoint['method'];
  /** Relative to /api/public/v1, with `{id}` for the path id. */
  path: string;
  kind: OperationKind;
  /** The collection it acts on: the first segment of its path (`assignments`). */
  resource: string;
  /** The record schema of the resource, when the operation answers or changes records. */
  record?: SchemaName;
  /** Where the path comes from: the document's tables, or a setting (extensions). */
  shown: boolean;
  /** JSON request schema. */
  body?: SchemaName;
  multipart: boolean;
  /** Request fields: the JSON body's properties, or the multipart fields beside the file. */
  fields: readonly Field[];
  /** Query filters beyond the list parameters. */
  filters: readonly Field[];
}

/** Component titles (ProjectPatch, FileRecord) to schema files; read again when a schema is added in memory. */
let titles: { count: number; byTitle: Map<string, SchemaName>; } | undefined;
function byTitle(): Map<string, SchemaName> {
  if (titles?.count !== schemaNames.length) {
    titles = { count: schemaNames.length, byTitle: new Map(schemaNames.map((n) => [String((schema(n) as Node).title), n])) };
  }
  return titles.byTitle;
}

function schemaOfComponent(component: string): SchemaName | undefined {
  return byTitle().get(component) ?? byTitle().get(component.replace(/(Page|Response)$/, ''));
}

function resolve(node: Node, base: SchemaName): { node: Node; base: SchemaName; } {
  let n = node, b = base;
  while (typeof n.$ref === 'string') {
    const [file, whole = ''] = n.$ref.split('#');
    let pointer = whole;
    // an OpenAPI component (a multipart part, a query parameter) names the schema by its title
    const component = /^\/components\/schemas\/([^/]+)(.*)$/.exec(pointer);
    if (component) {
      b = schemaOfComponent(component[1]!) ?? b;
      pointer = component[2]!;
    } else if (file) b = file.replace(/^.*\//, '').replace(/\.json$/, '') as SchemaName;
    let target = schema(b) as Node;
    for (const part of pointer.split('/').filter(Boolean)) target = target[part] as Node;
    n = { ...target, ...Object.fromEntries(Object.entries(n).filter(([k]) => k !== '$ref')) };
  }
  return { node: n, base: b };
}

const typesOf = (node: Node): string[] => (Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : []);

/** Resources an `*_id` field names: `employee_id` → employees; `entity_id` beside an enumerated `entity_type` → each value's collection. */
function referencesOf(name: string, node: Node, siblings: Node, base: SchemaName): string[] | undefined {
  if (node.format !== 'uuid' || !name.endsWith('_id') || name === 'id') return undefined;
  const stem = name.slice(0, -3);
  const typed = siblings[`${stem}_type`] as Node | undefined;
  const values = typed ? (resolve(typed, base).node.enum as string[] | undefined) : undefined;
  if (values) return values.map((v) => `${v}s`);
  return [`${stem.split('_').at(-1)}s`];
}

function fieldsOf(node: Node, base: SchemaName, prefix = ''): Field[] {
  const props = (node.properties ?? {}) as Record<string, Node>;
  const required = new Set((node.required ?? []) as string[]);
  return Object.entries(props).map(([name, raw]) => {
    const { node: n, base: b } = resolve(raw, base);
    const types = typesOf(n);
    const path = `${prefix}${name}`;
    const field: Field = { name, path, types, nullable: types.includes('null'), required: required.has(name) };
    if (Array.isArray(n.enum)) field.enum = n.enum as string[];
    if (Array.isArray(n.examples)) field.examples = n.examples as string[];
    if (typeof n.format === 'string') field.format = n.format;
    const refs = referencesOf(name, n, props, b);
    if (refs) field.references = refs;
    if (types.includes('array')) {
      const items = n.items ? resolve(n.items as Node, b) : undefined;
      const itemTypes = items ? typesOf(items.node) : [];
      field.items = itemTypes.includes('object') ? 'object' : itemTypes.includes('string') ? 'string' : itemTypes.includes('number') ? 'number' : 'unknown';
      if (items && field.items === 'string' && Array.isArray(items.node.examples)) field.examples = items.node.examples as string[];
      if (items && field.items === 'object') field.fields = fieldsOf(items.node, items.base, `${path}[].`);
    } else if (types.includes('object')) field.fields = fieldsOf(n, b, `${path}.`);
    return field;
  });
}

function kindOf(e: Endpoint): OperationKind {
  if (e.list) return 'list';
  if (e.stream) return 'download';
  if (e.method === 'get') return e.path.endsWith('{id}') ? 'get' : 'other';
  if (e.method === 'post') return 'create';
  if (e.method === 'patch') return 'patch';
  return 'delete';
}

const param = (component: string) => (parameters as Record<string, { name: string; required?: boolean; schema: Node; }>)[component]!;

/** An object schema of named parts (a multipart body's fields, a list's filters), read as the fields of a body. */
const partsOf = (parts: Record<string, Node>, required: readonly string[]): Field[] => fieldsOf({ properties: parts, required }, 'attachment');

function operationOf(e: Endpoint, shown: boolean): Operation {
  const kind = kindOf(e);
  const resource = e.path.split('/')[1]!;
  const returns = typeof e.returns === 'string' ? schemaOfComponent(e.returns) : undefined;
  const body = e.json ? schemaOfComponent(e.json) : undefined;
  const multipart = e.multipart as { properties?: Record<string, Node>; required?: string[]; } | undefined;
  const fields = body
    ? fieldsOf(schema(body) as Node, body)
    : multipart
    ? partsOf(multipart.properties ?? {}, multipart.required ?? []).filter((f) => f.name !== 'file')
    : [];
  const ps = (e.filters ?? []).map(param);
  const filters = partsOf(Object.fromEntries(ps.map((p) => [p.name, p.schema])), ps.filter((p) => p.required).map((p) => p.name));
  const record = returns && returns !== 'delete-result' ? returns : kind === 'delete' ? recordOf(resource) : undefined;
  return {
    op: e.operationId,
    method: e.method,
    path: e.path,
    kind,
    resource,
    ...(record ? { record } : {}),
    shown,
    ...(body ? { body } : {}),
    multipart: !!multipart,
    fields,
    filters,
  };
}

/**
 * The paths an extension operation is placed at when the table is built without a target (coverage
 * tests, the mock's families): the chosen paths of the resource rows, and the description's.
 */
export const PLACEHOLDER_PATHS: Required<ExtensionPaths> = {
  ...(Object.assign({}, ...COLLECTIONS.map((c) => (RESOURCE_ROWS[c] as ResourceRow).chosen ?? {})) as Required<Omit<ExtensionPaths, 'openapi'>>),
  openapi: '/openapi.json',
};

/** The setting that supplies each extension operation's path. */
export const EXTENSION_SETTINGS = {
  downloadAttachment: 'attachmentDownload',
  deleteFile: 'fileDelete',
  createCapture: 'captureIntake',
  getOpenApi: 'openapi',
} as const satisfies Record<string, keyof ExtensionPaths>;

/** Every operation: the document's, then those at the extension paths given. */
export function operations(paths: ExtensionPaths = PLACEHOLDER_PATHS): Operation[] {
  return [
    ...endpoints.map((e) => operationOf(e, true)),
    ...extensionEndpoints(paths).map((e) => {
      const o = operationOf(e, false);
      // an extension path may sit anywhere: its resource is the one the document names it under
      const resource = ({ downloadAttachment: 'attachments', deleteFile: 'files' } as Record<string, string>)[o.op] ?? o.resource;
      const record = o.kind === 'delete' || o.kind === 'download' ? recordOf(resource) : o.record;
      return { ...o, resource, ...(record ? { record } : {}) };
    }),
  ];
}

/** The record schema of a resource, from the success body of any operation on it that answers one. */
export function recordOf(resource: string): SchemaName | undefined {
  for (const e of endpoints) {
    if (e.path.split('/')[1] !== resource || typeof e.returns !== 'string') continue;
    const name = schemaOfComponent(e.returns);
    if (name && name !== 'delete-result') return name;
  }
  return undefined;
}

/** Resources some operation of the table acts on. */
export function resources(ops: readonly Operation[] = operations()): string[] {
  return [...new Set(ops.map((o) => o.resource))];
}

export const MUTATING: readonly OperationKind[] = ['create', 'patch', 'delete'];
export const isMutating = (o: Operation) => o.method !== 'get';

/** Every field of an operation, nested ones included, depth first. */
export function allFields(fields: readonly Field[]): Field[] {
  return fields.flatMap((f) => [f, ...allFields(f.fields ?? [])]);
}

export type ViewKind = 'get' | 'list' | 'filter' | 'entity' | 'q' | 'embedded' | 'download';

/** A place a resource's records are shown. */
export interface View {
  /** Stable name: `GET /assignments?employee_id=`, `employee embedded in GET /assignments/{id}`. */
  name: string;
  resource: string;
  kind: ViewKind;
  /** The operation that serves it. */
  op: string;
  /** Filters it applies (names of the list's filters). */
  filters?: readonly string[];
  /** For an embedded copy: the property of the parent record that holds it, and the parent view. */
  embedded?: { property: string; parent: View; };
}

/** The resources whose records embed another's: property → resource (assignment.employee → employees). */
function embeddings(ops: readonly Operation[]): { parent: string; property: string; child: string; }[] {
  const out: { parent: string; property: string; child: string; }[] = [];
  for (const res of resources(ops)) {
    const rec = ops.find((o) => o.resource === res && o.record)?.record;
    if (!rec) continue;
    for (const [property, raw] of Object.entries(((schema(rec) as Node).properties ?? {}) as Record<string, Node>)) {
      const ref = typeof raw.$ref === 'string' ? raw.$ref.replace(/^.*\//, '').replace(/\.json$/, '').split('#')[0] : undefined;
      const child = ref ? resources(ops).find((r) => r !== res && ops.some((o) => o.resource === r && o.record === ref)) : undefined;
      if (child) out.push({ parent: res, property, child });
    }
  }
  return out;
}

/** Every view of a resource's records, from the operation table. */
export function viewsOf(resource: string, ops: readonly Operation[] = operations()): View[] {
  const own: View[] = [];
  for (const o of ops.filter((x) => x.resource === resource)) {
    if (o.kind === 'get') own.push({ name: `GET ${o.path}`, resource, kind: 'get', op: o.op });
    if (o.kind === 'download') own.push({ name: `download ${o.path}`, resource, kind: 'download', op: o.op });
    if (o.kind !== 'list') continue;
    const required = o.filters.filter((f) => f.required).map((f) => f.name);
    if (required.length) {
      own.push({ name: `GET ${o.path}?${required.map((f) => `${f}=`).join('&')}`, resource, kind: 'entity', op: o.op, filters: required });
      continue;
    }
    own.push({ name: `GET ${o.path}`, resource, kind: 'list', op: o.op });
    const byId = o.filters.filter((f) => f.references);
    for (const f of byId) own.push({ name: `GET ${o.path}?${f.name}=`, resource, kind: 'filter', op: o.op, filters: [f.name] });
    if (byId.length > 1) {
      own.push({ name: `GET ${o.path}?${byId.map((f) => `${f.name}=`).join('&')}`, resource, kind: 'filter', op: o.op, filters: byId.map((f) => f.name) });
    }
    own.push({ name: `GET ${o.path}?q=`, resource, kind: 'q', op: o.op });
  }
  // a copy embedded in another resource's records is shown wherever they are
  const embedded = embeddings(ops).filter((e) => e.child === resource).flatMap((e) =>
    viewsOf(e.parent, ops)
      .filter((v) => v.kind !== 'embedded')
      .map((parent): View => ({
        name: `${e.property} embedded in ${parent.name}`,
        resource,
        kind: 'embedded',
        op: parent.op,
        embedded: { property: e.property, parent },
      }))
  );
  return [...own, ...embedded];
}
