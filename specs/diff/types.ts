// Shapes shared by the modules of the change checker.
import type { ChangeKind, Classification } from './classify.js';

export type { ChangeKind, Classification };

/** One difference between the two documents, as reported. */
export interface Change {
  kind: ChangeKind;
  classification: Classification;
  /** JSON-pointer-like path through the document, following $refs where the change matters. */
  location: string;
  /** The §9 rule the classification falls under. */
  rule: string;
  message: string;
  /** `METHOD /path` of the operation the change affects, when it affects one. */
  operation?: string;
  /** Pointer to the node that changed, when it lives elsewhere than `location` (a referenced schema). */
  origin?: string;
}

export type Bump = 'major' | 'minor' | 'patch' | 'none';

export interface VersionProblem {
  code: string;
  message: string;
}

export interface VersionReport {
  old: string;
  new: string;
  required: Bump;
  ok: boolean;
  problems: VersionProblem[];
  /** Things to verify by hand that the two documents cannot show (support window dates). */
  notes: VersionProblem[];
}

export interface DiffResult {
  changes: Change[];
  version: VersionReport;
  breaking: boolean;
}

/** Which side writes the data a schema describes: request bodies and parameters, or responses. */
export type Direction = 'request' | 'response';

/** A plain JSON object as found in an OpenAPI document. */
export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
