// The audit of every response: each rule of the document on crafted responses, the key that makes
// one bug one finding wherever it is met, the excerpt around what is wrong, the readings of
// timestamps, and references resolved once within the caller's team.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { requireConfig } from '../../../contract/config.js';
import { beginCheck, endCheck } from '../run/current.js';
import { provideTarget } from '../run/target.js';
import type { ApiClient, ApiRequest, ApiResponse } from '../transport/client.js';
import { excerptAt } from '../transport/excerpt.js';
import { judge, type Received } from './audit.js';
import { instantOf } from './instants.js';
import { forgetReferences, noteRecords, resolveReferences } from './references.js';
import { forgetDetectedShape } from './shape.js';

const base = 'http://127.0.0.1:4010';
const settings = { ...requireConfig({}), baseUrl: base };
const id = (n: number) => `3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f${String(n).padStart(2, '0')}`;
const json = { 'content-type': 'application/json' };

const received = (method: string, path: string, status: number, body: unknown, headers: Record<string, string> = json): Received => ({
  method,
  url: `${base}/api/public/v1${path}`,
  status,
  headers,
  text: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body),
  body: typeof body === 'string' ? undefined : body,
});

const project = (n: number, extra: Record<string, unknown> = {}) => ({
  id: id(n),
  title: `P${n}`,
  status: 'active',
  stage: { id: id(99), key: 'lead', label: 'Lead', kind: 'open', color: 'slate', hidden: false, sort: 1 },
  created_at: '2026-01-02T03:04:05.678Z',
  last_activity_at: null,
  ...extra,
});

beforeEach(() => {
  provideTarget({ settings, runId: 'cfm-test', seed: 1, kind: 'bundled-mock' });
  forgetDetectedShape();
  forgetReferences();
});
afterEach(() => provideTarget(undefined));

