// One pass over every endpoint that returns a resource: the lists (walked), the by-id reads, and —
// unless read-only — one create of each kind. Schema checks look at the collected bodies through
// lenses, so a failure is attributed to the requirement whose fields are wrong.
import { is2xx } from './assert.js';
import type { ApiResponse } from './client.js';
import type { CheckContext } from './check.js';
import { createAssignmentFixture, testFile, postOrganization, uploadAttachment, uploadFile } from './records.js';
import { onSessionEnd } from './session.js';
import { validate, validatePage, type Resource, type SchemaProblem } from './validate.js';
import { lists, walkWithin } from './walk.js';

export interface Sample { resource: Resource; page: boolean; res: ApiResponse }

let pending: Promise<Sample[]> | undefined;
onSessionEnd(() => { pending = undefined; });

export function sweep(c: CheckContext): Promise<Sample[]> {
  pending ??= (async () => {
    const samples: Sample[] = [];
    const take = (resource: Resource, res: ApiResponse, page = false) => { if (is2xx(res)) samples.push({ resource, res, page }); };
    for (const list of ['projects', 'assignments', 'organizations', 'cvs'] as const) {
      const w = await walkWithin(c, lists[list], { limit: 100 });
      take(lists[list].resource, w.last, true);
      for (const item of w.items.slice(0, 3)) {
        if (list === 'projects' || list === 'assignments') take(lists[list].resource, await c.api.send({ method: 'GET', path: `${lists[list].path}/${item.id}` }));
      }
    }
    if (!c.settings.readOnly) {
      const { employee, assignment } = await createAssignmentFixture(c);
      take('assignment', await c.api.send({ method: 'GET', path: `/assignments/${assignment.id}` }));
      take('employee', await c.api.send({ method: 'PATCH', path: `/employees/${employee.id}`, json: { is_active: true } }));
      take('organization', await postOrganization(c));
      const file = await uploadFile(c, testFile(c, 32));
      take('file', file);
      if (is2xx(file)) take('file', await c.api.send({ method: 'GET', path: `/files/${(file.body as { id: string }).id}` }));
      const entity = { type: 'employee', id: String(employee.id) };
      take('attachment', await uploadAttachment(c, entity, testFile(c, 32)));
      take('attachment', await c.api.send({ method: 'GET', path: '/attachments', query: { entity_type: entity.type, entity_id: entity.id } }), true);
    }
    return samples;
  })();
  pending.catch(() => { pending = undefined; });
  return pending;
}

export function problemsOf(s: Sample): SchemaProblem[] {
  return s.page ? validatePage(s.resource, s.res.body) : validate(s.resource, s.res.body);
}

/** The value a JSON Pointer names inside a body. */
export function valueAt(body: unknown, pointer: string): unknown {
  let node = body;
  for (const part of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}
