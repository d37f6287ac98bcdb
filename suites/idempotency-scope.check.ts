// An idempotency key replays only a retry of the same request (§4: "Every mutating endpoint takes
// an optional header `idempotency-key` (string)"; Upload rule 2: "a retry replays the original
// response"). A key sent again with another method or another path is not a retry: the request
// is refused, or executed — a 2xx answer must mean it was done, never the replay of the other
// request's answer while nothing happened.
import { randomUUID } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import { check } from './harness/check.js';
import { expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { createWorkingAssignment } from './harness/records.js';

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
