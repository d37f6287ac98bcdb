// Gathers what the walkers find, classifying each finding through the rules table, and folds the
// findings into one entry per edit (./edits.js). Findings inside the pagination or error envelope
// that would break a client are reported as an envelope change (§9 names those apart).
import { type ChangeKind, classify } from './classify.js';
import { type Finding, foldEdits, type Part } from './edits.js';
import type { Resolver } from './resolve.js';
import type { Change, Direction } from './types.js';

/** Where in a response or request a schema sits, as far as §9's envelope rules care. */
export type Role =
  | 'plain'
  | 'response-root'
  | 'page-root'
  | 'page-data'
  | 'page-meta'
  | 'cursor'
  | 'error-root'
  | 'error-object'
  | 'error-code'
  | 'error-field';

export interface Scope {
  dir: Direction;
  location: string;
  operation?: string;
  role: Role;
}

export function envelopeOf(role: Role): 'pagination-envelope' | 'error-envelope' | undefined {
  if (role === 'page-data' || role === 'page-meta' || role === 'cursor') return 'pagination-envelope';
  if (role.startsWith('error-')) return 'error-envelope';
  return undefined;
}

/** The role of a property (or of array items, `property` undefined) of a schema in `role`. */
export function childRole(role: Role, property: string | undefined): Role {
  switch (role) {
    case 'page-root':
      return property === 'data' ? 'page-data' : property === 'page' ? 'page-meta' : 'plain';
    case 'page-meta':
      return property === 'nextCursor' ? 'cursor' : 'page-meta';
    case 'page-data':
      return 'plain';
    case 'error-root':
      return property === 'error' ? 'error-object' : 'error-field';
    case 'error-object':
      return property === 'code' ? 'error-code' : 'error-field';
    case 'error-code':
    case 'error-field':
      return 'error-field';
    default:
      return 'plain';
  }
}

export interface Site {
  operation?: string;
  /** Pointer of the edited node, when it differs from `location` (a referenced or shared node). */
  origin?: string;
  part?: Part;
}

export class Collector {
  readonly findings: Finding[] = [];
  constructor(
    readonly old: Resolver,
    readonly now: Resolver,
  ) {}

  /** The findings folded into one entry per edit. */
  get changes(): Change[] {
    return foldEdits(this.findings);
  }

  add(kind: ChangeKind, location: string, message: string, site: Site = {}): void {
    const finding: Finding = {
      kind,
      classification: classify(kind).classification,
      location,
      message,
      at: site.origin ?? `#${location}`,
      part: site.part ?? 'node',
    };
    if (site.operation) finding.operation = site.operation;
    this.findings.push(finding);
  }

  /** Adds a change found at `scope`, relabelled as an envelope change when it breaks the envelope. */
  addIn(scope: Scope, kind: ChangeKind, message: string, origin?: string, part?: Part): void {
    const envelope = envelopeOf(scope.role);
    // error-code.* keep their own kind: §9 names error codes apart from the envelope.
    const breaks = classify(kind).classification === 'breaking' && !kind.startsWith('error-code.');
    const relabelled = envelope && breaks ? (`${envelope}.changed` as const) : kind;
    const text = relabelled === kind ? message : `${kind}: ${message}`;
    this.add(relabelled, scope.location, text, { operation: scope.operation, origin, part });
  }
}
