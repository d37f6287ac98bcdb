// §1 capture intake (path configurable): a capture answers a pending review item; deduplication on
// (team, source, external_id); a repeat answers the existing item with 200.
import { randomUUID } from 'node:crypto';
import { ensure, expectStatus } from './harness/assert.js';
import type { ApiResponse } from './harness/client.js';
import { check, type CheckContext } from './harness/check.js';
import type { KeyName } from './harness/redact.js';

type Rec = Record<string, unknown>;
const opts = { mutates: true, needs: ['captureIntake' as const] };

function capture(c: CheckContext, externalId: string, auth: KeyName = 'team'): Promise<ApiResponse> {
  const e = c.settings.paths.captureIntake!;
  return c.api.send({
    method: e.method, path: e.path, auth,
    json: { source: 'conformance', external_id: externalId, title: `conformance ${c.target.runId}`, url: `https://example.invalid/${externalId}`, thread: { messages: [] } },
  });
}

const externalId = (c: CheckContext) => `${c.target.runId}-${randomUUID()}`;

check(['INTAKE-PENDING-REVIEW'], 'a capture answers 2xx with the item as a JSON object', async (c) => {
  const res = await capture(c, externalId(c));
  expectStatus(res, '2xx', 'capture');
  const item = res.body as Rec;
  ensure(item && typeof item === 'object' && !Array.isArray(item) && typeof item.id === 'string', 'the capture did not answer an item object with an id', res);
  c.reading('intake.first-status', String(res.status));
}, opts);

check(['INTAKE-REPEAT-200', 'INTAKE-DEDUP-TRIPLE'], 'a repeat capture of the same thread answers 200 with the same item', async (c) => {
  const id = externalId(c);
  const first = await capture(c, id);
  expectStatus(first, '2xx', 'first capture');
  const again = await capture(c, id);
  expectStatus(again, 200, 'repeat capture');
  ensure((again.body as Rec).id === (first.body as Rec).id, 'the repeat capture answered another item', again);
}, opts);

check(['INTAKE-DEDUP-TRIPLE'], 'another external_id gives another item; the same pair from another team gives that team its own item', async (c) => {
  const id = externalId(c);
  const first = await capture(c, id);
  expectStatus(first, '2xx', 'first capture');
  const other = await capture(c, externalId(c));
  expectStatus(other, '2xx', 'capture of another thread');
  ensure((other.body as Rec).id !== (first.body as Rec).id, 'another external_id answered the same item', other);
  const teamB = await capture(c, id, 'otherTeam');
  expectStatus(teamB, '2xx', 'the same capture by the other team');
  ensure((teamB.body as Rec).id !== (first.body as Rec).id, "the other team received this team's item", teamB);
}, { ...opts, keys: ['otherTeam'] });
