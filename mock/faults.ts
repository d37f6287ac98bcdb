// Switchable non-conformances. `start({ fault })` turns on exactly one; each entry names
// the requirement ids (specs/requirements.json) a conformance run must then report failed.
// The branches live where the behaviour lives, each guarded by `faults.on('<name>')`.

import { type FamilyFaultName, familyFaults, type FaultInfo } from './fault-families.js';

export type { FaultInfo };

/** A written fault; `shape: 'legacy'` when it shows only in the older project/organization shape. */
const f = <const N extends string>(name: N, requirements: readonly string[], description: string, shape: FaultInfo['shape'] = 'full') =>
  ({ name, requirements, description, shape }) satisfies FaultInfo;

const written = [
  // Pagination and cursors
  f('cursor-undecodable-first-page', ['LIST-CURSOR-UNDECODABLE', 'ERR-BAD-REQUEST-CURSOR', 'CHANGELOG-1-4-0-CURSOR-400'],
    'an undecodable cursor answers the first page (pre-1.4.0 behaviour)'),
  f('cursor-tampered-5xx', ['LIST-CURSOR-UNDECODABLE'], 'a cursor that does not decode (tampered, truncated, re-encoded) crashes the list with a 500'),
  f('cursor-across-sorts', ['LIST-CURSOR-OTHER-SORT', 'ERR-BAD-REQUEST-CURSOR'], 'a cursor issued for another sort field is accepted'),
  f('cursor-across-orders', ['LIST-CURSOR-OTHER-ORDER', 'ERR-BAD-REQUEST-CURSOR'], 'a cursor issued for the other order is accepted'),
  f('cursor-empty-rejected', ['LIST-CURSOR-EMPTY-FIRST-PAGE', 'CHANGELOG-1-4-0-EMPTY-CURSOR-FIRST-PAGE'],
    'cursor= (empty) answers 400 instead of the first page'),
  f('bad-request-code-wrong', ['LIST-CURSOR-UNDECODABLE', 'ERR-BAD-REQUEST-CURSOR'], 'an undecodable cursor answers 400 with code invalid_cursor'),
  f('page-boundary-repeats', ['LIST-WALK-EVERY-RECORD-ONCE'], 'each next page starts with the last item of the previous page'),
  f('page-boundary-skips', ['LIST-WALK-EVERY-RECORD-ONCE'], 'each next page skips the first item after the cursor'),
  f('ties-unstable', ['LIST-WALK-EVERY-RECORD-ONCE'], 'the cursor positions by sort value only, so records tied with the last item are skipped'),
  f('has-more-wrong', ['LIST-HASMORE-FALSE-LAST', 'LIST-WALK-EVERY-RECORD-ONCE'], 'hasMore is false (and nextCursor empty) on pages that are not the last'),
  f('next-cursor-missing', ['LIST-HASMORE-FALSE-LAST', 'LIST-PAGE-WALK', 'RES-PAGE-ENVELOPE'], 'hasMore is true but nextCursor is empty'),
  f('page-over-limit', ['LIST-LIMIT'], 'pages hold limit + 1 items'),
  f('order-ignored', ['LIST-ORDER'], 'order=desc is ignored (always ascending)'),
  f('sort-ignored', ['LIST-SORT'], 'the sort parameter is ignored (always the default field)'),
  f('q-rejected', ['LIST-Q'], 'a list request with q answers 400'),
  f('list-params-rejected', ['LIST-PARAMS-ALL-LISTS'], 'GET /attachments and GET /cvs reject limit/cursor/sort/order/q with 400'),
  f('lists-broken', [
    'EP-PROJECTS-LIST',
    'EP-ASSIGNMENTS-LIST',
    'EP-ORGANIZATIONS-LIST',
    'EP-CVS-LIST',
    'EP-ATTACHMENTS-LIST',
    'LIST-PAGE-WALK',
    'AUTH-BEARER-HEADER',
  ], 'every list endpoint answers 500'),
  f('list-filter-ignored', ['LIST-FILTER-PROJECT-ID', 'LIST-FILTER-EMPLOYEE-ID'], 'project_id/employee_id filters are ignored'),
  f('assignments-filter-combined-ignores-project', ['LIST-FILTER-PROJECT-ID'],
    'GET /assignments with both project_id and employee_id applies only employee_id'),
  f('attachments-filter-ignored', ['LIST-ATTACHMENTS-FOR-ENTITY'], 'GET /attachments ignores entity_id (all attachments of the entity type)'),
  f('attachments-params-optional', ['EP-ATTACHMENTS-LIST-PARAMS-REQUIRED'], 'GET /attachments without entity_type/entity_id answers 200'),
  // Team isolation
  f('other-team-readable', ['ISO-GET-OTHER-TEAM-404', 'ISO-OTHER-TEAM-AS-MISSING', 'CHANGELOG-1-6-0-NOT-FOUND', 'ERR-NOT-FOUND'],
    "GET by id serves another team's record"),
  f('other-team-patchable', ['ISO-MUTATE-OTHER-TEAM-NO-EFFECT', 'ISO-OTHER-TEAM-AS-MISSING'], "PATCH changes another team's record"),
  f('other-team-deletable', ['ISO-MUTATE-OTHER-TEAM-NO-EFFECT', 'ISO-OTHER-TEAM-AS-MISSING'], "DELETE removes another team's record"),
  f('not-found-distinguishable', ['ISO-OTHER-TEAM-AS-MISSING', 'ISO-GET-OTHER-TEAM-404', 'CHANGELOG-1-6-0-NOT-FOUND'],
    "another team's id answers 403 forbidden instead of 404"),
  f('not-found-leaks-record', ['ISO-OTHER-TEAM-NO-EXISTENCE-LEAK'], "the 404 for another team's id carries the record's id and title in detail"),
  f('not-found-says-other-team', ['ISO-OTHER-TEAM-AS-MISSING'], "the 404 for another team's id says the record belongs to another team"),
  f('other-team-in-list', ['ISO-LIST-OWN-TEAM-ONLY'], "lists include other teams' records"),
  f('list-filter-leaks', ['ISO-LIST-OWN-TEAM-ONLY'], 'filtered lists (project_id, employee_id, entity) search every team'),
  f('filter-other-team-distinguishable', ['ISO-OTHER-TEAM-AS-MISSING'],
    "a list filtered by another team's id (project_id, employee_id, entity_id) answers 404, by a missing id an empty page"),
  f('cross-team-reference-accepted', ['ISO-REFERENCE-OTHER-TEAM-AS-MISSING'],
    "POST /assignments and POST /attachments accept another team's employee/project/entity"),
  f('reference-says-other-team', ['ISO-REFERENCE-OTHER-TEAM-AS-MISSING'],
    "a body reference to another team's record is refused with the status of a missing one (400), but says it belongs to another team"),
  // Idempotency
  f('replay-missing', ['IDEM-REPLAY', 'UPLOAD-IDEM-REPLAY'], 'idempotency keys are ignored: a retry creates again'),
  f('idem-422-missing', ['UPLOAD-IDEM-DIFFERENT-FILE-422', 'ERR-IDEM-DIFFERENT-FILE'], 'a reused key with a different request replays the first response'),
  f('idem-key-dropped-on-refusal', ['IDEM-REPLAY', 'UPLOAD-IDEM-REPLAY'],
    'refusing a reused key with another request forgets the key: the first request, sent again, runs again'),
  f('idem-header-rejected', ['IDEM-HEADER-ACCEPTED'], 'requests carrying an idempotency-key header answer 400'),
  f('idempotency-key-across-teams', ['ISO-IDEMPOTENCY-PER-TEAM'],
    "idempotency keys are not scoped by team: another team's request with the same key gets this team's answer"),
  // Uploads
  f('upload-limit-not-enforced', ['UPLOAD-MAX-SIZE', 'LIMIT-UPLOAD-SIZE'], 'uploads of any size are accepted'),
  f('upload-limit-too-strict', ['UPLOAD-MAX-SIZE', 'LIMIT-UPLOAD-SIZE'], 'uploads above 20,000,000 bytes are rejected'),
  f('upload-oversize-stored', ['UPLOAD-MAX-SIZE', 'LIMIT-UPLOAD-SIZE'], 'an oversize upload answers 413 but a truncated record is stored'),
  f('download-bytes-differ', ['UPLOAD-DOWNLOAD-BYTE-IDENTICAL'], 'downloads flip the first byte'),
  f('download-missing', ['EP-ATTACHMENTS-DOWNLOAD'], 'the attachment download answers 404'),
  f('download-encrypted-above-1mib', ['UPLOAD-DOWNLOAD-BYTE-IDENTICAL'], 'downloads of more than 1 MiB serve the stored bytes still encrypted'),
  f('multipart-fields-after-file-ignored', ['UPLOAD-MULTIPART-ANY-ORDER'], 'multipart fields that come after the file part are ignored'),
  f('upload-file-part-optional', ['UPLOAD-FILE-PART-REQUIRED'], 'an upload without a file part creates an empty record'),
  f('upload-category-dropped', ['UPLOAD-CATEGORY-STORED'], 'the category field of uploads is ignored: every upload sent with one is stored as "other"'),
  f('deleted-attachment-downloadable', ['EP-DELETE-GONE'], 'a deleted attachment is gone from its list but still downloads'),
  f('upload-size-wrong', ['EP-ATTACHMENTS-CREATE', 'EP-FILES-CREATE'], 'the size of an upload is reported one byte short'),
  f('attachment-entity-type-open', ['EP-ATTACHMENTS-ENTITY-TYPE-INVALID'], 'attachments accept any entity_type'),
  f('delete-not-removing', ['EP-DELETE-GONE', 'EP-FILES-DELETE'], 'DELETE answers success but the record stays'),
  f('files-at-documents', ['CHANGELOG-1-3-0-FILES-RENAME', 'EP-FILES-CREATE', 'EP-FILES-GET', 'EP-FILES-DELETE'],
    'the files resource answers under /documents instead of /files'),
  f('attachments-missing', ['CHANGELOG-1-2-0-ATTACHMENTS', 'EP-ATTACHMENTS-CREATE', 'EP-ATTACHMENTS-LIST', 'EP-ATTACHMENTS-DELETE', 'EP-ATTACHMENTS-DOWNLOAD'],
    'the attachments routes do not exist (404)'),
  // Response shapes
  f('required-field-missing', ['RES-PROJECT-SHAPE', 'RES-PAGE-ENVELOPE'], 'projects are served without id'),
  f('field-mistyped', ['RES-PROJECT-SHAPE', 'RES-PAGE-ENVELOPE'], 'project title is served as a number'),
  f('null-where-not-nullable', ['RES-NON-NULL-FIELDS', 'RES-PROJECT-SHAPE'], 'project description is served as null'),
  f('nullable-mistyped', ['RES-NULLABLE-FIELDS', 'RES-TIMESTAMPS-DATES-STRINGS', 'RES-ORGANIZATION-SHAPE'],
    'organization last_activity_at is served as false instead of a string or null'),
  f('timestamps-not-strings', ['RES-TIMESTAMPS-DATES-STRINGS', 'RES-EMPLOYEE-SHAPE'], 'employee created_at is served as epoch milliseconds'),
  f('id-not-uuid', ['RES-ID-UUID', 'ID-PATH-PATTERN'], 'records created through the API get ids like emp_0123abcd'),
  f('id-version-0', ['ID-PATH-PATTERN'], 'records created through the API get UUIDs with version nibble 0'),
  f('stage-mistyped', ['STATE-STAGE-HIDDEN-SORT', 'RES-PROJECT-SHAPE'], 'stage hidden is served as a string and sort as a string'),
  f('status-mistyped', ['STATE-PROJECT-STATUS-STAGE', 'RES-PROJECT-SHAPE'], 'project status is served as a number'),
  f('legacy-refs-mistyped', ['RES-PROJECT-LEGACY-SHAPE'], 'in the legacy shape, client_org_id is served as a number', 'legacy'),
  f('shape-mixed', ['RES-SHAPE-CONSISTENT'], 'every other project response uses the other shape'),
  f('employee-mistyped', ['RES-EMPLOYEE-SHAPE'], 'employee is_active is served as a string'),
  f('assignment-employee-missing', ['RES-ASSIGNMENT-SHAPE'], 'assignments are served without the embedded employee'),
  f('embedded-employee-stale', ['RES-ASSIGNMENT-EMBEDDED-CURRENT'],
    "an assignment embeds its employee as it was when the assignment was first shown, not after the employee's PATCH"),
  f('embedded-employee-follows-old-id', ['RES-ASSIGNMENT-EMBEDDED-CURRENT'], 'an assignment keeps embedding its first employee after its employee_id changes'),
  f('embedded-employee-defaults', ['EP-CREATE-PERSISTS', 'RES-ASSIGNMENT-EMBEDDED-CURRENT'],
    'the embedded employee shows is_active true and no skills, whatever the employee holds'),
  f('organization-mistyped', ['RES-ORGANIZATION-SHAPE', 'RES-ORGANIZATION-LEGACY-SHAPE'], 'organization address is_default is served as a string', 'legacy'),
  f('attachment-entity-type-wrong', ['RES-ATTACHMENT-SHAPE'], 'attachment entity_type is served capitalized (outside the closed set)'),
  f('file-mistyped', ['RES-FILE-SHAPE'], 'file size is served as a string'),
  f('cv-hidden-wrong', ['RES-CV-DATA-HIDDEN', 'RES-CV-SHAPE'], 'CV section items carry hidden as a string'),
  f('page-envelope-wrong', ['RES-PAGE-ENVELOPE'], 'page.hasMore is served as a string'),
  f('delete-result-wrong', ['RES-DELETE-RESULT', 'EP-ASSIGNMENTS-DELETE', 'EP-ATTACHMENTS-DELETE'],
    'DELETE answers { deleted: true } instead of { success: true }'),
  // Errors
  f('wrong-error-code', ['ERR-NOT-FOUND', 'ISO-GET-MISSING-404', 'ISO-GET-OTHER-TEAM-404', 'CHANGELOG-1-6-0-NOT-FOUND', 'ID-NIL-MAX-NOT-FOUND'],
    'not_found is reported as code missing'),
  f('detail-not-strings', ['ERR-DETAIL-MAP', 'ERR-ENVELOPES', 'ERR-FULL-ENVELOPE'], 'detail values are objects instead of strings'),
  f('error-envelope-broken', ['ERR-ENVELOPES', 'ERR-FULL-ENVELOPE'], 'errors are served as { message } without the error object'),
  f('short-envelope-broken', ['ERR-SHORT-ENVELOPE'], 'in the legacy shape, short-envelope errors lack error.code', 'legacy'),
  f('json-5xx', ['GEN-JSON-BODIES', 'ERR-ENVELOPES'], 'malformed JSON bodies answer 500 with a text/plain body'),
  f('non-json-content-type', ['GEN-JSON-BODIES'], 'GET /projects/{id} answers with content-type text/plain'),
  // Authentication and plans
  f('auth-not-enforced', ['AUTH-BEARER-REQUIRED', 'AUTH-INVALID-KEY-NOT-SERVED'], 'requests without a key are served as team A'),
  f('invalid-key-accepted', ['AUTH-INVALID-KEY-NOT-SERVED'], 'any non-empty unknown bearer token is served as team A'),
  f('file-reads-unauthenticated', ['AUTH-BEARER-REQUIRED', 'AUTH-INVALID-KEY-NOT-SERVED'],
    "GET /files/{id} and the attachment download skip authentication: without a key or with any key they serve team A's record"),
  f('scope-not-enforced', ['AUTH-READ-ONLY-KEY-NO-WRITE'], 'the read-only key may mutate'),
  f('plan-not-enforced', ['AUTH-PLAN-NO-API-ACCESS', 'LIMIT-PLAN-ERROR-FIELDS'], 'the key of the plan without API access is served'),
  f('plan-limit-fields-missing', ['LIMIT-PLAN-ERROR-FIELDS', 'AUTH-PLAN-NO-API-ACCESS'], 'the plan-limit error lacks feature, plan, current and limit'),
  // Ids
  f('malformed-id-accepted', ['ID-NON-CANONICAL-NOT-SERVED'], 'non-canonical forms of an id (no hyphens, braces, other version/variant) are served'),
  f('nil-id-rejected', ['ID-NIL-MAX-NOT-FOUND'], 'the all-zero and all-f UUIDs answer 400 instead of 404'),
  // Endpoints and state
  f('get-by-id-wrong-record', ['EP-PROJECTS-GET', 'EP-ASSIGNMENTS-GET', 'EP-FILES-GET', 'CHANGELOG-1-6-0-GET-BY-ID'],
    'GET by id answers another record of the team'),
  f('patch-empty-rejected', ['EP-PROJECTS-PATCH-EMPTY'], 'PATCH /projects/{id} with {} answers 400'),
  f('patch-empty-applies-defaults', ['EP-PROJECTS-PATCH-EMPTY'], 'PATCH /projects/{id} with {} clears the notes (re-applies a default)'),
  f('patch-ignored', ['EP-PROJECTS-PATCH', 'EP-ASSIGNMENTS-PATCH', 'EP-EMPLOYEES-PATCH', 'EP-ORGANIZATIONS-PATCH', 'EP-PATCH-PERSISTS'],
    'PATCH answers the unchanged record'),
  f('patch-not-persisted', ['EP-PATCH-PERSISTS'], 'PATCH answers the patched record but does not store it'),
  f('create-required-not-enforced', ['EP-EMPLOYEES-CREATE-FIRST-NAME-REQUIRED', 'EP-ASSIGNMENTS-CREATE-REQUIRED-FIELDS'],
    'POST /employees and /assignments accept bodies without their required fields'),
  f('create-fields-dropped', ['EP-EMPLOYEES-CREATE', 'EP-ASSIGNMENTS-CREATE'], 'creation ignores first_name and project_id of the body'),
  f('org-create-missing', ['EP-ORGANIZATIONS-CREATE'], 'POST /organizations does not exist (404)'),
  f('stage-change-not-stamped', ['STATE-STAGE-CHANGE-STAMPED'], 'a stage change leaves stage_changed_at unchanged'),
  f('archive-not-recorded', ['STATE-ARCHIVE-RECORDS-PRIOR'], 'archiving sets archived_at but not archived_from_stage/status'),
  f('state-answered-not-stored', ['STATE-STAGE-CHANGE-STAMPED', 'STATE-CLOSE-SETS-FIELDS', 'STATE-ARCHIVE-RECORDS-PRIOR'],
    "a transition's stamps (stage_changed_at, archived_from_*, closed_at) are in the PATCH's answer but not stored: GET and the list show the old ones"),
  f('close-not-recorded', ['STATE-CLOSE-SETS-FIELDS'], 'closing stores close_reason but not closed_at or close_reason_category'),
  f('is-active-not-persisted', ['STATE-EMPLOYEE-IS-ACTIVE'], 'PATCH /employees ignores is_active'),
  // Intake
  f('capture-rejected', ['INTAKE-PENDING-REVIEW'], 'the capture intake answers 404'),
  f('capture-dedupe-broken', ['INTAKE-DEDUP-TRIPLE', 'INTAKE-REPEAT-200'], 'every capture creates a new item'),
  f('capture-dedupe-cross-team', ['INTAKE-DEDUP-TRIPLE'], "deduplication ignores the team: team B receives team A's item"),
  f('capture-dedupe-taken-over', ['INTAKE-DEDUP-TRIPLE'],
    "one deduplication entry per (source, external_id): another team's capture of the thread gets its own item and takes the entry, so this team's next repeat creates another"),
  f('capture-repeat-status-wrong', ['INTAKE-REPEAT-200'], 'a repeated capture answers 201 instead of 200'),
  f('capture-dedupe-on-external-id-only', ['INTAKE-DEDUP-TRIPLE'],
    'deduplication ignores the source: the same external_id from another source answers the first item'),
  f('capture-dedupe-includes-title', ['INTAKE-DEDUP-TRIPLE', 'INTAKE-REPEAT-200'],
    'deduplication also compares the title: a repeat capture with another title creates another item'),
  f('capture-concurrent-duplicates', ['INTAKE-DEDUP-TRIPLE', 'INTAKE-REPEAT-200'], 'concurrent captures of one thread each create an item'),
  // Versioning
  f('v1-path-missing', ['GEN-BASE-PATH', 'VER-MAJOR-IN-PATH', 'CHANGELOG-1-0-0-INITIAL-SURFACE'],
    'the API answers under /api/public/v2 instead of /api/public/v1'),
  f('deprecation-header-missing', ['VER-DEPRECATION-HEADER'], 'deprecated operations carry Sunset but no Deprecation header'),
  f('deprecation-missing-with-query', ['VER-DEPRECATION-HEADER'], 'deprecated operations carry no Deprecation header when the request has a query string'),
  f('deprecation-everywhere', ['VER-DEPRECATION-ONLY-AFFECTED'], 'every response carries a Deprecation header'),
  f('sunset-malformed', ['VER-SUNSET-HEADER'], 'the Sunset header is an ISO date instead of an HTTP-date'),
  f('sunset-before-deprecation', ['VER-SUNSET-NOT-BEFORE-DEPRECATION'], 'the Sunset date is earlier than the Deprecation date'),
  f('openapi-deprecated-missing', ['VER-OPENAPI-DEPRECATED-FLAG'], 'the served OpenAPI document omits deprecated: true'),
  f('info-version-wrong', ['VER-INFO-VERSION-SEMVER'], 'the served OpenAPI info.version is 2.0.0'),
] as const satisfies readonly FaultInfo[];

/** The hand-written faults, then the families generated over the endpoint table. */
export const faults: readonly FaultInfo[] = [...written, ...familyFaults()];

/** The hand-written ones (mock/faults.test.ts smokes each; the families are proven by the suites' self-test). */
export const writtenFaults = written;

/** A fault's name: a written one, or one of a family's (typed by the family's name pattern). */
export type FaultName = (typeof written)[number]['name'] | FamilyFaultName;

/** The active fault of one mock instance (at most one). */
export class Faults {
  readonly active: FaultName | undefined;

  constructor(active: string | undefined) {
    if (active !== undefined && !faults.some((x) => x.name === active)) {
      throw new Error(`Unknown fault "${active}". Known faults: ${faults.map((x) => x.name).join(', ')}`);
    }
    this.active = active as FaultName | undefined;
  }

  on(name: FaultName): boolean {
    return this.active === name;
  }
}
