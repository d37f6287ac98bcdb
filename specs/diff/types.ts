// Shapes shared by the modules of the change checker.
import type { ChangeKind, Classification } from './classify.js';

export type { ChangeKind, Classification };

/** One edit between the two documents, as reported: one entry however many places the edit reaches. */
export interface Change {
  /** The kind of the edit's strictest consequence. */
  kind: ChangeKind;
  classification: Classification;
  /** JSON pointer of the edited node (a component, a path-item parameter, a property of a schema). */
  location: string;
  /** The §9 rule the classification falls under. */
  rule: string;
  message: string;
  /** `METHOD /path` of the operation the edit affects, when it affects exactly one. */
  operation?: string;
  /** `uri#/pointer` of the edited node when it is in another file; `location` is then where the document reaches it. */
  origin?: string;
  /** Every place the edit is seen and what it means there, when that is more than its own location. */
  affects?: Effect[];
}

/** One consequence of an edit: how it shows at one place of one operation, in one direction. */
export interface Effect {
  kind: ChangeKind;
  classification: Classification;
  /** Where the edit is seen, following the operation down (parameters by `in:name`). */
  location: string;
  message: string;
  operation?: string;
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
