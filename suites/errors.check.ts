// §7 Errors: the envelopes, detail as a map of strings, the stated codes; required create fields.
import type { Rec } from '../contract/json.js';
import { validate } from '../specs/index.js';
import { check } from './harness/check.js';
import { ensure, expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { errorCode, expectErrorEnvelope } from './harness/judge/problems.js';
import { detectedShape } from './harness/judge/shape.js';
import { aProject, createEmployee, postAssignment } from './harness/records.js';
import type { ApiResponse } from './harness/transport/client.js';
import { fetchPage, lists, walk } from './harness/walk.js';

function expectJsonError(res: ApiResponse, what: string, shortAllowed = false): void {
  ensure(/json/.test(res.headers['content-type'] ?? ''), `${what}: content-type ${res.headers['content-type']} is not JSON`, res);
  expectErrorEnvelope(res, what, shortAllowed);
}

check([
  'ERR-ENVELOPES',
  'ERR-FULL-ENVELOPE',
  'GEN-JSON-BODIES',
], 'error responses carry the error envelope with a JSON content-type', async (c) => {
  const cases: [string, ApiResponse][] = [
    ['404 of a missing project', await c.api.send({ method: 'GET', path: `/projects/${crypto.randomUUID()}` })],
    ['404 of a missing assignment', await c.api.send({ method: 'GET', path: `/assignments/${crypto.randomUUID()}` })],
    ['400 of an undecodable cursor', await c.api.send({ method: 'GET', path: '/assignments', query: { cursor: '%%%not-a-cursor' } })],
    ['4xx without Authorization', await c.api.send({ method: 'GET', path: '/assignments', auth: 'none' })],
    ['4xx of GET /attachments without parameters', await c.api.send({ method: 'GET', path: '/attachments' })],
  ];
  if (!c.settings.readOnly) {
    cases.push([
      '4xx of malformed JSON',
      await c.api.send({ method: 'POST', path: '/employees', headers: { 'content-type': 'application/json' }, rawBody: '{"first_name": ' }),
    ]);
    cases.push(['4xx of POST /employees without first_name', await c.api.send({ method: 'POST', path: '/employees', json: { last_name: 'x' } })]);
  }
  for (const [what, res] of cases) {
    if (res.status >= 500) fail(`${what}: answered ${res.status}`, res);
    expectStatus(res, '4xx', what);
    expectJsonError(res, what);
    ensure(validate('error', res.body).valid, `${what}: not the full envelope`, res);
  }
});

check([
  'ERR-DETAIL-MAP',
  'EP-EMPLOYEES-CREATE-FIRST-NAME-REQUIRED',
], 'POST /employees without first_name answers 4xx; detail, when present, maps to strings', async (c) => {
  const res = await c.api.send({ method: 'POST', path: '/employees', json: { last_name: 'No first name' } });
  if (is2xx(res)) {
    c.ledger.keep('employee', String((res.body as Rec).id));
    fail('an employee without first_name was created', res);
  }
  expectStatus(res, '4xx', 'POST /employees without first_name');
  const body = expectErrorEnvelope(res);
  if (body.detail !== undefined) {
    ensure(typeof body.detail === 'object' && body.detail !== null && !Array.isArray(body.detail), 'detail is not an object', res);
    const bad = Object.entries(body.detail).filter(([, v]) => typeof v !== 'string');
    ensure(bad.length === 0, `detail values that are not strings: ${bad.map(([k]) => k).join(', ')}`, res);
  }
  c.reading('errors.detail-on-validation', body.detail === undefined ? 'absent' : 'present');
}, { mutates: true });

check([
  'EP-ASSIGNMENTS-CREATE-REQUIRED-FIELDS',
], 'POST /assignments without employee_id, or without project_id, answers 4xx and creates nothing', async (c) => {
  const project = await aProject(c);
  const employee = await createEmployee(c);
  for (const body of [{ project_id: project.id }, { employee_id: employee.id }]) {
    const res = await postAssignment(c, body);
    expectStatus(res, '4xx', `POST /assignments without ${'employee_id' in body ? 'project_id' : 'employee_id'}`);
  }
  const mine = await walk(c, { ...lists.assignments, query: { employee_id: String(employee.id) } }, { limit: 100 });
  ensure(mine.items.length === 0, 'an assignment was created without its required fields', mine.last);
}, { mutates: true });

check([
  'ERR-SHORT-ENVELOPE',
], 'project and organization list and update errors carry at least the short envelope', async (c) => {
  await fetchPage(c, lists.projects, { limit: 1 });
  c.reading('errors.shape', `projects ${detectedShape('project') ?? 'unknown'}, organizations ${detectedShape('organization') ?? 'unknown'}`);
  const cases: [string, ApiResponse][] = [
    ['GET /projects with an undecodable cursor', await c.api.send({ method: 'GET', path: '/projects', query: { cursor: '%%%' } })],
    ['GET /organizations with an undecodable cursor', await c.api.send({ method: 'GET', path: '/organizations', query: { cursor: '%%%' } })],
  ];
  if (!c.settings.readOnly) {
    cases.push(['PATCH of a missing project', await c.api.send({ method: 'PATCH', path: `/projects/${crypto.randomUUID()}`, json: {} })]);
    cases.push(['PATCH of a missing organization', await c.api.send({ method: 'PATCH', path: `/organizations/${crypto.randomUUID()}`, json: {} })]);
  }
  for (const [what, res] of cases) {
    expectStatus(res, '4xx', what);
    expectErrorEnvelope(res, what, true);
  }
  ensure(errorCode(cases[0]![1]) !== undefined, 'no error.code');
});
