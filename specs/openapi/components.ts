// Reusable OpenAPI components: parameters, error responses, security, list pages.
// Shapes come from specs/schemas/ (bundled into components.schemas); nothing here
// defines a resource or envelope, it only composes them.

import { PATH_ID_PATTERN_SOURCE } from '../ids.js';

export const API_PREFIX = '/api/public/v1';
export const SCHEMAS = '#/components/schemas/';
export const ref = (kind: 'schemas' | 'parameters' | 'responses' | 'requestBodies', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

/** Scope tokens the document names (§5); the pattern covers every `<resource>:read|write`. */
export const SHOWN_SCOPES = [
  'files:read',
  'files:write',
  'attachments:read',
  'attachments:write',
  'time_entries:read',
  'time_entries:write',
  'trips:read',
];

export const securitySchemes = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key sent as a bearer token: `Authorization: Bearer <API_KEY>` (§5). Keys carry scopes named '
      + '`<resource>:read` and `<resource>:write` (no wildcards), e.g. '
      + SHOWN_SCOPES.map((s) => `\`${s}\``).join(', ')
      + '. Which scope guards which endpoint is not shown, so operations list no scope. '
      + 'HTTP bearer schemes have no scope declaration in OpenAPI; the tokens are listed in `x-scopes`.',
    'x-scopes': { pattern: '^[a-z_]+:(read|write)$', shown: SHOWN_SCOPES },
  },
};

const stringParam = (name: string, description: string, extra: Record<string, unknown> = {}) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', ...extra },
});

export const parameters = {
  Id: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'A canonical UUID of versions 1 to 8 with variant 8/9/a/b, or the all-zero or all-f UUID (§4).',
    schema: { type: 'string', format: 'uuid', pattern: PATH_ID_PATTERN_SOURCE },
  },
  IdempotencyKey: {
    name: 'idempotency-key',
    in: 'header',
    required: false,
    description: 'Optional on every mutating endpoint (§4). A retry with the same key replays the original response.',
    schema: { type: 'string' },
  },
  Limit: stringParam('limit', 'Page size (typed string in §4; default and maximum not shown).'),
  Cursor: stringParam('cursor', 'Opaque value copied from a previous `page.nextCursor`; absent or empty means the first page.'),
  Sort: stringParam('sort', 'Sort field (names not shown).'),
  Order: stringParam('order', 'Sort order.', { enum: ['asc', 'desc'] }),
  Q: stringParam('q', 'Search text.'),
  ProjectIdFilter: stringParam('project_id', 'Only assignments of this project.', { format: 'uuid' }),
  EmployeeIdFilter: stringParam('employee_id', 'Only records of this employee.', { format: 'uuid' }),
  EntityType: {
    name: 'entity_type',
    in: 'query',
    required: true,
    description: 'The kind of entity the attachments are bound to.',
    schema: { $ref: `${SCHEMAS}Attachment/properties/entity_type` },
  },
  EntityId: {
    name: 'entity_id',
    in: 'query',
    required: true,
    description: 'The entity the attachments are bound to.',
    schema: { $ref: `${SCHEMAS}Attachment/properties/entity_id` },
  },
};

export const LIST_PARAMETERS = ['Limit', 'Cursor', 'Sort', 'Order', 'Q'] as const;

const errorContent = {
  'application/json': {
    // The full envelope also accepts every short one; anyOf keeps both documented.
    schema: { anyOf: [{ $ref: `${SCHEMAS}ErrorEnvelope` }, { $ref: `${SCHEMAS}ShortErrorEnvelope` }] },
  },
};

export const responses = {
  BadRequest: {
    description: 'The request cannot be served, e.g. a cursor that cannot be decoded or was issued for another sort or order (code `bad_request`).',
    content: errorContent,
  },
  NotFound: {
    description: "No record with this id in the caller's team (code `not_found`); another team's id answers the same.",
    content: errorContent,
  },
  UnprocessableEntity: {
    description: 'An upload retried with the same idempotency key and a different file (§4 upload rule 3).',
    content: errorContent,
  },
  ClientError: {
    description: 'Another client error; statuses and codes not shown (authentication, scopes, plan limits, validation).',
    content: errorContent,
  },
  Error: {
    description: 'Any other error.',
    content: errorContent,
  },
};

/** Page components: the page envelope with its items typed. */
export function pageSchema(itemSchema: object) {
  return {
    allOf: [
      { $ref: `${SCHEMAS}PageEnvelope` },
      { type: 'object', properties: { data: { type: 'array', items: itemSchema } } },
    ],
  };
}