describe('the audit of every response', () => {
  test('"nextCursor": null on a last page is the page envelope\'s, whichever list shows it', () => {
    const keys = ['/projects', '/organizations', '/cvs'].map((path) => {
      const j = judge(settings, received('GET', path, 200, { data: [], page: { hasMore: false, nextCursor: null } }));
      expect(j.violations).toHaveLength(1);
      expect(j.violations[0]).toMatchObject({
        requirements: ['RES-PAGE-ENVELOPE'],
        message: 'page.nextCursor is null, where the API document has a string',
        pointer: '/page/nextCursor',
      });
      return j.violations[0]!.key;
    });
    expect(new Set(keys).size).toBe(1);
  });

  test('a mistyped field is one finding in a list, by id and in an update answer, under its shape requirement', () => {
    const wrong = project(1, { title: 12345 });
    const seen = [
      judge(settings, received('GET', '/projects', 200, { data: [project(2), wrong], page: { hasMore: false } })),
      judge(settings, received('GET', `/projects/${id(1)}`, 200, wrong)),
      judge(settings, received('PATCH', `/projects/${id(1)}`, 200, wrong)),
    ];
    for (const j of seen) {
      expect(j.violations.map((v) => [v.requirements, v.message])).toEqual([[
        ['RES-PROJECT-SHAPE'],
        'project.title is a number (12345), where the API document has a string',
      ]]);
    }
    expect(new Set(seen.map((j) => j.violations[0]!.key)).size).toBe(1);
    expect(seen[0]!.violations[0]!.pointer).toBe('/data/1/title');
  });

  test('the §2 conventions have their own requirement beside the shape: ids, timestamps, null', () => {
    const j = judge(settings, received('GET', `/projects/${id(1)}`, 200, project(1, { id: 'rec_1', created_at: 'yesterday', description: null })));
    expect(j.violations.map((v) => v.requirements)).toEqual(expect.arrayContaining([
      ['RES-ID-UUID', 'RES-PROJECT-SHAPE'],
      ['RES-TIMESTAMPS-DATES-STRINGS', 'RES-PROJECT-SHAPE'],
      ['RES-NON-NULL-FIELDS', 'RES-PROJECT-SHAPE'],
    ]));
    expect(j.judged).toEqual(expect.arrayContaining(['RES-PROJECT-SHAPE', 'RES-ID-UUID', 'RES-TIMESTAMPS-DATES-STRINGS', 'STATE-PROJECT-STATUS-STAGE']));
  });

  test('a timestamp in any common spelling reads; one that reads as no instant does not', () => {
    for (
      const t of ['2026-01-02T03:04:05.678Z', '2026-01-02 03:04:05+00', '2026-01-02T03:04:05.123456789+01:00', 'Fri, 02 Jan 2026 03:04:05 GMT', '1767323045']
    ) {
      expect(judge(settings, received('GET', `/projects/${id(1)}`, 200, project(1, { created_at: t }))).violations, t).toEqual([]);
    }
    for (const d of ['2026-01-02', '20260102']) expect(instantOf(d), d).toBeDefined();
    for (const bad of ['yesterday', '', '2026-13-45', '20261345']) expect(instantOf(bad), bad).toBeUndefined();
  });

  test('errors carry the §7 envelope; the short one only on the older project and organization lists and updates', () => {
    const missing = judge(settings, received('GET', `/assignments/${id(1)}`, 404, { message: 'Not found' }));
    expect(missing.violations.map((v) => v.requirements)).toEqual([['ERR-ENVELOPES', 'ERR-FULL-ENVELOPE']]);
    expect(judge(settings, received('GET', '/projects', 400, { error: { code: 'bad_request', message: 'x' } })).violations).toEqual([]);
    const shortMissingCode = judge(settings, received('PATCH', `/organizations/${id(1)}`, 404, { error: { message: 'x' } }));
    expect(shortMissingCode.violations.map((v) => v.requirements)).toEqual([['ERR-SHORT-ENVELOPE']]);
    // detail maps to strings; its keys are the request's fields, so one problem of every field is one finding
    const keys = ['first_name', 'project_id'].map((field) => {
      const j = judge(settings, received('POST', '/assignments', 400, { error: { code: 'bad_request', message: 'x' }, detail: { [field]: { why: 1 } } }));
      expect(j.violations[0]!.requirements).toEqual(['ERR-DETAIL-MAP', 'ERR-FULL-ENVELOPE']);
      return j.violations[0]!.key;
    });
    expect(keys[0]).toBe(keys[1]);
  });

  test('JSON where JSON is due: a JSON body labelled otherwise is still read; a body that is not JSON is one finding', () => {
    const labelled = judge(settings, received('GET', `/projects/${id(1)}`, 200, project(1), { 'content-type': 'text/plain' }));
    expect(labelled.violations).toMatchObject([{ requirements: ['GEN-JSON-BODIES'], readable: true }]);
    const text = judge(settings, received('POST', '/employees', 500, 'Internal Server Error', { 'content-type': 'text/plain' }));
    expect(text.violations.map((v) => v.message)).toEqual(['a response body is not JSON ("text/plain"), where the API document has JSON']);
  });

  test("only the document's operations are judged, and not the download stream", () => {
    expect(judge(settings, received('GET', '/documents', 404, 'nope', { 'content-type': 'text/html' })).operation).toBeUndefined();
    const download = { ...settings, paths: { ...settings.paths, attachmentDownload: { method: 'GET', path: '/api/public/v1/attachments/{id}/download' } } };
    const stream = judge(download, received('GET', `/attachments/${id(1)}/download`, 200, 'bytes', { 'content-type': 'application/octet-stream' }));
    expect(stream).toMatchObject({ operation: 'GET /attachments/{id}/download', violations: [] });
  });

  test('a record in the other shape than the one served is RES-SHAPE-CONSISTENT, and readable', () => {
    judge(settings, received('GET', `/projects/${id(1)}`, 200, project(1, { stage_changed_at: '2026-01-02T03:04:05Z' })));
    const drift = judge(settings, received('GET', `/projects/${id(2)}`, 200, project(2, { client_org_id: id(9) })));
    expect(drift.violations).toMatchObject([{ requirements: ['RES-SHAPE-CONSISTENT'], readable: true }]);
  });

  test("a key respelled is judged against its own object's names: an assignment's endDate is a respelling, a CV item's endDate is §2's", () => {
    const employee = { id: id(3), first_name: 'Ada' };
    const assignment = { id: id(1), employee_id: id(3), project_id: id(2), employee, start_date: '2026-01-02', endDate: '2026-02-03' };
    const seen = judge(settings, received('GET', `/assignments/${id(1)}`, 200, assignment));
    expect(seen.violations).toMatchObject([{ key: 'record /endDate | respelled', requirements: ['RES-ASSIGNMENT-SHAPE'], pointer: '/endDate' }]);
    const inEmployee = judge(settings,
      received('GET', `/assignments/${id(1)}`, 200, { ...assignment, end_date: '2026-02-03', endDate: undefined, employee: { id: id(3), firstName: 'Ada' } }));
    expect(inEmployee.violations).toMatchObject([{ requirements: ['RES-EMPLOYEE-SHAPE'], pointer: '/employee/firstName' }]);
    const cv = { id: id(4), employee_id: id(3), name: 'CV', data: { work: [{ name: 'W', startDate: '2020-01', endDate: '2021-01', hidden: false }] } };
    expect(judge(settings, received('GET', '/cvs', 200, { data: [cv], page: { hasMore: false } })).violations).toEqual([]);
  });

  test('a field typed "or null" left out is missing (§2: its empty value is null); one typed plain string may be left out', () => {
    const { last_activity_at: _, ...without } = project(1);
    const seen = judge(settings, received('GET', `/projects/${id(1)}`, 200, without));
    expect(seen.violations).toMatchObject([{ key: 'record /last_activity_at | null left out', requirements: ['RES-NULLABLE-FIELDS', 'RES-PROJECT-SHAPE'] }]);
    expect(judge(settings, received('GET', `/projects/${id(1)}`, 200, project(1))).violations).toEqual([]);
  });
});

