// Response validation against specs/ in the shape the deployment serves. Extra response fields
// never fail (the schemas do not forbid them, §9).
import { type SchemaName, type SchemaTypes, validate as validateSchema, validatePage as validatePageSchema } from '../../specs/index.js';
import { fail } from './assert.js';
import type { ApiResponse } from './client.js';
import { servedShape, shapeOfRecord } from './shape.js';

export type Resource = 'project' | 'organization' | 'employee' | 'assignment' | 'attachment' | 'file' | 'cv' | 'delete-result';

export interface SchemaProblem {
  path: string;
  message: string;
}

function schemaOf(resource: Resource, sample: unknown): SchemaName {
  if (resource === 'project' || resource === 'organization') {
    return servedShape(resource, sample) === 'legacy' ? (`${resource}-legacy` as SchemaName) : resource;
  }
  return resource;
}

export function recordProblems(resource: Resource, value: unknown): SchemaProblem[] {
  return [...validateSchema(schemaOf(resource, value), value).errors, ...shapeDrift(resource, [value], '')];
}

export function pageProblems(resource: Resource, value: unknown): SchemaProblem[] {
  const data = (value as { data?: unknown[]; } | undefined)?.data;
  return [...validatePageSchema(schemaOf(resource, data?.[0]), value).errors, ...shapeDrift(resource, Array.isArray(data) ? data : [], '/data')];
}

/** A project or organization in the other shape than the one the deployment was seen serving. */
function shapeDrift(resource: Resource, records: unknown[], at: string): SchemaProblem[] {
  if (resource !== 'project' && resource !== 'organization') return [];
  const problems: SchemaProblem[] = [];
  records.forEach((r, i) => {
    if (!r || typeof r !== 'object') return;
    const expected = servedShape(resource, r);
    const actual = shapeOfRecord(resource, r as Record<string, unknown>);
    if (actual !== undefined && actual !== expected) {
      problems.push({ path: `${at}${at ? `/${i}` : ''}`, message: `is in the ${actual} shape, the deployment serves the ${expected} shape` });
    }
  });
  return problems;
}

const describe = (errors: SchemaProblem[]) => errors.slice(0, 8).map((e) => `${e.path || '/'} ${e.message}`).join('; ');

/** The response body is a valid `resource`; fails the check with the exchange otherwise. */
/** The type generated from each resource's schema (specs/types.ts); fields beyond it stay readable (§9). */
export type ResourceOf<R extends Resource> = ResourceTypes[R] & Record<string, unknown>;
interface ResourceTypes {
  project: SchemaTypes['project'] | SchemaTypes['project-legacy'];
  organization: SchemaTypes['organization'] | SchemaTypes['organization-legacy'];
  employee: SchemaTypes['employee'];
  assignment: SchemaTypes['assignment'];
  attachment: SchemaTypes['attachment'];
  file: SchemaTypes['file'];
  cv: SchemaTypes['cv'];
  'delete-result': SchemaTypes['delete-result'];
}

/** The body, once it matches the resource's schema, typed by it; a mismatch fails the check. */
export function expectResource<R extends Resource>(res: ApiResponse, resource: R, what = `${resource} body`): ResourceOf<R> {
  const errors = recordProblems(resource, res.body);
  if (res.body === undefined || errors.length) {
    fail(`${what} does not match schema ${resource}: ${res.body === undefined ? 'not JSON' : describe(errors)}`, res);
  }
  return res.body as ResourceOf<R>;
}

export interface Page {
  data: Record<string, unknown>[];
  page: { hasMore: boolean; nextCursor?: string; };
}

export function expectPage(res: ApiResponse, resource: Resource, what = `page of ${resource}`): Page {
  const errors = pageProblems(resource, res.body);
  if (res.body === undefined || errors.length) fail(`${what} does not match the page envelope: ${res.body === undefined ? 'not JSON' : describe(errors)}`, res);
  return res.body as Page;
}

/** An error body: the full envelope, or (legacy project/organization list and update) the short one. */
export function expectErrorEnvelope(
  res: ApiResponse,
  what = 'error body',
  shortAllowed = false,
): { error: { code: string; message: string; }; detail?: Record<string, string>; } {
  const full = validateSchema('error', res.body).errors;
  if (full.length && !(shortAllowed && validateSchema('error-short', res.body).errors.length === 0)) {
    fail(`${what} is not an error envelope: ${res.body === undefined ? `not JSON: ${res.text.slice(0, 200)}` : describe(full)}`, res);
  }
  return res.body as { error: { code: string; message: string; }; };
}
