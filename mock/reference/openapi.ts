// The served machine-readable description (GET /openapi.json): specs/openapi/build.ts'
// document extended with the mock's chosen paths, `deprecated: true` on the operations
// deprecated at start, serialized once per start.
import { buildOpenApi, type OpenApiDocument } from '../../specs/openapi/build.js';
import { extensionEndpoints } from '../../specs/openapi/extensions.js';
import { type Endpoint, endpoints } from '../../specs/openapi/operations.js';
import type { Shape } from './render.js';

/** The mock's readings of the paths §4 does not show (relative to /api/public/v1). */
export const CHOSEN_PATHS = {
  organizationCreate: '/organizations',
  attachmentDownload: '/attachments/{id}/download',
  fileDelete: '/files/{id}',
  captureIntake: '/intake/captures',
  openapi: '/openapi.json',
} as const;

/** Every operation the mock serves, at its method and path: the table the served description is built from. */
export const servedOperations = (): Endpoint[] => [...endpoints, ...extensionEndpoints(CHOSEN_PATHS)];

export interface ServedOpenApi {
  json: string;
  readonly deprecatedOperations: Set<string>;
  readonly doc: OpenApiDocument;
}

export function servedOpenApi(opts: { deprecate: readonly string[]; shape: Shape | 'either'; baseUrl: string; }): ServedOpenApi {
  const doc = buildOpenApi({
    extensions: CHOSEN_PATHS,
    deprecated: opts.deprecate,
    shape: opts.shape,
    baseUrl: opts.baseUrl,
  });
  const deprecatedOperations = new Set<string>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (op.deprecated === true) deprecatedOperations.add(String(op.operationId));
    }
  }
  return { json: JSON.stringify(doc), deprecatedOperations, doc };
}
