// Reading a response a check needs, tolerantly. What the document says of every response — its
// JSON, its envelope, its shape — is judged once per response by the audit (audit.ts) and reported
// under its own requirements; a check of behaviour reads only the fields it needs and does not fail
// on a violation elsewhere in the body (§9: clients ignore what they do not read). Where a field it
// needs is itself one the audit found wrong, the check cannot go on: it is blocked by that finding
// (Unreadable), which is reported once, as the finding's cause.
import { isRecord } from '../../../contract/json.js';
import type { SchemaTypes } from '../../../specs/index.js';
import { validate as validateSchema } from '../../../specs/index.js';
import type { ApiResponse } from '../transport/client.js';
import { fail } from './assert.js';
import type { Violation } from './audit.js';

export type Resource = 'project' | 'organization' | 'employee' | 'assignment' | 'attachment' | 'file' | 'cv' | 'delete-result';

/** A check needs a part of a response the audit found wrong: it is blocked by that finding. */
export class Unreadable extends Error {
  constructor(readonly violation: Violation, readonly response: ApiResponse) {
    super(violation.message);
    this.name = 'Unreadable';
  }

  get exchange() {
    return this.response.exchange;
  }
}

/**
 * Whether a finding at `at` keeps the value at `needed` from being read: it is that value, or what
 * holds it (a page that is no object holds no data). A wrong part of a needed value (an item's
 * field, when the walk needs only the list) does not: a check that reads the part names it.
 */
const covers = (at: string, needed: string) => at === needed || needed.startsWith(`${at}/`) || at === '';

/** The response's finding about the value at `pointer`, if the audit found one. */
export function findingAt(res: ApiResponse, pointer: string): Violation | undefined {
  return res.findings?.find((v) => !v.readable && covers(v.pointer, pointer));
}

/** Stops the check, blocked, when the audit found any of the pointers wrong. */
export function needs(res: ApiResponse, pointers: readonly string[]): void {
  for (const p of pointers) {
    const v = findingAt(res, p);
    if (v) throw new Unreadable(v, res);
  }
}

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

/** How a check reads a record: what to call it in a failure, and the fields it reads (besides the id). */
export interface Reading {
  what?: string;
  reads?: readonly string[];
}

/**
 * The body as a record of `resource`, for a check that reads its id and the fields `reads` names
 * (a nested one as `stage/key`). A field the audit found wrong blocks the check; the rest of the
 * body is not judged here.
 */
export function expectResource<R extends Resource>(res: ApiResponse, resource: R, reading: string | Reading = {}): ResourceOf<R> {
  const { what = `${resource} body`, reads = [] } = typeof reading === 'string' ? { what: reading } : reading;
  needs(res, ['']);
  if (!isRecord(res.body)) fail(`${what} is not a JSON object`, res);
  needs(res, [...(resource === 'delete-result' ? [] : ['id']), ...reads].map((f) => `/${f}`));
  return res.body as ResourceOf<R>;
}

export interface Page {
  data: Record<string, unknown>[];
  page: { hasMore: boolean; nextCursor?: string; };
}

/**
 * The body as a page, for a walk: it needs `data` (items with an id), `page.hasMore`, and
 * `page.nextCursor` when there is more. Anything else the audit found wrong in the page (a null
 * nextCursor on the last page, a mistyped field of an item) does not stop a walk.
 */
export function expectPage(res: ApiResponse, resource: Resource, what = `page of ${resource}`): Page {
  needs(res, ['', '/data', '/page', '/page/hasMore']);
  const body = res.body as { data?: unknown; page?: { hasMore?: unknown; nextCursor?: unknown; }; } | undefined;
  if (!isRecord(body) || !Array.isArray(body.data) || !isRecord(body.page) || typeof body.page.hasMore !== 'boolean') {
    fail(`${what} is not a page envelope (data array, page.hasMore)`, res);
  }
  if (body.page.hasMore) needs(res, ['/page/nextCursor']);
  needs(res, body.data.flatMap((_, i) => [`/data/${i}/id`]));
  if (body.data.some((item) => !isRecord(item))) fail(`${what} holds an item that is not an object`, res);
  return body as unknown as Page;
}

/** The `error.code` of an error body, for a check that reads it; an error body the audit found without one blocks the check. */
export function errorCode(res: ApiResponse): string | undefined {
  needs(res, ['', '/error', '/error/code']);
  const body = res.body as { error?: { code?: unknown; }; } | undefined;
  return typeof body?.error?.code === 'string' ? body.error.code : undefined;
}

const describe = (errors: { path: string; message: string; }[]) => errors.slice(0, 8).map((e) => `${e.path || '/'} ${e.message}`).join('; ');

/**
 * An error body, for a check that reads its code and message: the full envelope, or (legacy
 * project/organization list and update) the short one. The envelope itself is judged by the audit;
 * a body with no error object at all blocks the check by that finding.
 */
export function expectErrorEnvelope(
  res: ApiResponse,
  what = 'error body',
  shortAllowed = false,
): { error: { code: string; message: string; }; detail?: Record<string, string>; } {
  needs(res, ['', '/error']);
  const full = validateSchema('error', res.body).errors;
  if (full.length && !(shortAllowed && validateSchema('error-short', res.body).errors.length === 0)) {
    const v = res.findings?.find((f) => f.requirements.some((id) => id.startsWith('ERR-')));
    if (v) throw new Unreadable(v, res);
    fail(`${what} is not an error envelope: ${res.body === undefined ? `not JSON: ${res.text.slice(0, 200)}` : describe(full)}`, res);
  }
  return res.body as { error: { code: string; message: string; }; };
}
