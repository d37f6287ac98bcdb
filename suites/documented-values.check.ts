// Values the document states outright, accepted wherever it states them: each listed entity type
// of the attachments list (§4 "entity_type (required; project, organization, employee or
// contact)") is a valid filter, answered as the list answers any other listed type; every field
// named `*_date` is a date in every record a create answers, its defaults included (§2 "Names
// ending in `_at` are timestamps; names ending in `_date` are dates.").
import type { Rec } from '../contract/json.js';
import { operations } from '../specs/surface.js';
import { check } from './harness/check.js';
import { fail } from './harness/judge/assert.js';
import { servedOperations } from './harness/plan/operations.js';
import { bodyOf, made } from './harness/subjects.js';
import { randomId } from './harness/team-b.js';

const listOf = (name: string) => operations().find((o) => o.kind === 'list' && o.filters.some((f) => f.enum) && o.op === name);

for (const op of operations().filter((o) => o.kind === 'list' && o.filters.some((f) => f.enum))) {
  check([
    'EP-ATTACHMENTS-LIST',
  ], `documented values: ${op.op} takes each listed value of its enumerated filters, answered as the first listed value is`, async (c) => {
    const live = listOf(op.op)!;
    const typed = live.filters.find((f) => f.enum)!;
    const ids = Object.fromEntries(live.filters.filter((f) => f.format === 'uuid').map((f) => [f.name, randomId()]));
    const answer = async (v: string) => c.api.send({ method: 'GET', path: live.path, query: { ...ids, [typed.name]: v } });
    const first = await answer(typed.enum![0]!);
    for (const v of typed.enum!.slice(1)) {
      const res = await answer(v);
      // a listed value is valid: a missing record of that type is answered as one of the first type
      if (Math.floor(res.status / 100) !== Math.floor(first.status / 100) || (res.status === 400) !== (first.status === 400)) {
        fail(
          `GET ${live.path}?${typed.name}=${v} (a listed value) with a random id answered ${res.status}; ${typed.name}=${
            typed.enum![0]
          } answered ${first.status}`,
          res,
        );
      }
    }
  });
}

/** The `*_date` fields of a record whose value carries a time of day: a timestamp where a date is due. */
const timedDates = (record: Rec) =>
  Object.entries(record).filter(([k, v]) => k.endsWith('_date') && typeof v === 'string' && /\d[T ]\d\d:\d\d/.test(v)).map(([k, v]) =>
    `${k}=${JSON.stringify(v)}`
  );

for (const op of operations().filter((o) => o.kind === 'create' && o.body && o.fields.some((f) => f.name.endsWith('_date')))) {
  check([
    'RES-TIMESTAMPS-DATES-STRINGS',
  ], `documented values: ${op.op} with only its required fields, and filled, answers every *_date field as a date, not a timestamp`, async (c) => {
    const live = servedOperations(c.settings).find((o) => o.op === op.op)!;
    for (const required of [true, false]) {
      const sent = await bodyOf(c, live, { required });
      const { record, res } = await made(c, live.resource, { sent });
      const wrong = timedDates(record);
      if (wrong.length) {
        fail(`${live.op}${required ? ' with only its required fields' : ''} answered ${wrong.join(', ')}: a date field with a time of day`, res);
      }
    }
  }, { mutates: true });
}
