// The change checker: compares two OpenAPI 3.1 documents, reports one entry per edit classified by
// §9 of the API document, and checks the version bump. `diffDocuments` takes parsed documents;
// `loadDocument` (./load.js) reads them (JSON or YAML) from files or git revisions and checks they
// are OpenAPI 3.1.
import { Collector } from './collector.js';
import { compareDocument } from './document.js';
import { compareOperations } from './operations.js';
import { type ExternalLoader, Resolver } from './resolve.js';
import { compareSecuritySchemes } from './security.js';
import type { DiffResult, Json } from './types.js';
import { checkVersion } from './version.js';

export interface DiffSide {
  document: Json;
  /** URI the document's relative $refs resolve against. */
  uri?: string;
  /** Reads another document a $ref points to; undefined when it cannot. */
  loadExternal?: ExternalLoader;
}

export function diffDocuments(oldDoc: Json | DiffSide, newDoc: Json | DiffSide): DiffResult {
  const [a, b] = [side(oldDoc), side(newDoc)];
  const collector = new Collector(
    new Resolver(a.document, 'old', a.uri, a.loadExternal),
    new Resolver(b.document, 'new', b.uri, b.loadExternal),
  );
  compareDocument(collector);
  compareSecuritySchemes(collector);
  compareOperations(collector);
  const changes = collector.changes;
  return { changes, version: checkVersion(a.document, b.document, changes), breaking: changes.some((c) => c.classification === 'breaking') };
}

function side(value: Json | DiffSide): DiffSide {
  return 'document' in value && typeof value.document === 'object' && value.document !== null && !('openapi' in value)
    ? (value as DiffSide)
    : { document: value as Json };
}

export { type ChangeKind, type Classification, classify, kinds, stricter } from './classify.js';
export { type DiffErrorCode, diffErrorCodes, type DiffErrorDetails, DiffInputError } from './errors.js';
export { formatJson, formatText } from './format.js';
export { DEFAULT_DOCUMENT, loadDocument, type LoadedDocument, type LoadOptions, repositoryRoot } from './load.js';
export { isYamlName, parseText } from './parse.js';
export type { Bump, Change, DiffResult, Effect, VersionProblem, VersionReport } from './types.js';
