// A refused mutation leaves no trace, on every mutating endpoint and for every reason a request is
// refused: another team's record (§1, §4 404 not_found), a key without the write scope (§5 rule 2),
// no key (§4 "All endpoints need the bearer header"), a body that does not match the fields' types
// (§2, §4), an idempotency key reused for another request (§4). After each refusal the owner reads
// the record back through every view (GET by id, every list and filter, every embedded copy) and
// must see exactly what was there before.
import { randomUUID } from 'node:crypto';
import { expectUnchanged, observe } from './harness/agreement.js';
import { check, type CheckContext, type CheckOptions } from './harness/check.js';
import { expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { type Mutation, mutations, type Refusal, sendTracked } from './harness/mutations.js';
import { exercised, REFUSAL_WORDS, titles } from './harness/plan/cells.js';
import { cellsOf } from './harness/plan/table.js';
import { setup } from './harness/setup.js';
import type { Auth } from './harness/transport/client.js';
import { canonical } from './harness/views.js';

const auths: Record<Exclude<Refusal, 'reused-key'>, Auth> = { 'cross-team': 'team', 'read-only': 'readOnly', 'no-key': 'none', 'invalid-body': 'team' };
const why = REFUSAL_WORDS;

/** The records a refusal check acts on; when they cannot be made, the check is blocked, not failed. */
const arrange = (c: CheckContext, m: Mutation, r: Refusal) => setup(`the records ${m.name} acts on`, () => m.arrange(c, r));

async function refusedLeavesNoTrace(c: CheckContext, m: Mutation, r: Exclude<Refusal, 'reused-key'>): Promise<void> {
  const arranged = await arrange(c, m, r);
  const cell = { dimension: 'refusals', subject: m.op, aspect: r } as const;
  const before = await observe(arranged.views);
  const res = await sendTracked(c, m, { ...arranged.request(r === 'invalid-body' ? 'invalid' : 'valid'), auth: auths[r] });
  if (is2xx(res)) {
    // a deployment may accept more than the types say (§9: relaxed validation is non-breaking)
    if (r === 'invalid-body') {
      exercised(cell);
      return c.reading(`validation.${m.op}`, 'a field of the wrong type is accepted');
    }
    fail(`${m.name} ${why[r]} answered ${res.status}`, res);
  }
  await expectUnchanged(c, before, `${m.name} ${why[r]} answered ${res.status}`);
  exercised(cell);
}

/** The first request with key K is applied; a different request with K is refused or replays the first, changing nothing. */
async function reusedKeyLeavesNoTrace(c: CheckContext, m: Mutation): Promise<void> {
  const arranged = await arrange(c, m, 'reused-key');
  const key = randomUUID();
  const first = await setup(`${m.name} with a fresh idempotency key`, async () => {
    const res = await sendTracked(c, m, { ...arranged.request('valid'), idempotencyKey: key });
    expectStatus(res, '2xx', `${m.name} with a fresh idempotency key`);
    return res;
  });
  const before = await observe(arranged.views);
  const second = await sendTracked(c, m, { ...arranged.request('other'), idempotencyKey: key });
  const replay = second.status === first.status && canonical(second.body) === canonical(first.body);
  if (is2xx(second) && !replay) {
    fail(`${m.name} ${why['reused-key']} answered ${second.status} with another body than the first: the second request was processed`, second);
  }
  c.reading(`idempotency.reused-key.${m.op}`, replay ? 'replays the first answer' : String(second.status));
  await expectUnchanged(c, before, `${m.name} ${why['reused-key']} answered ${second.status}`);
  exercised({ dimension: 'refusals', subject: m.op, aspect: 'reused-key' });
}

const opts = (m: Mutation, r: Refusal, extra: CheckOptions = {}): CheckOptions => ({
  mutates: true,
  ...(m.needs ? { needs: m.needs } : {}),
  cells: cellsOf(titles.refused(m.name, r), m.op),
  ...extra,
});
const has = (m: Mutation, r: Refusal) => m.refusals.includes(r);

for (const m of mutations) {
  if (has(m, 'cross-team')) {
    check([
      'ISO-MUTATE-OTHER-TEAM-NO-EFFECT',
    ], titles.refused(m.name, 'cross-team'), (c) => refusedLeavesNoTrace(c, m, 'cross-team'), opts(m, 'cross-team', { keys: ['otherTeam'] }));
  }
  if (has(m, 'read-only')) {
    check([
      'AUTH-READ-ONLY-KEY-NO-WRITE',
    ], titles.refused(m.name, 'read-only'), (c) => refusedLeavesNoTrace(c, m, 'read-only'), opts(m, 'read-only', { keys: ['readOnly'] }));
  }
  if (has(m, 'no-key')) {
    check([
      'AUTH-BEARER-REQUIRED',
    ], titles.refused(m.name, 'no-key'), (c) => refusedLeavesNoTrace(c, m, 'no-key'), opts(m, 'no-key'));
  }
  if (has(m, 'invalid-body')) {
    check([
      'EP-INVALID-BODY-NO-EFFECT',
    ], titles.refused(m.name, 'invalid-body'), (c) => refusedLeavesNoTrace(c, m, 'invalid-body'), opts(m, 'invalid-body'));
  }
  if (has(m, 'reused-key')) {
    check([
      'IDEM-REPLAY',
    ], titles.refused(m.name, 'reused-key'), (c) => reusedKeyLeavesNoTrace(c, m), opts(m, 'reused-key'));
  }
}
