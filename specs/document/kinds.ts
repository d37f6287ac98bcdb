// What each change of the document's structure is under §9, as a kind of the OpenAPI change checker
// (specs/diff/classify.ts), which owns the classifications and the §9 rule each falls under. Changes
// of the document thus read, and print, like those of the OpenAPI diff.
import { type Change, type ChangeKind, classify } from '../diff/index.js';

type FieldChange =
  | 'table-added'
  | 'table-removed'
  | 'added'
  | 'added-required'
  | 'removed'
  | 'type-changed'
  | 'became-nullable'
  | 'became-non-nullable'
  | 'became-required'
  | 'became-optional'
  | 'value-added'
  | 'value-removed'
  | 'values-closed'
  | 'values-opened'
  | 'reworded';

/**
 * Field tables by role. A resource's fields are sent in responses and accepted by PATCH and POST, so a
 * change counts as breaking when it breaks either side: "or null" added widens responses, taken away it
 * rejects a null a client could send. The error envelope is response only; list parameters request only.
 */
export const fieldKinds = {
  resource: {
    'table-added': 'endpoint.added',
    'table-removed': 'endpoint.removed',
    added: 'response.property.added',
    'added-required': 'request.property.added-required',
    removed: 'response.property.removed',
    'type-changed': 'response.type.changed',
    'became-nullable': 'response.type.widened',
    'became-non-nullable': 'request.type.narrowed',
    'became-required': 'request.property.became-required',
    'became-optional': 'request.property.became-optional',
    'value-added': 'response.enum.value-added',
    'value-removed': 'response.enum.value-removed',
    'values-closed': 'request.enum.restricted',
    'values-opened': 'response.enum.unrestricted',
    reworded: 'schema.documentation',
  },
  'error-envelope': {
    'table-added': 'error-envelope.changed',
    'table-removed': 'error-envelope.changed',
    added: 'response.property.added',
    'added-required': 'response.property.added',
    removed: 'error-envelope.changed',
    'type-changed': 'error-envelope.changed',
    'became-nullable': 'error-envelope.changed',
    'became-non-nullable': 'response.type.narrowed',
    'became-required': 'response.property.became-required',
    'became-optional': 'error-envelope.changed',
    'value-added': 'response.enum.value-added',
    'value-removed': 'response.enum.value-removed',
    'values-closed': 'response.enum.restricted',
    'values-opened': 'response.enum.unrestricted',
    reworded: 'response.documentation',
  },
  'list-parameters': {
    'table-added': 'parameter.added',
    'table-removed': 'parameter.removed',
    added: 'parameter.added',
    'added-required': 'parameter.added-required',
    removed: 'parameter.removed',
    'type-changed': 'request.type.changed',
    'became-nullable': 'request.type.widened',
    'became-non-nullable': 'request.type.narrowed',
    'became-required': 'parameter.became-required',
    'became-optional': 'parameter.became-optional',
    'value-added': 'request.enum.value-added',
    'value-removed': 'request.enum.value-removed',
    'values-closed': 'request.enum.restricted',
    'values-opened': 'request.enum.unrestricted',
    reworded: 'parameter.documentation',
  },
} as const satisfies Record<'resource' | 'error-envelope' | 'list-parameters', Record<FieldChange, ChangeKind>>;

type InputChange = 'added' | 'added-required' | 'removed' | 'became-required' | 'became-optional' | 'type-changed' | 'value-added' | 'value-removed';

/** Inputs an endpoint row names: query parameters, and fields of a JSON or multipart body. */
export const inputKinds = {
  query: {
    added: 'parameter.added',
    'added-required': 'parameter.added-required',
    removed: 'parameter.removed',
    'became-required': 'parameter.became-required',
    'became-optional': 'parameter.became-optional',
    'type-changed': 'request.type.changed',
    'value-added': 'request.enum.value-added',
    'value-removed': 'request.enum.value-removed',
  },
  body: {
    added: 'request.property.added',
    'added-required': 'request.property.added-required',
    removed: 'request.property.removed',
    'became-required': 'request.property.became-required',
    'became-optional': 'request.property.became-optional',
    'type-changed': 'request.type.changed',
    'value-added': 'request.enum.value-added',
    'value-removed': 'request.enum.value-removed',
  },
} as const satisfies Record<'query' | 'body', Record<InputChange, ChangeKind>>;

export const endpointKinds = {
  added: 'endpoint.added',
  removed: 'endpoint.removed',
  // `(path under /files)` → `/files/{id}/content`: the path of an existing endpoint is now shown.
  'path-shown': 'endpoint.documentation',
  'response-changed': 'response.type.changed',
  // `not specified` → `Delete result`: what was left open is now written down.
  'response-specified': 'response.documentation',
  'payload-reworded': 'endpoint.documentation',
  'body-added': 'request-body.added',
  'body-added-required': 'request-body.added-required',
  'body-removed': 'request-body.removed',
  'media-type-changed': 'request.media-type.removed',
} as const satisfies Record<string, ChangeKind>;

/** §7 known conditions: a condition's status and code are error codes a client acts on. */
export const conditionKinds = {
  added: 'error-code.added',
  removed: 'error-code.removed',
  'status-changed': 'error-code.removed',
  'code-changed': 'error-code.removed',
  'code-specified': 'error-code.added',
  reworded: 'response.documentation',
} as const satisfies Record<string, ChangeKind>;

/** §8 limits: a lower or a new limit rejects input that was accepted (tightened validation). */
export const limitKinds = {
  added: 'request.constraint.tightened',
  removed: 'request.constraint.relaxed',
  lowered: 'request.constraint.tightened',
  raised: 'request.constraint.relaxed',
  'applies-to-more': 'request.constraint.tightened',
  'applies-to-fewer': 'request.constraint.relaxed',
  reworded: 'document.documentation',
} as const satisfies Record<string, ChangeKind>;

export const shapeKinds = {
  added: 'endpoint.added',
  removed: 'endpoint.removed',
  'page-envelope-changed': 'pagination-envelope.changed',
  changed: 'response.type.changed',
} as const satisfies Record<string, ChangeKind>;

/** Prose is wording to the diff; `requirements check` shows which requirements a changed sentence touches. */
export const proseKinds = {
  added: 'document.documentation',
  removed: 'document.documentation',
  reworded: 'document.documentation',
} as const satisfies Record<string, ChangeKind>;

export function documentChange(kind: ChangeKind, location: string, message: string, operation?: string): Change {
  const { classification, rule } = classify(kind);
  return { kind, classification, location, rule, message, ...(operation ? { operation } : {}) };
}
