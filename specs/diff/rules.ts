// The rules of §9 (Versioning) of the API document, quoted, that a change can fall under.
// Each change names exactly one of them so a reader can check the classification against the text.

export const rules = {
  removal: '§9 breaking: removing or renaming an endpoint, field, query parameter, enum value or error code',
  typeChange: "§9 breaking: changing a field's type, or making an optional field required",
  envelope: '§9 breaking: changing the pagination envelope, the cursor format or the error envelope',
  tightening: '§9 breaking: tightening validation so previously accepted input is rejected',
  behaviour: '§9 breaking: changing authentication, scoping or default behavior observably',
  newEndpoint: '§9 non-breaking: new endpoints, queries, mutations and resources',
  newRequestInput: '§9 non-breaking: new optional request fields, query parameters and GraphQL arguments',
  newResponseField: '§9 non-breaking: new response fields (REST clients must ignore unknown fields)',
  newEnumValue: '§9 non-breaking: new enum values (clients must tolerate unknown values)',
  newErrorCode: '§9 non-breaking: new error codes',
  relaxed: '§9 non-breaking: relaxed validation, and performance or wording changes',
  // Not a §9 list item, derived from it: the breaking categories protect what clients accept, and
  // every response the new document allows was already allowed by the old one.
  narrowedResponse: '§9 non-breaking (derived): narrower responses, every value now sent was valid before',
  deprecation: '§9 deprecation signaling: deprecated operations are marked `deprecated: true` (a backward-compatible addition: MINOR)',
  documentation: '§9.2 PATCH: documentation fixes without behavior change',
  // Not a §9 rule: what the checker says when the text does not tell which rule applies.
  undecided:
    '§9 undecided: behaviour changed, direction unknown; read the sentence and decide by §9 (a new obligation on clients or a narrower accepted input is breaking, a wider input or a new optional capability is MINOR)',
} as const;

export type RuleName = keyof typeof rules;
