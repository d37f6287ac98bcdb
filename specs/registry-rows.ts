// What the API document does not show about each resource, one row per resource: the collections
// the document names, and for each the choices a server (and the suite, reading a target's
// settings) has to make where §4 is silent. Every value says which silence it fills. The keys are
// the one hand-written list of the collections; specs/registry.test.ts holds them to the operation
// table and the schemas, so a resource added to the document without a row (or a row without a
// resource) fails there.
//
// Nothing here is a shape or a rule: those come from the operation table and the schemas
// (specs/registry.ts).

export interface ResourceRow {
  /**
   * Sort fields of its list, the default first (§4: "the sort field names are not shown"); a
   * target's own come from CONFORMANCE_SORT_FIELDS. Empty: the list has no sort a run may name.
   */
  readonly sort: readonly string[];
  /** The field `q` matches (§4 list parameters: `q` is "search text"; what it searches is not shown). */
  readonly search?: string;
  /**
   * Paths of the operations §4 names without showing (`(path under /x)`, the capture intake): the
   * reference mock's choice, and the place a table built without a target puts them.
   */
  readonly chosen?: Readonly<Partial<Record<'attachmentDownload' | 'fileDelete' | 'captureIntake', string>>>;
  /** Records per team in the mock's seed (§2 shows no population; the suite walks several pages). */
  readonly seed?: number;
  /** Why the resource is a collection at all, where no operation of §4 acts on it. */
  readonly named?: string;
}

export const RESOURCE_ROWS = {
  projects: { sort: ['created_at', 'updated_at', 'title'], search: 'title', seed: 55 },
  assignments: { sort: ['created_at', 'updated_at'], search: 'role', seed: 34 },
  organizations: { sort: ['created_at', 'updated_at', 'name'], search: 'name', seed: 32 },
  cvs: { sort: ['created_at', 'updated_at', 'name'], search: 'name' },
  employees: { sort: [], seed: 22 },
  attachments: { sort: ['created_at', 'filename'], search: 'filename', chosen: { attachmentDownload: '/attachments/{id}/download' } },
  files: { sort: [], chosen: { fileDelete: '/files/{id}' } },
  captures: { sort: [], chosen: { captureIntake: '/intake/captures' }, named: '§1: "an intake endpoint for captures from a browser extension"' },
  contacts: { sort: [], named: '§1 names contacts with no shape; §2 names them as an attachment entity_type and a project reference' },
} as const satisfies Record<string, ResourceRow>;

/** A collection of the API: the path segment of its operations, and the name of its scopes (§5 `<resource>:read`). */
export type Collection = keyof typeof RESOURCE_ROWS;

/** Every collection, in the order of the rows. */
export const COLLECTIONS = Object.keys(RESOURCE_ROWS) as readonly Collection[];

/** The kind of a record: the collection's name in the singular (`projects` → `project`). */
export type RecordKind = Collection extends infer C ? C extends `${infer K}s` ? K : never : never;

export const kindOf = <C extends Collection>(collection: C): C extends `${infer K}s` ? K : never =>
  collection.slice(0, -1) as C extends `${infer K}s` ? K : never;

export const collectionOf = (kind: RecordKind): Collection => `${kind}s` as Collection;

export const RECORD_KINDS = COLLECTIONS.map(kindOf) as readonly RecordKind[];

export const isCollection = (s: string): s is Collection => Object.hasOwn(RESOURCE_ROWS, s);
