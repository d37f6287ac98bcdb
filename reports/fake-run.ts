// Small fake runs for the reporter's own tests: a four-section catalog and checks
// in every state, with a recognisable key planted where a careless target could echo it.
import type { BuildInput } from './build-report.js';
import type { CatalogEntry, CellPlan, CheckResult } from './types.js';

export const PLANTED_KEY = 'sk_live_PLANTEDKEY_0123456789abcdef';

export const fakeCatalog: CatalogEntry[] = [
  {
    id: 'LIST-CURSOR-UNDECODABLE',
    section: '4 List query parameters, rule 2',
    level: 'must',
    quote: 'A cursor that cannot be decoded gives 400 bad_request.',
    subject: 'server',
  },
  { id: 'LIST-PAGE-ENVELOPE', section: '2 Page envelope', level: 'must', subject: 'server' },
  { id: 'AUTH-BEARER-REQUIRED', section: '5 rule 1', level: 'must', subject: 'server' },
  { id: 'ISO-GET-OTHER-TEAM-404', section: '4', level: 'implied', subject: 'server' },
  { id: 'UPLOAD-LIMIT', section: '8', level: 'must', subject: 'server' },
  { id: 'EVENTS-NOT-SHOWN', section: '6', level: 'not-testable', subject: 'server' },
  { id: 'VER-CURSOR-400', section: 'changelog 1.4.0', level: 'must', subject: 'server' },
  { id: 'VER-BREAKING-ENVELOPES', section: '9 Breaking changes', level: 'must', subject: 'spec' },
  { id: 'GEN-BASE-PATH', section: '1 Base address', level: 'must', subject: 'server' },
  { id: 'GEN-SERVICE-SCOPE', section: '1', level: 'not-testable', subject: 'server' },
  { id: 'RES-PROJECT-SHAPE', section: '2 Project', level: 'must', subject: 'server' },
  { id: 'LIST-LIMIT', section: '4 List query parameters, rule 1', level: 'must', subject: 'server' },
  { id: 'LIST-FILTER-PROJECT-ID', section: '4 List query parameters', level: 'must', subject: 'server' },
  { id: 'LIST-FILTER-EMPLOYEE-ID', section: '4 List query parameters', level: 'must', subject: 'server' },
];

/** The evidence of one mistyped title, seen by a check of it and by a shared setup step. */
const mistyped = (limit: number) => ({
  message: `page of project does not match the page envelope: ${
    Array.from({ length: limit }, (_, i) => `/data/${i}/title must be string`).join('; ')
  } (GET http://127.0.0.1:4010/api/public/v1/projects?limit=${limit} → 200)`,
  request: { method: 'GET', url: `http://127.0.0.1:4010/api/public/v1/projects?limit=${limit}`, headers: { authorization: 'Bearer $CONFORMANCE_API_KEY' } },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"data":[{"id":"0b6f6c1e-8a3d-4c4e-9d55-3f1f0e6c2a10","title":4711}],"page":{"hasMore":true,"nextCursor":"abc"}}',
  },
  curl: `curl -sS -i -X GET 'http://127.0.0.1:4010/api/public/v1/projects?limit=${limit}' -H "authorization: Bearer $CONFORMANCE_API_KEY"`,
});

/** Checks of the cascade cases: a check failing on its subject, one blocked by setup, one failing on one of its two ids, one warning. */
export function fakeCascade(): CheckResult[] {
  return [
    {
      name: 'GET /projects: every page matches the schema [RES-PROJECT-SHAPE]',
      moduleId: 'suites/schemas.check.ts',
      state: 'failed',
      errors: ['page of project does not match'],
      durationMs: 3,
      meta: meta(['RES-PROJECT-SHAPE'], 'schemas', { failure: mistyped(1) }),
    },
    {
      name: 'limit bounds every page [LIST-LIMIT]',
      moduleId: 'suites/pagination.check.ts',
      state: 'failed',
      errors: ['page of project does not match'],
      durationMs: 2,
      meta: meta(['LIST-LIMIT'], 'pagination', {
        failure: { ...mistyped(5), setup: ['population of lists to page through', 'a project of team A'], requirements: [] },
      }),
    },
    {
      name: 'project_id and employee_id filters [LIST-FILTER-PROJECT-ID, LIST-FILTER-EMPLOYEE-ID]',
      moduleId: 'suites/pagination.check.ts',
      state: 'failed',
      errors: ['project_id ignored'],
      durationMs: 4,
      meta: meta(['LIST-FILTER-PROJECT-ID', 'LIST-FILTER-EMPLOYEE-ID'], 'pagination', {
        failure: { message: 'GET /assignments?project_id= returned assignments of other projects', requirements: ['LIST-FILTER-PROJECT-ID'] },
      }),
    },
    {
      name: 'the base path answers [GEN-BASE-PATH]',
      moduleId: 'suites/schemas.check.ts',
      state: 'passed',
      errors: [],
      durationMs: 1,
      meta: meta(['GEN-BASE-PATH'], 'schemas', { warnings: [{ name: 'list.last-page', message: 'hasMore true followed by an empty last page' }] }),
    },
  ];
}

