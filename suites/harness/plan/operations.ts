// The API's surface (specs/surface.ts) as one target serves it: the document's operations, and
// those §4 names without a path at the paths the target's settings give (an operation whose
// setting is unset is not there). Every table a check runs over starts here.
import { API_PREFIX, type Settings } from '../../../contract/settings.js';
import type { ExtensionPaths } from '../../../specs/openapi/extensions.js';
import { type Operation, operations, type View, viewsOf } from '../../../specs/surface.js';
import type { Resource } from '../judge/problems.js';

export type { Field, Operation, View } from '../../../specs/surface.js';

const cache = new WeakMap<Settings['paths'], Operation[]>();

/** The extension paths the settings give, relative to /api/public/v1 (a method other than the operation's own is not served). */
export function extensionPathsOf(paths: Settings['paths']): ExtensionPaths {
  const rel = (e: { path: string; } | undefined) => (e ? e.path.replace(API_PREFIX, '') : undefined);
  const out: ExtensionPaths = {};
  if (paths.attachmentDownload) out.attachmentDownload = rel(paths.attachmentDownload)!;
  if (paths.fileDelete) out.fileDelete = rel(paths.fileDelete)!;
  if (paths.captureIntake) out.captureIntake = rel(paths.captureIntake)!;
  if (paths.openapi) out.openapi = rel(paths.openapi)!;
  return out;
}

/** The operations the target serves (the document's, and those at the paths its settings give). */
export function servedOperations(settings: Pick<Settings, 'paths'>): Operation[] {
  let ops = cache.get(settings.paths);
  if (!ops) {
    const create = settings.paths.organizationCreate.path.replace(API_PREFIX, '');
    ops = operations(extensionPathsOf(settings.paths)).map((o) => (o.op === 'createOrganization' ? { ...o, path: create } : o));
    cache.set(settings.paths, ops);
  }
  return ops;
}

export function operationNamed(settings: Pick<Settings, 'paths'>, op: string): Operation | undefined {
  return servedOperations(settings).find((o) => o.op === op);
}

/** Every view of a resource the target serves. */
export function servedViews(settings: Pick<Settings, 'paths'>, resource: string): View[] {
  return viewsOf(resource, servedOperations(settings));
}

/** The name the response checks give a resource's records (its record schema, the fuller shape). */
export function recordKind(op: Pick<Operation, 'record'>): Resource | undefined {
  return op.record as Resource | undefined;
}

/** The method and path of a request to `op`, its path id filled. */
export function requestTo(op: Pick<Operation, 'method' | 'path'>, id?: string): { method: string; path: string; } {
  return { method: op.method.toUpperCase(), path: id === undefined ? op.path : op.path.replace('{id}', id) };
}
