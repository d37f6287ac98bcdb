// The elements the failure modes are generated over, and the one place they are read from: the
// API's surface (specs/surface.ts, over the mock's served paths) and the record schemas. Every
// failure mode applies to every element of its kind; a new field, filter, view or route in the
// document becomes new elements here, and so new faults of every mode of its kind.
//
// Element names are stable and shell-safe (no spaces): an operation id, `op.field.path`, a view's
// slug (`listAssignments?project_id`, `listAssignments?q`, `getAssignment>employee`), `view#attribute`.
import { schema, type SchemaName } from '../../../specs/index.js';
import { allFields, type Field, type Operation, operations, type View, viewsOf } from '../../../specs/surface.js';
import { SORT_FIELDS } from '../../reference/lists.js';
import { CHOSEN_PATHS } from '../../reference/openapi.js';

export type ElementKind = 'field' | 'shown' | 'parameter' | 'header' | 'route' | 'view' | 'list' | 'id' | 'upload' | 'sort';

/** A request field of a create or a PATCH (nested ones by path: `addresses[].city`). */
export interface FieldElement {
  kind: 'field';
  name: string;
  op: Operation;
  field: Field;
}

/** A response attribute of a record kind, as one view shows it. */
export interface ShownElement {
  kind: 'shown';
  name: string;
  view: ViewElement;
  attribute: string;
  types: readonly string[];
  format?: string;
}

/** A query parameter of a list: the §4 list parameters and the list's filters. */
export interface ParameterElement {
  kind: 'parameter';
  name: string;
  op: Operation;
  parameter: string;
}

/** A request header of an operation. */
export interface HeaderElement {
  kind: 'header';
  name: string;
  op: Operation;
  header: 'authorization' | 'accept' | 'content-type' | 'idempotency-key';
}

/** A served operation (`route`), a list (`list`), an operation with a path id (`id`), an upload (`upload`). */
export interface OperationElement {
  kind: 'route' | 'list' | 'id' | 'upload';
  name: string;
  op: Operation;
}

/** A view of a resource's records (specs/surface.ts View), named by its slug. */
export interface ViewElement {
  kind: 'view';
  name: string;
  view: View;
  /** The operation that answers it. */
  op: string;
  /** The list views a request of it asks for (mock/faults/lists.ts viewsOf), or none for a GET by id. */
  listView?: string;
  /** The record schema of what it shows. */
  record: SchemaName;
  /** For a copy embedded in another record: the property that holds it. */
  embedded?: string;
}

/** A sort field of a list. */
export interface SortElement {
  kind: 'sort';
  name: string;
  op: Operation;
  sort: string;
}

export type Element = FieldElement | ShownElement | ParameterElement | HeaderElement | OperationElement | ViewElement | SortElement;
export type ElementOf<K extends ElementKind> = K extends OperationElement['kind'] ? OperationElement : Extract<Element, { kind: K; }>;

type Node = Record<string, unknown>;

const served = (): Operation[] => operations(CHOSEN_PATHS);

/** Operations that change records a view shows (a capture, the description: none). */
const recordOps = () => served().filter((o) => o.record !== undefined);

function fields(): FieldElement[] {
  return recordOps().filter((o) => o.kind === 'create' || o.kind === 'patch').flatMap((op) =>
    allFields(op.fields).map((field): FieldElement => ({ kind: 'field', name: `${op.op}.${field.path}`, op, field }))
  );
}

function slugOf(v: View): string {
  if (v.embedded) return `${slugOf(v.embedded.parent)}>${v.embedded.property}`;
  if (v.kind === 'q') return `${v.op}?q`;
  if (v.kind === 'filter') return `${v.op}?${v.filters!.join('&')}`;
  return v.op;
}

/** The list view a request of `v` asks for, as mock/faults/lists.ts viewsOf names it. */
function listViewOf(v: View): string | undefined {
  const base = v.embedded ? v.embedded.parent : v;
  if (base.kind === 'list' || base.kind === 'entity') return base.op;
  if (base.kind === 'q') return `${base.op}?q`;
  if (base.kind === 'filter') return `${base.op}?${base.filters![0]}`;
  return undefined;
}