const meta = (requirements: string[], concern: string, extra: Record<string, unknown> = {}) => ({ requirements, concern, ...extra });

export function fakeChecks(): CheckResult[] {
  return [
    {
      name: 'undecodable cursor answers 400 [LIST-CURSOR-UNDECODABLE, VER-CURSOR-400]',
      moduleId: 'suites/cursors.check.ts',
      state: 'failed',
      errors: [`expected 400, got 200 (key ${PLANTED_KEY})`],
      durationMs: 12.6,
      meta: meta(['LIST-CURSOR-UNDECODABLE', 'VER-CURSOR-400'], 'cursors', {
        failure: {
          message: `expected status 400, got 200; target said: invalid key ${PLANTED_KEY}`,
          request: { method: 'GET', url: 'http://127.0.0.1:4010/api/public/v1/projects?cursor=%%%', headers: { authorization: `Bearer ${PLANTED_KEY}` } },
          response: {
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: `{"echo":"${PLANTED_KEY}","html":"</script><script>window.__pwned=1</script><b>bold</b>"}`,
          },
          curl: "curl -sS -H 'Authorization: Bearer $CONFORMANCE_API_KEY' 'http://127.0.0.1:4010/api/public/v1/projects?cursor=%%%'",
          seed: 42,
          path: '3:1:0',
          counterexample: ['%%%', { note: '<!-- not a comment -->' }],
        },
        readings: { 'cursor.encoding': 'opaque base64url' },
        cells: [
          { dimension: 'cursors', subject: 'GET /projects', aspect: 'from sort=default order=asc to sort=default order=desc', outcome: 'checked' },
          { dimension: 'cursors', subject: 'GET /projects', aspect: 'from sort=default order=desc to sort=default order=asc', outcome: 'not-reached' },
        ],
      }),
    },
    {
      name: 'cursor of another sort answers 400 [LIST-CURSOR-UNDECODABLE]',
      moduleId: 'suites/cursors.check.ts',
      state: 'passed',
      errors: [],
      durationMs: 8,
      meta: meta(['LIST-CURSOR-UNDECODABLE'], 'cursors', {
        cells: [
          { dimension: 'walks', subject: 'GET /projects', aspect: 'sort=default order=asc', outcome: 'checked' },
          { dimension: 'walks', subject: 'GET /projects', aspect: 'sort=default order=desc', outcome: 'checked' },
          { dimension: 'walks', subject: 'GET /cvs', aspect: 'sort=default order=asc', outcome: 'skipped', reason: 'GET /cvs has a single page' },
          { dimension: 'fields', subject: 'createProject', aspect: 'title filled', outcome: 'checked' },
          { dimension: 'fields', subject: 'createProject', aspect: 'title value <b>x</b>', outcome: 'checked' },
          { dimension: 'fields', subject: 'createProject', aspect: 'billing_type value hourly', outcome: 'not-reached' },
        ],
      }),
    },
    {
      name: 'page envelope matches the schema [LIST-PAGE-ENVELOPE]',
      moduleId: 'suites/pagination.check.ts',
      state: 'passed',
      errors: [],
      durationMs: 30,
      meta: meta(['LIST-PAGE-ENVELOPE'], 'pagination', { readings: { 'page.default-size': '20' } }),
    },
    {
      name: 'request without a key is refused [AUTH-BEARER-REQUIRED]',
      moduleId: 'suites/auth.check.ts',
      state: 'skipped',
      note: 'needs CONFORMANCE_API_KEY_READ_ONLY',
      errors: [],
      durationMs: 0,
      meta: meta(['AUTH-BEARER-REQUIRED'], 'auth', {
        skipReason: 'needs CONFORMANCE_API_KEY_READ_ONLY',
        cells: [{ dimension: 'refusals', subject: 'createProject', aspect: 'read-only', outcome: 'skipped', reason: 'needs CONFORMANCE_API_KEY_READ_ONLY' }],
      }),
    },
    {
      // Only the ids declared with the test: the concern comes from the module.
      name: "GET of another team's project is 404 [ISO-GET-OTHER-TEAM-404]",
      moduleId: 'suites/isolation.check.ts',
      state: 'failed',
      errors: [`AssertionError: expected 200 to be 404 — Authorization: Bearer ${PLANTED_KEY}`],
      durationMs: 5,
      meta: { requirements: ['ISO-GET-OTHER-TEAM-404'] },
    },
    {
      name: 'uploads above the limit are refused [UPLOAD-LIMIT]',
      moduleId: 'suites/uploads.check.ts',
      state: 'passed',
      errors: [],
      durationMs: 900,
      meta: meta(['UPLOAD-LIMIT'], 'uploads', { readings: { 'page.default-size': '25' } }),
    },
  ];
}

