// One pass over every endpoint that returns a resource: the lists (every page), the by-id reads,
// and — unless read-only — one create of each kind. Nothing is validated here: every response is
// judged by the audit (audit.ts), and the schema checks look at its findings on these responses by
// requirement, so a failure is attributed to the requirement whose fields are wrong, not to
// whichever survey step met it first. Shared per suite file (setup.ts);
// only a list that cannot be read (non-2xx) fails it, blocking the checks that look at the bodies.
import { isRecord, type Rec } from '../../contract/json.js';
import { resource } from '../../specs/registry.js';
import type { CheckContext } from './check.js';
import { expectStatus, is2xx } from './judge/assert.js';
import type { Resource } from './judge/problems.js';
import { servedShape } from './judge/shape.js';
import { postAssignment, postEmployee, postOrganization, testFile, uploadAttachment, uploadFile } from './records.js';
import { shared } from './setup.js';
import type { ApiResponse } from './transport/client.js';
import { lists, type ListSpec, PAGEABLE, SAMPLE_PAGES, sendList } from './walk.js';

export interface Sample {
  resource: Resource;
  page: boolean;
  res: ApiResponse;
}

type Take = (resource: Resource, res: ApiResponse, page?: boolean) => void;

/** Every page of a list, each taken as a sample; the walk stops where the page does not say how to go on. */
async function pagesOf(c: CheckContext, list: ListSpec, take: Take): Promise<Rec[]> {
  const items: Rec[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  // a sample of each list: a deployment may hold any number of records
  for (let n = 0; n < SAMPLE_PAGES; n += 1) {
    const res = await sendList(c, list.path, { limit: 100, cursor });
    expectStatus(res, '2xx', `GET ${list.path}`);
    take(list.resource, res, true);
    const body = res.body as { data?: unknown; page?: { hasMore?: unknown; nextCursor?: unknown; }; } | undefined;
    if (Array.isArray(body?.data)) items.push(...body.data.filter(isRecord));
    // The served shape is read from the first record seen, as a validating walk would (shape.ts).
    if ((list.resource === 'project' || list.resource === 'organization') && items[0]) servedShape(list.resource, items[0]);
    const next = body?.page?.nextCursor;
    if (body?.page?.hasMore !== true || typeof next !== 'string' || next === '' || seen.has(next)) return items;
    seen.add(next);
    cursor = next;
  }
  return items;
}

async function creates(c: CheckContext, project: Rec | undefined, take: Take): Promise<void> {
  const posted = await postEmployee(c);
  take('employee', posted);
  const employee = is2xx(posted) && isRecord(posted.body) ? posted.body : undefined;
  if (employee && project) {
    const assignment = await postAssignment(c, { employee_id: employee.id, project_id: project.id });
    take('assignment', assignment);
    if (is2xx(assignment) && isRecord(assignment.body)) take('assignment', await c.api.send({ method: 'GET', path: `/assignments/${assignment.body.id}` }));
  }
  if (employee) take('employee', await c.api.send({ method: 'PATCH', path: `/employees/${employee.id}`, json: { is_active: true } }));
  take('organization', await postOrganization(c));
  const file = await uploadFile(c, testFile(c, 32));
  take('file', file);
  if (is2xx(file) && isRecord(file.body)) take('file', await c.api.send({ method: 'GET', path: `/files/${file.body.id}` }));
  if (!employee) return;
  const entity = { type: 'employee', id: String(employee.id) };
  take('attachment', await uploadAttachment(c, entity, testFile(c, 32)));
  take('attachment', await c.api.send({ method: 'GET', path: '/attachments', query: { entity_type: entity.type, entity_id: entity.id } }), true);
}

export const survey = shared('a survey of every endpoint', async (c: CheckContext): Promise<Sample[]> => {
  const samples: Sample[] = [];
  const take: Take = (resource, res, page = false) => {
    if (is2xx(res)) samples.push({ resource, res, page });
  };
  let project: Rec | undefined;
  for (const list of PAGEABLE) {
    const items = await pagesOf(c, lists[list], take);
    if (list === 'projects') project = items[0];
    for (const item of items.slice(0, 3)) {
      if (resource(list).operations.get) {
        take(lists[list].resource, await c.api.send({ method: 'GET', path: `${lists[list].path}/${item.id}` }));
      }
    }
  }
  if (!c.settings.readOnly) await creates(c, project, take);
  return samples;
});
