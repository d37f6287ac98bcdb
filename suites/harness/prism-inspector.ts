// With CONFORMANCE_VIA_PRISM=1 every response passes through `prism proxy`; this
// inspector turns each violation Prism found in a response into a failure of the
// running check, naming the requirement of the catalog the violation breaks:
// the shape requirement of the resource the path serves (RES-<RESOURCE>-SHAPE),
// the page envelope for list envelopes, the error envelope for 4xx/5xx bodies.
// Only response-side Error violations count (see responseErrors).
import { formatViolation, type PrismViolation, responseErrors } from '../../integrations/prism-violations.js';
import { isKnownRequirement } from '../../specs/requirements.js';
import { addResponseInspector } from './run/context.js';
import type { Exchange } from './run/current.js';

/** Requirement ids a Prism violation is attributed to, by what the response carried. */
export const PRISM_REQUIREMENT = {
  projects: 'RES-PROJECT-SHAPE',
  assignments: 'RES-ASSIGNMENT-SHAPE',
  employees: 'RES-EMPLOYEE-SHAPE',
  organizations: 'RES-ORGANIZATION-SHAPE',
  cvs: 'RES-CV-SHAPE',
  attachments: 'RES-ATTACHMENT-SHAPE',
  files: 'RES-FILE-SHAPE',
  page: 'RES-PAGE-ENVELOPE',
  delete: 'RES-DELETE-RESULT',
  error: 'ERR-ENVELOPES',
  other: 'GEN-JSON-BODIES',
} as const;

type Collection = Exclude<keyof typeof PRISM_REQUIREMENT, 'page' | 'delete' | 'error' | 'other'>;

function collectionOf(pathname: string): Collection | undefined {
  const segment = pathname.replace(/^\/api\/public\/v\d+/, '').split('/')[1] ?? '';
  return segment in PRISM_REQUIREMENT && !['page', 'delete', 'error', 'other'].includes(segment)
    ? (segment as Collection)
    : undefined;
}

/** The catalog id a violation of this response breaks. */
export function requirementFor(method: string, url: string, status: number, violation: PrismViolation): string {
  if (status >= 400) return PRISM_REQUIREMENT.error;
  const pathname = new URL(url).pathname;
  const isItemPath = /\/[^/]+\/[^/]+$/.test(pathname.replace(/^\/api\/public\/v\d+/, ''));
  if (method.toUpperCase() === 'DELETE') return PRISM_REQUIREMENT.delete;
  // location: ['response', 'body', 'data', '3', 'stage'] or ['response', 'body', 'page', ...]
  const [, part, top] = violation.location;
  const isList = method.toUpperCase() === 'GET' && !isItemPath;
  if (isList && part === 'body' && top !== 'data') return PRISM_REQUIREMENT.page;
  const collection = collectionOf(pathname);
  return collection ? PRISM_REQUIREMENT[collection] : PRISM_REQUIREMENT.other;
}

/** A list response can break the same rule once per item: the first few tell the story. */
const MESSAGES_SHOWN = 5;

/** One message per violation (the first few), or undefined when Prism found none. */
export function inspectExchange(exchange: Exchange): string | undefined {
  const response = exchange.response;
  if (!response) return undefined;
  const errors = responseErrors(response.headers);
  if (errors.length === 0) return undefined;
  const { method, url } = exchange.request;
  const shown = errors
    .slice(0, MESSAGES_SHOWN)
    .map((v) => `Prism violation of ${requirementFor(method, url, response.status, v)}: ${formatViolation(v)}`);
  const more = errors.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

let installed = false;

/** Registers the inspector once per process (each test worker calls it). */
export function installPrismInspector(): void {
  if (installed) return;
  const unknown = Object.values(PRISM_REQUIREMENT).filter((id) => !isKnownRequirement(id));
  if (unknown.length) throw new Error(`Prism inspector names requirements missing from the catalog: ${unknown.join(', ')}`);
  addResponseInspector(inspectExchange);
  installed = true;
}