function views(): ViewElement[] {
  const ops = served();
  const resources = [...new Set(recordOps().map((o) => o.resource))];
  return resources.flatMap((r) => {
    const record = ops.find((o) => o.resource === r && o.record)!.record!;
    return viewsOf(r, ops).filter((v) => v.kind !== 'download').map((view): ViewElement => {
      const listView = listViewOf(view);
      return {
        kind: 'view',
        name: slugOf(view),
        view,
        op: view.op,
        record,
        ...(listView ? { listView } : {}),
        ...(view.embedded ? { embedded: view.embedded.property } : {}),
      };
    });
  });
}

function resolved(node: Node): Node {
  if (typeof node.$ref !== 'string') return node;
  const file = node.$ref.split('#')[0]!.replace(/^.*\//, '').replace(/\.json$/, '');
  return file ? (schema(file as SchemaName) as Node) : node;
}

/** The top-level attributes of a record schema, with their JSON types. */
export function attributesOf(record: SchemaName): { attribute: string; types: string[]; format?: string; }[] {
  const props = ((schema(record) as Node).properties ?? {}) as Record<string, Node>;
  return Object.entries(props).map(([attribute, raw]) => {
    const n = resolved(raw);
    const t = n.type ?? (n.properties ? 'object' : undefined);
    const types = Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : ['object'];
    return { attribute, types, ...(typeof n.format === 'string' ? { format: n.format } : {}) };
  });
}

function shown(): ShownElement[] {
  return views().flatMap((view) =>
    attributesOf(view.record).filter((a) => a.attribute !== 'id').map((a): ShownElement => ({
      kind: 'shown',
      name: `${view.name}#${a.attribute}`,
      view,
      ...a,
    }))
  );
}

const LIST_PARAMETERS = ['limit', 'cursor', 'sort', 'order', 'q'];

function parameters(): ParameterElement[] {
  return served().filter((o) => o.kind === 'list').flatMap((op) =>
    [...LIST_PARAMETERS, ...op.filters.map((f) => f.name)].map((parameter): ParameterElement => ({
      kind: 'parameter',
      name: `${op.op}?${parameter}`,
      op,
      parameter,
    }))
  );
}

function headers(): HeaderElement[] {
  return served().filter((o) => o.record !== undefined).flatMap((op) => {
    const hs: HeaderElement['header'][] = ['authorization', 'accept'];
    if (op.method !== 'get') hs.push('idempotency-key');
    if (op.body) hs.push('content-type');
    return hs.map((header): HeaderElement => ({ kind: 'header', name: `${op.op}:${header}`, op, header }));
  });
}

function operationsOf(kind: OperationElement['kind']): OperationElement[] {
  const pick = {
    route: (o: Operation) => o.record !== undefined,
    list: (o: Operation) => o.kind === 'list',
    id: (o: Operation) => o.path.includes('{id}'),
    upload: (o: Operation) => o.multipart,
  }[kind];
  return served().filter(pick).map((op) => ({ kind, name: op.op, op }));
}

function sorts(): SortElement[] {
  return served().filter((o) => o.kind === 'list').flatMap((op) =>
    ((SORT_FIELDS as Record<string, readonly string[] | undefined>)[op.resource] ?? []).map((sort): SortElement => ({
      kind: 'sort',
      name: `${op.op}?sort=${sort}`,
      op,
      sort,
    }))
  );
}

let cache: Map<ElementKind, Element[]> | undefined;

/** Every element of a kind, in a stable order. */
export function elementsOf<K extends ElementKind>(kind: K): readonly ElementOf<K>[] {
  cache ??= new Map<ElementKind, Element[]>([
    ['field', fields()],
    ['shown', shown()],
    ['parameter', parameters()],
    ['header', headers()],
    ['route', operationsOf('route')],
    ['view', views()],
    ['list', operationsOf('list')],
    ['id', operationsOf('id')],
    ['upload', operationsOf('upload')],
    ['sort', sorts()],
  ]);
  return cache.get(kind) as ElementOf<K>[];
}