const titleOf = (name: string) => name.replace(/ \[[^\]]*\]$/, '');
const [undecodable, anotherSort, , noKey] = fakeChecks().map((c) => titleOf(c.name));
const limit = titleOf(fakeCascade()[1]!.name);

/**
 * The coverage table the global setup plans for the fake target: cells of checks that failed, passed,
 * were skipped and blocked, cells the table reasons, and one of a check no run registers.
 */
export const fakePlan: CellPlan[] = [
  { dimension: 'fields', subject: 'createProject', aspect: 'title filled', check: anotherSort! },
  { dimension: 'fields', subject: 'createProject', aspect: 'title value <b>x</b>', check: anotherSort! },
  { dimension: 'fields', subject: 'createProject', aspect: 'billing_type value hourly', check: anotherSort! },
  { dimension: 'fields', subject: 'createProject', aspect: 'id filled', check: anotherSort!, reason: { kind: 'not-shown', text: 'an id the server assigns' } },
  {
    dimension: 'fields',
    subject: 'updateProject',
    aspect: 'stage filled',
    check: anotherSort!,
    reason: { kind: 'setting', text: 'runs on CONFORMANCE_SCRATCH_PROJECTS only, and none is set' },
  },
  { dimension: 'refusals', subject: 'createProject', aspect: 'read-only', check: noKey! },
  { dimension: 'refusals', subject: 'createProject', aspect: 'no-key', check: 'refused: a check no run registers leaves no trace' },
  { dimension: 'walks', subject: 'GET /projects', aspect: 'sort=default order=asc', check: anotherSort! },
  { dimension: 'walks', subject: 'GET /projects', aspect: 'sort=default order=desc', check: anotherSort! },
  {
    dimension: 'walks',
    subject: 'GET /projects',
    aspect: 'ties on default',
    check: anotherSort!,
    reason: { kind: 'not-shown', text: 'the default sort field is not shown' },
  },
  { dimension: 'walks', subject: 'GET /cvs', aspect: 'sort=default order=asc', check: anotherSort! },
  { dimension: 'walks', subject: 'GET /projects', aspect: 'sort=default order=default', check: limit },
  { dimension: 'cursors', subject: 'GET /projects', aspect: 'from sort=default order=asc to sort=default order=desc', check: undecodable! },
  { dimension: 'cursors', subject: 'GET /projects', aspect: 'from sort=default order=desc to sort=default order=asc', check: undecodable! },
];

export function fakeInput(overrides: Partial<BuildInput> = {}): BuildInput {
  return {
    checks: [...fakeChecks(), ...fakeCascade()],
    catalog: fakeCatalog,
    context: {
      specVersion: '1.6.0',
      target: { kind: 'bundled-mock', baseUrl: 'http://127.0.0.1:4010', shape: 'full' },
      seed: 7,
      startedAt: '2026-01-02T03:04:05.000Z',
      settings: { CONFORMANCE_API_KEY: PLANTED_KEY, CONFORMANCE_BASE_URL: 'http://127.0.0.1:4010' },
      coverage: fakePlan,
    },
    startedAt: '2026-01-02T03:04:00.000Z',
    durationMs: 1234.4,
    ...overrides,
  };
}
