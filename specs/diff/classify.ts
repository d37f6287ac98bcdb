// The rules table: every kind of change the checker reports, its classification and the §9 rule.
// Kinds carry their direction (request/response) because the same edit to a schema means
// relaxed validation on one side and a changed contract on the other.
import { type RuleName, rules } from './rules.js';

/**
 * `unknown`: the edit changes behaviour (a normative statement of the API document changed) but whether it
 * narrows or widens what clients may rely on cannot be read from the text. It needs a MAJOR bump until a
 * person decides otherwise, and fails within a served major.
 */
export type Classification = 'breaking' | 'non-breaking' | 'documentation' | 'unknown';

type Entry = readonly [Classification, RuleName];
const B = (rule: RuleName): Entry => ['breaking', rule];
const N = (rule: RuleName): Entry => ['non-breaking', rule];
const D: Entry = ['documentation', 'documentation'];
const U: Entry = ['unknown', 'undecided'];

export const kinds = {
  'endpoint.added': N('newEndpoint'),
  'endpoint.removed': B('removal'),
  'endpoint.deprecated': N('deprecation'),
  'endpoint.undeprecated': N('deprecation'),
  'endpoint.documentation': D,
  'server.added': N('newEndpoint'),
  'server.removed': B('removal'),
  'document.documentation': D,

  'parameter.added': N('newRequestInput'),
  'parameter.added-required': B('tightening'),
  'parameter.removed': B('removal'),
  'parameter.became-required': B('typeChange'),
  'parameter.became-optional': N('relaxed'),
  'parameter.serialization-changed': B('tightening'),
  'parameter.deprecated': N('deprecation'),
  'parameter.documentation': D,
  'cursor.changed': B('envelope'),

  'request-body.added': N('newRequestInput'),
  'request-body.added-required': B('tightening'),
  'request-body.removed': B('removal'),
  'request-body.became-required': B('tightening'),
  'request-body.became-optional': N('relaxed'),
  'request.media-type.added': N('relaxed'),
  'request.media-type.removed': B('tightening'),

  'response.status.added': N('newErrorCode'),
  'response.status.added-success': B('behaviour'),
  'response.status.removed': B('removal'),
  'response.media-type.added': N('newResponseField'),
  'response.media-type.removed': B('removal'),
  'response.header.added': N('newResponseField'),
  'response.header.removed': B('removal'),
  'response.documentation': D,

  'request.property.added': N('newRequestInput'),
  'request.property.added-required': B('tightening'),
  'request.property.removed': B('removal'),
  'request.property.became-required': B('typeChange'),
  'request.property.became-optional': N('relaxed'),
  'request.property.read-only': B('removal'),
  'request.type.widened': N('relaxed'),
  'request.type.narrowed': B('typeChange'),
  'request.type.changed': B('typeChange'),
  'request.constraint.tightened': B('tightening'),
  'request.constraint.relaxed': N('relaxed'),
  'request.enum.value-added': N('relaxed'),
  'request.enum.value-removed': B('removal'),
  'request.enum.restricted': B('tightening'),
  'request.enum.unrestricted': N('relaxed'),
  'request.additional-properties.restricted': B('tightening'),
  'request.additional-properties.allowed': N('relaxed'),
  'request.variant.added': N('relaxed'),
  'request.variant.removed': B('tightening'),

  'response.property.added': N('newResponseField'),
  'response.property.removed': B('removal'),
  'response.property.became-required': N('narrowedResponse'),
  'response.property.became-optional': B('typeChange'),
  'response.property.write-only': B('removal'),
  'response.type.widened': B('typeChange'),
  'response.type.narrowed': N('narrowedResponse'),
  'response.type.changed': B('typeChange'),
  'response.constraint.relaxed': B('typeChange'),
  'response.constraint.tightened': N('narrowedResponse'),
  'response.enum.value-added': N('newEnumValue'),
  'response.enum.value-removed': B('removal'),
  'response.enum.restricted': N('narrowedResponse'),
  'response.enum.unrestricted': N('newEnumValue'),
  'response.additional-properties.restricted': N('narrowedResponse'),
  'response.additional-properties.allowed': N('newResponseField'),
  'response.variant.added': B('typeChange'),
  'response.variant.removed': N('narrowedResponse'),

  'schema.ref-changed': B('typeChange'),
  'schema.default-changed': B('behaviour'),
  'schema.default-removed': B('behaviour'),
  'schema.default-added': D,
  'schema.deprecated': N('deprecation'),
  'schema.documentation': D,

  'pagination-envelope.changed': B('envelope'),
  'error-envelope.changed': B('envelope'),
  'error-code.added': N('newErrorCode'),
  'error-code.removed': B('removal'),

  'security.changed': B('behaviour'),
  'security-scheme.added': D,
  'security-scheme.removed': B('behaviour'),
  'security-scheme.changed': B('behaviour'),
  'security-scheme.scope-added': N('newEndpoint'),
  'security-scheme.scope-removed': B('behaviour'),
  'security-scheme.documentation': D,

  // A normative statement of the API document (a sentence, or a table cell that carries one) that changed,
  // appeared or went away, by the direction read from its wording (specs/document/statements.ts).
  'statement.tightened': B('tightening'),
  'statement.behaviour-changed': B('behaviour'),
  'statement.removed': B('removal'),
  'statement.relaxed': N('relaxed'),
  'statement.value-added': N('newEnumValue'),
  'statement.request-input-added': N('newRequestInput'),
  'statement.response-added': N('newResponseField'),
  'statement.capability-added': N('newEndpoint'),
  'statement.error-added': N('newErrorCode'),
  'statement.deprecation': N('deprecation'),
  'statement.direction-unknown': U,
  'statement.reworded': D,
} as const satisfies Record<string, Entry>;

export type ChangeKind = keyof typeof kinds;

/** An edit seen in several places is classified by its strictest consequence: breaking wins. */
const STRICTNESS: Record<Classification, number> = { unknown: 3, breaking: 2, 'non-breaking': 1, documentation: 0 };
export const stricter = (a: Classification, b: Classification): boolean => STRICTNESS[a] > STRICTNESS[b];

export function classify(kind: ChangeKind): { classification: Classification; rule: string; } {
  const [classification, rule] = kinds[kind];
  return { classification, rule: rules[rule] };
}
