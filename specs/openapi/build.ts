// Builds specs/openapi.json (OpenAPI 3.1) from specs/schemas/ and the §4 endpoint table.
// Run: npx tsx specs/openapi/build.ts   (specs/openapi.test.ts asserts the committed file
// equals a fresh build). The mock calls buildOpenApi() with its chosen extra paths.
//
// Paths carry the full /api/public/v1 prefix and the server is just {base_url}, so a v2
// document can be compared path by path and Prism serves the paths as written.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleSchemas, definitionName } from '../bundle.js';
import { resources } from '../registry.js';
import { specVersion } from '../version.js';
import { API_PREFIX, pageSchema, parameters, responses, SCHEMAS, securitySchemes } from './components.js';
import { extensionEndpoints, type ExtensionPaths, extensionSchemas } from './extensions.js';
import { type Endpoint, endpoints, operation } from './operations.js';

export const OPENAPI_PATH = fileURLToPath(new URL('../openapi.json', import.meta.url));

export interface BuildOptions {
  /** Paths (relative to /api/public/v1) of the endpoints whose path §4 does not show. Default: none. */
  extensions?: ExtensionPaths;
  /** Operations to mark `deprecated: true`: operationIds or 'METHOD /path' (path with or without the prefix). */
  deprecated?: readonly string[];
  /** Which project/organization shape responses document. Default 'either' (§2: not determinable). */
  shape?: 'full' | 'legacy' | 'either';
  /** Default of the {base_url} server variable. Default 'http://127.0.0.1:4010'. */
  baseUrl?: string;
}

export class OpenApiBuildError extends Error {
  constructor(
    readonly code: 'unknown_deprecated_operation' | 'duplicate_operation',
    message: string,
  ) {
    super(message);
  }
}

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Record<string, unknown>>>; };

export function buildOpenApi(options: BuildOptions = {}): OpenApiDocument {
  const all = [...endpoints, ...extensionEndpoints(options.extensions ?? {})];
  const paths: OpenApiDocument['paths'] = {};
  for (const e of all) {
    const item = (paths[API_PREFIX + e.path] ??= {});
    if (item[e.method]) throw new OpenApiBuildError('duplicate_operation', `${e.method.toUpperCase()} ${e.path} defined twice`);
    item[e.method] = operation(e);
  }
  markDeprecated(all, paths, options.deprecated ?? []);

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Projects, Employees and Assignments Public API',
      version: specVersion,
      description: 'The team-scoped public REST interface (v1). Every endpoint needs the bearer header. '
        + 'Responses may carry fields not listed here (clients must ignore unknown fields) and enumerations are open '
        + 'unless a schema lists a closed set. Endpoints whose path the API document does not show are absent '
        + 'unless a deployment adds them.',
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The deployment; paths below carry the /api/public/v1 prefix.',
        variables: { base_url: { default: options.baseUrl ?? 'http://127.0.0.1:4010', description: 'Scheme, host and port of the deployment.' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: tags(all),
    paths,
    components: {
      schemas: { ...bundleSchemas(SCHEMAS), ...shapeSchemas(options.shape ?? 'either'), ...extensionSchemas(options.extensions ?? {}) },
      parameters,
      responses,
      securitySchemes,
    },
  };
}

/** Responses of project and organization endpoints, and the typed pages of every list. */
function shapeSchemas(shape: 'full' | 'legacy' | 'either'): Record<string, object> {
  const pick = (full: string, legacy: string) =>
    shape === 'full'
      ? { $ref: SCHEMAS + full }
      : shape === 'legacy'
      ? { $ref: SCHEMAS + legacy }
      : { anyOf: [{ $ref: SCHEMAS + full }, { $ref: SCHEMAS + legacy }] };
  // a resource §2 shows in two shapes answers either (`ProjectResponse`); each list a page of its records
  const shown = resources().flatMap((r) => (r.record ? [{ ...r, title: definitionName(r.record) }] : []));
  const item = (r: (typeof shown)[number]) => (r.legacy ? `${r.title}Response` : r.title);
  return {
    ...Object.fromEntries(shown.flatMap((r) =>
      r.legacy
        ? [[`${r.title}Response`, {
          description: `${/^[aeiou]/.test(r.kind) ? 'An' : 'A'} ${r.kind} in the shape a deployment returns.`,
          ...pick(r.title, definitionName(r.legacy)),
        }]]
        : []
    )),
    ...Object.fromEntries(shown.flatMap((r) => (r.page ? [[r.page, pageSchema({ $ref: `${SCHEMAS}${item(r)}` })]] : []))),
  };
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Projects: 'Engagements with a pipeline stage and a status.',
  Assignments: 'Employees assigned to projects.',
  Employees: 'People of the team.',
  Organizations: 'Clients, recruiters and similar.',
  CVs: 'Employee CVs.',
  Attachments: 'Files bound to a project, organization, employee or contact.',
  Files: 'Free-standing uploads.',
  Intake: 'Captures from a browser extension.',
  Meta: 'The machine-readable description.',
};

function tags(all: Endpoint[]) {
  const used = [...new Set(all.map((e) => e.tag))];
  return used.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
}

function markDeprecated(all: Endpoint[], paths: OpenApiDocument['paths'], wanted: readonly string[]) {
  for (const w of wanted) {
    const hit = all.find((e) => e.operationId === w || matchesMethodPath(e, w));
    if (!hit) throw new OpenApiBuildError('unknown_deprecated_operation', `no operation matches deprecated entry: ${w}`);
    paths[API_PREFIX + hit.path]![hit.method]!.deprecated = true;
  }
}

function matchesMethodPath(e: Endpoint, entry: string): boolean {
  const [method, path] = entry.trim().split(/\s+/);
  if (!method || !path || method.toLowerCase() !== e.method) return false;
  return path === e.path || path === API_PREFIX + e.path;
}

export function serializeOpenApi(doc: object): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPENAPI_PATH, serializeOpenApi(buildOpenApi()));
  console.log(`wrote ${OPENAPI_PATH}`);
}