describe('the excerpt around what is wrong', () => {
  test('is centred on the value the pointer names, deep in a long body', () => {
    const body = { data: Array.from({ length: 20 }, (_, i) => project(i)), page: { hasMore: false, nextCursor: null } };
    const excerpt = excerptAt(body, '/page/nextCursor', 120);
    expect(excerpt).toMatch(/^….*"page":\{"hasMore":false,"nextCursor":null\}\}$/);
    expect(excerpt.length).toBeLessThanOrEqual(122);
  });
});

describe('references', () => {
  /** A client that answers GET by id from a table of what each key may read, and counts its requests. */
  function fakeApi(readable: Record<string, string[]>): ApiClient & { sent: number; } {
    const api = {
      sent: 0,
      hasKey: () => true,
      async send(req: ApiRequest): Promise<ApiResponse> {
        api.sent += 1;
        const id = req.path.split('/').pop()!;
        const ok = (readable[String(req.auth ?? 'team')] ?? []).includes(id);
        return { status: ok ? 200 : 404, headers: {}, text: '', body: ok ? { id } : undefined, exchange: {} as ApiResponse['exchange'] };
      },
    };
    return api as unknown as ApiClient & { sent: number; };
  }
  const seen = {
    exchange: { request: { method: 'GET', url: `${base}/x`, headers: {} }, curl: 'curl', durationMs: 1 },
    operation: 'GET /assignments',
    redact: (t: string) => t,
  };
  const assignment = (n: number, projectId: string) => ({
    kind: 'assignment' as const,
    pointer: `/data/${n}`,
    value: { id: id(50 + n), employee_id: id(40), project_id: projectId },
  });

  test('a reference to a record of the other team is one finding; each id is read once', async () => {
    const api = fakeApi({ team: [id(1)], otherTeam: [id(2)] });
    const state = beginCheck();
    try {
      noteRecords('team', [assignment(0, id(1)), assignment(1, id(2)), assignment(2, id(2))], { ...seen, body: {} });
      await resolveReferences(api, 3);
      expect([...state.findings.values()].map((f) => [f.requirements, f.count])).toEqual([[['ISO-REFERENCE-OTHER-TEAM-AS-MISSING'], 1]]);
      // id(1) by the caller's key; id(2) by the caller's, then the other team's key: three reads for three references
      expect(api.sent).toBe(3);
      expect(state.readings['references.unverifiable.assignment.employee_id']).toContain('no read of its own');
    } finally {
      endCheck();
    }
  });

  test('a record the caller was shown needs no request; one neither team can read is a warning, not a finding', async () => {
    const api = fakeApi({});
    const state = beginCheck();
    try {
      noteRecords('team', [{ kind: 'project', pointer: '/data/0', value: project(1) }], { ...seen, body: {} });
      noteRecords('team', [assignment(0, id(1)), assignment(1, id(3))], { ...seen, body: {} });
      await resolveReferences(api, 3);
      expect(state.findings.size).toBe(0);
      expect(state.warnings.map((w) => w.name)).toEqual(['reference.dangling.assignment.project_id']);
      expect(api.sent).toBe(2); // id(3): by both keys
      expect(state.judged['ISO-REFERENCE-OTHER-TEAM-AS-MISSING']).toBe(1);
    } finally {
      endCheck();
    }
  });
});
