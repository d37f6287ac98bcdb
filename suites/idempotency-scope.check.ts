// An idempotency key replays only a retry of the same request (§4: "Every mutating endpoint takes
// an optional header `idempotency-key` (string)"; Upload rule 2: "a retry replays the original
// response"). A key sent again with another method or another path is not a retry: the request
// is refused, or executed — a 2xx answer must mean it was done, never the replay of the other
// request's answer while nothing happened.
import { randomUUID } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import { expectEveryView } from './harness/agreement.js';
import { check } from './harness/check.js';
import { expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { mutations, sendTracked } from './harness/mutations.js';
import { operationNamed } from './harness/plan/operations.js';
import { createWorkingAssignment } from './harness/records.js';
import { createOf, made, subjectOf } from './harness/subjects.js';
import { canonical, viewsOf } from './harness/views.js';

check([
  'IDEM-REPLAY',
], 'retries: an idempotency key sent again with another path or another method is refused, or executed as its own request', async (c) => {
  const { assignment: x } = await createWorkingAssignment(c);
  const { assignment: y } = await createWorkingAssignment(c);
  const gone = async (id: string) => (await c.api.send({ method: 'GET', path: `/assignments/${id}` })).status === 404;
  // the same key on DELETE of another record
  const key = randomUUID();
  const first = await c.api.send({ method: 'DELETE', path: `/assignments/${String(x.id)}`, idempotencyKey: key });
  expectStatus(first, '2xx', 'DELETE /assignments/{id} with a fresh idempotency key');
  c.ledger.gone(String(x.id));
  const other = await c.api.send({ method: 'DELETE', path: `/assignments/${String(y.id)}`, idempotencyKey: key });
  if (is2xx(other) && !(await gone(String(y.id)))) {
    fail('DELETE of another assignment with a key used before answered 2xx, yet the assignment is still there', other);
  }
  if (is2xx(other)) c.ledger.gone(String(y.id));
  c.reading('idempotency.key-other-path', String(other.status));
  // the same key on another method of the same record
  const { assignment: z } = await createWorkingAssignment(c);
  const key2 = randomUUID();
  const patched = await c.api.send({ method: 'PATCH', path: `/assignments/${String(z.id)}`, json: {}, idempotencyKey: key2 });
  expectStatus(patched, '2xx', 'PATCH /assignments/{id} {} with a fresh idempotency key');
  const deleted = await c.api.send({ method: 'DELETE', path: `/assignments/${String(z.id)}`, idempotencyKey: key2 });
  if (is2xx(deleted) && !(await gone(String(z.id)))) {
    fail(
      `DELETE with the key of an earlier PATCH of the same assignment answered ${deleted.status} ${
        JSON.stringify(deleted.body as Rec).slice(0, 60)
      }, yet the assignment is still there`,
      deleted,
    );
  }
  if (is2xx(deleted)) c.ledger.gone(String(z.id));
  c.reading('idempotency.key-other-method', String(deleted.status));
}, { mutates: true });

// Every operation on a record (a PATCH, a DELETE), after a key was used on the same operation of
// another record with the same body: a replay of the first answer leaves this record as it was.
// Refused, or done as its own request, are the readings the document leaves.
for (const m of mutations) {
  check([
    'IDEM-REPLAY',
  ], `retries: a key used first on another record, then on ${m.name} with the same body, is refused or executed, never answered as the other record's request`,
    async (c) => {
      const live = operationNamed(c.settings, m.op);
      if (!live?.path.includes('{id}')) return c.skip(`${m.name} names no record in its path: another request of it is another record's by its body alone`);
      const [a, b] = [await m.arrange(c, 'read-only'), await m.arrange(c, 'read-only')];
      const first = a.request('valid');
      let second = b.request('valid');
      let views = b.views;
      if (second.path === first.path) {
        // the arrangement shares its record: another one, made (or a second scratch project)
        const id = first.path.split('/').at(-1)!;
        const other = createOf(c, live.resource) ? String((await made(c, live.resource)).record.id) : c.settings.scratchProjects.find((p) => p !== id);
        if (!other) return c.skip(`one record of ${live.resource} to change (CONFORMANCE_SCRATCH_PROJECTS names one): no other record to send the key to`);
        if (!createOf(c, live.resource)) await c.ledger.before('projects', other);
        second = { ...second, path: second.path.replace(id, other) };
        views = viewsOf(c, await subjectOf(c, live.resource, { id: other }));
      }
      const key = randomUUID();
      const one = await sendTracked(c, m, { ...first, idempotencyKey: key });
      expectStatus(one, '2xx', `${m.name} with a fresh idempotency key`);
      if (first.method === 'DELETE') c.ledger.gone(first.path.split('/').at(-1)!);
      const res = await sendTracked(c, m, { ...second, ...(first.json !== undefined ? { json: first.json } : {}), idempotencyKey: key });
      c.reading(`idempotency.key-other-record ${m.op}`, String(res.status));
      if (!is2xx(res)) return;
      if (second.method === 'DELETE') {
        c.ledger.gone(second.path.split('/').at(-1)!);
        await expectEveryView(c, views, 'absent', `${m.name} of another record with the key of an earlier one answered ${res.status}`);
        return;
      }
      const id = (res.body as Rec | undefined)?.id;
      if (canonical(res.body) === canonical(one.body) || (typeof id === 'string' && !second.path.includes(id))) {
        fail(`${m.name} with the key of the same request on another record answered ${res.status} with that record's answer: a replay of another request`, res);
      }
    }, { mutates: true, ...(m.needs ? { needs: m.needs } : {}) });
}
