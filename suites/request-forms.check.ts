// Every legal form of a request, on every route of the operation table (specs/surface.ts), answered
// as its plainest form is:
// - the JSON media type spelled with parameters and in any case (§ Base address: "All request
//   bodies and responses are JSON"; RFC 9110 §8.3.1: type, subtype and parameter names are
//   case-insensitive, and `charset` is a parameter of application/json a client may send);
// - each form of Accept a client may send for JSON (`*/*`, `application/*`, weighted lists, none);
// - the path id in upper-case hex (§4: "The path parameter `id` is a UUID matching the canonical
//   UUID pattern …": the pattern is hex, of any case (specs/ids.ts); whether an upper-case spelling
//   names the same record is not said, so it may be served as it, answered 404 not_found, or refused
//   as outside a lower-case reading of "canonical" — but never another team's record, and a write it
//   answers as done is done);
// - query values percent-encoded in each equivalent way (RFC 3986 §2.1 and §6.2.2: hex digits of
//   either case, unreserved characters encoded or not), with reserved characters in the text;
// - repeated and empty parameters: the document says nothing of them (§4 "List query parameters"
//   give each once), so any answer but a server error is taken, and a page answered holds only
//   records one of the repeated values names;
// - a malformed JSON body on every JSON write: a client error in the §7 envelope ("Two error
//   envelopes appear"), never a server error, and the record left as it was.
import { randomBytes } from 'node:crypto';
import type { Rec } from '../contract/json.js';
import { operations } from '../specs/surface.js';
import { expectEveryView, expectUnchanged, observe } from './harness/agreement.js';
import { check, type CheckContext } from './harness/check.js';
import { ensure, expectStatus, fail, is2xx } from './harness/judge/assert.js';
import { errorCode, expectErrorEnvelope, expectResource } from './harness/judge/problems.js';
import { type Operation, recordKind, requestTo, servedOperations } from './harness/plan/operations.js';
import { aProject, markedText, marker } from './harness/records.js';
import { bodyOf, createOf, made, patchTarget, send, subjectOf, textFieldOf } from './harness/subjects.js';
import { randomId, type TeamB, teamB } from './harness/team-b.js';
import type { ApiResponse } from './harness/transport/client.js';
import { echo, viewsOf } from './harness/views.js';
import { sendList } from './harness/walk.js';
import { fieldFindingKey, writeConcern } from './harness/wrong-fields.js';

/** Spellings of application/json other than the plain one (RFC 9110 §8.3.1, RFC 8259 §11). */
const MEDIA_TYPES = ['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8', 'APPLICATION/JSON; Charset="utf-8"'];
/** Accept headers under which JSON is acceptable (RFC 9110 §12.5.1); undefined: no Accept at all. */
const ACCEPTS = ['*/*', 'application/*', 'application/json;q=0.9, */*;q=0.1', undefined] as const;
/** Bodies no JSON parser reads (RFC 8259): cut short, single quotes, a trailing comma, a bare word. */
const MALFORMED = ['{"x": ', "{'x': 1}", '{"x": 1,}', 'nul'];

/** The operation as the target serves it; an endpoint §4 does not show, with no path set for it, is skipped saying which setting serves it. */
const live = (c: CheckContext, op: Operation): Operation =>
  servedOperations(c.settings).find((o) => o.op === op.op)
    ?? c.skip(`${op.op} is not served here: its path is not shown by the document (set its CONFORMANCE_PATH_* setting)`);
const jsonWrites = () => operations().filter((o) => (o.kind === 'create' || o.kind === 'patch') && o.body && !o.multipart && o.record);
const byId = () => operations().filter((o) => o.path.includes('{id}') && o.record && (o.kind === 'get' || o.kind === 'patch' || o.kind === 'delete'));
const listsOf = () => operations().filter((o) => o.kind === 'list');
const shownAccept = (a: string | undefined) => a ?? 'no Accept';
const isJson = (res: ApiResponse) => /^application\/([a-z0-9.+-]*\+)?json\b/i.test(res.headers['content-type'] ?? '');

/** A record `op` (by its path id) can act on: made through its create, or a project of the team. */
async function recordFor(c: CheckContext, op: Operation): Promise<Rec> {
  if (op.kind === 'patch') return patchTarget(c, op);
  if (createOf(c, op.resource)) return (await made(c, op.resource)).record;
  if (op.resource === 'projects' && op.kind === 'get') return aProject(c);
  return c.skip(`no record of ${op.resource} for ${op.op} to act on`);
}

/** The free-text field a write can set to a marked value. */
const textOf = (op: Operation) => textFieldOf(op)?.name ?? op.fields.find((f) => ['notes', 'description', 'title'].includes(f.name))?.name;

/** The fields of a list's required filters, each given a random id (or its first listed value). */
function requiredQuery(op: Operation): Record<string, string> {
  return Object.fromEntries(op.filters.filter((f) => f.required).map((f) => [f.name, f.enum?.[0] ?? randomId()]));
}

const rawQuery = (pairs: readonly (readonly [string, string])[]) => pairs.map(([k, v]) => `${k}=${v}`).join('&');

/** A JSON write sent once under each spelling of the media type: each answers what it sent, the last shows in every view. */
const mediaTypes = (op: Operation) => async (c: CheckContext): Promise<void> => {
  const w = live(c, op);
  const field = textOf(w);
  if (!field) return c.skip(`${w.op} names no free-text field to write`);
  const target = w.kind === 'patch' ? await recordFor(c, w) : undefined;
  let last: Rec | undefined;
  for (const type of MEDIA_TYPES) {
    const value = `${markedText(c)} ${type}`;
    const sent = w.kind === 'patch' ? { body: { [field]: value } } : await bodyOf(c, w);
    sent.body[field] = value;
    const res = await send(c, w, { id: target ? String(target.id) : undefined, sent, contentType: type });
    expectStatus(res, '2xx', `${w.op} with Content-Type: ${type}`);
    const record = expectResource(res, recordKind(w)!, `${w.op} answer`);
    // the same text in another Unicode normal form is what it sent (§2 shows no form)
    ensure(echo(field, value, record[field]) !== 'differs',
      `${w.op} with Content-Type: ${type} answered ${field}=${JSON.stringify(record[field])}, not what it sent`, res,
      writeConcern(fieldFindingKey(w.resource, field), { resource: w.resource, field }));
    last = record;
  }
  // what the last one wrote shows in every view, not only in its answer
  await expectEveryView(c, viewsOf(c, await subjectOf(c, w.resource, last!)), { id: last!.id, [field]: last![field] },
    `after ${w.op} under another spelling of the media type`);
};

for (const op of jsonWrites()) {
  const title = `request forms: ${op.op} takes its JSON body under every spelling of application/json`;
  if (op.kind === 'patch') {
    check([
      'GEN-JSON-BODIES',
      'EP-PATCH-PERSISTS',
    ], title, mediaTypes(op), { mutates: true });
  } else {
    check([
      'GEN-JSON-BODIES',
      'EP-CREATE-PERSISTS',
    ], title, mediaTypes(op), { mutates: true });
  }
}

for (const op of operations().filter((o) => o.record && o.kind !== 'download' && o.kind !== 'other')) {
  check([
    'GEN-JSON-BODIES',
  ], `request forms: ${op.op} answers JSON under every Accept that admits it, and without Accept`, async (c) => {
    const w = live(c, op);
    const needsRecord = w.path.includes('{id}');
    for (const accept of ACCEPTS) {
      const headers: Record<string, string> = accept === undefined ? {} : { accept };
      const omit = accept === undefined ? ['accept'] : [];
      const what = `${w.op} with ${shownAccept(accept)}`;
      let res: ApiResponse;
      if (w.kind === 'list') {
        res = await c.api.send({ method: 'GET', path: w.path, query: requiredQuery(w), headers, omit });
      } else if (w.kind === 'create') {
        res = await send(c, w, { sent: await bodyOf(c, w), headers, omit });
      } else {
        const record = needsRecord ? await recordFor(c, w) : undefined;
        const field = textOf(w);
        const sent = w.kind === 'patch' && field ? { body: { [field]: `${markedText(c)} accept` } } : undefined;
        res = await send(c, w, { id: record ? String(record.id) : undefined, ...(sent ? { sent } : {}), headers, omit });
      }
      expectStatus(res, '2xx', what);
      if (res.text !== '') ensure(isJson(res), `${what} answered Content-Type ${res.headers['content-type']}, not JSON`, res);
    }
  }, { mutates: op.kind !== 'list' && op.kind !== 'get' });
}

/** Team B's record of a resource, when team B's records hold one. */
const teamBRecord = (b: TeamB, resource: string): Rec | undefined => (b as unknown as Record<string, Rec | undefined>)[resource.replace(/s$/, '')];

/** `op` sent with an upper-case spelling of a record's id, then another team's record under the same spelling. */
const upperCase = (op: Operation) => async (c: CheckContext): Promise<void> => {
  const w = live(c, op);
  const record = await recordFor(c, w);
  const id = String(record.id);
  const upper = id.toUpperCase();
  if (upper === id) return c.skip(`the id ${id} has no letter to write in upper case`);
  const views = viewsOf(c, await subjectOf(c, w.resource, record));
  const before = await observe(views);
  const field = textOf(w);
  const value = `${markedText(c)} upper`;
  const res = await send(c, w, { id: upper, ...(w.kind === 'patch' && field ? { sent: { body: { [field]: value } } } : {}) });
  const what = `${w.method.toUpperCase()} ${w.path.replace('{id}', upper)}`;
  if (res.status >= 500) fail(`${what} answered ${res.status}`, res);
  if (is2xx(res)) {
    c.reading(`ids.upper-case ${w.op}`, 'served');
    if (w.kind !== 'delete') {
      const got = (res.body as Rec | undefined)?.id;
      ensure(typeof got === 'string' && got.toLowerCase() === id.toLowerCase(), `${what} answered ${JSON.stringify(got)}, not the record ${id} it spells`, res);
    }
    if (w.kind === 'patch' && field) {
      const shown = (res.body as Rec | undefined)?.[field];
      ensure(echo(field, value, shown) !== 'differs', `${what} answered ${res.status} with ${field}=${JSON.stringify(shown)}, not what it sent`, res,
        writeConcern(fieldFindingKey(w.resource, field), { resource: w.resource, field }));
      await expectEveryView(c, views, { id, [field]: shown }, `after ${what} answered ${res.status}`);
    }
    if (w.kind === 'delete') {
      c.ledger.gone(id);
      await expectEveryView(c, views, 'absent', `after ${what} answered ${res.status}`);
    }
  } else {
    c.reading(`ids.upper-case ${w.op}`, res.status === 404 ? `404 ${errorCode(res)}` : `refused ${res.status}`);
    ensure(res.status >= 400 && res.status < 500, `${what}: expected the record, 404 or a refusal, got ${res.status}`, res);
    await expectUnchanged(c, before, `${what} answered ${res.status}`);
  }
  // another team's record under the same spelling is answered as a missing id is (§1)
  if (!c.api.hasKey('otherTeam') || w.kind !== 'get') return;
  const theirs = teamBRecord(await teamB(c), w.resource);
  if (!theirs) return;
  const [other, missing] = [String(theirs.id).toUpperCase(), randomId().toUpperCase()];
  const [a, b] = await Promise.all([other, missing].map((x) => c.api.send({ ...requestTo(w, x) })));
  // an isolation failure, whatever spelling showed it: it fails the isolation rules, not the id pattern's
  const isolation = { requirement: 'ISO-OTHER-TEAM-AS-MISSING' };
  if (is2xx(a!)) fail(`${w.method.toUpperCase()} ${w.path.replace('{id}', other)} served another team's record`, a, isolation);
  if (a!.status !== b!.status || errorCode(a!) !== errorCode(b!)) {
    fail(`another team's id in upper case answered ${a!.status} ${errorCode(a!)}, a missing one ${b!.status} ${errorCode(b!)}`, a, isolation);
  }
};

for (const op of byId()) {
  const title = `request forms: ${op.op} with an upper-case id serves that record (a write done), answers 404 or refuses it; another team's record never`;
  if (op.kind === 'patch') {
    check([
      'ID-PATH-PATTERN',
      'EP-PATCH-PERSISTS',
    ], title, upperCase(op), { mutates: true });
  } else if (op.kind === 'delete') {
    check([
      'ID-PATH-PATTERN',
      'EP-DELETE-GONE',
    ], title, upperCase(op), { mutates: true });
  } else {
    check([
      'ID-PATH-PATTERN',
      'ISO-OTHER-TEAM-AS-MISSING',
      'ISO-GET-OTHER-TEAM-404',
    ], title, upperCase(op));
  }
}

/** Text a second percent-decoding reads otherwise: a literal percent sign before hex digits, an encoded plus, an encoded letter. */
const PERCENT_TEXT = '50%25 off %2B1 %41';

/**
 * A record of the list's resource holding `text` in a field the run writes: made through its create
 * (an upload: the file's name), or a scratch project's text changed through its PATCH (put back by
 * the ledger). The list's required filters name what the record is on.
 */
async function percentHolder(c: CheckContext, w: Operation, text: string): Promise<{ record: Rec; field: string; query: Record<string, string>; }> {
  const create = createOf(c, w.resource);
  const patch = servedOperations(c.settings).find((o) => o.resource === w.resource && o.kind === 'patch');
  let record: Rec;
  let field: string;
  let body: Rec = {};
  if (create?.multipart) {
    const sent = await bodyOf(c, create);
    sent.file = { ...sent.file!, filename: `${text}.bin` };
    ({ record } = await made(c, w.resource, { sent }));
    field = 'filename';
    body = sent.body;
  } else if (create && textOf(create)) {
    field = textOf(create)!;
    const sent = await bodyOf(c, create);
    sent.body[field] = text;
    ({ record } = await made(c, w.resource, { sent }));
    body = sent.body;
  } else if (patch && textOf(patch)) {
    field = textOf(patch)!;
    const target = await patchTarget(c, patch);
    const res = await send(c, patch, { id: String(target.id), sent: { body: { [field]: text } } });
    expectStatus(res, '2xx', `${patch.op} writing text with percent sequences`);
    record = expectResource(res, recordKind(patch)!, `${patch.op} answer`);
  } else {
    return c.skip(`the run cannot write text into ${w.resource}: the API neither creates nor changes them`);
  }
  const query = Object.fromEntries(w.filters.filter((f) => f.required).map((f) => [f.name, String(record[f.name] ?? body[f.name] ?? '')]));
  return { record, field, query };
}

/**
 * For records the run can neither make nor change (a CV): the deployment's own text with a space in
 * it, searched with the space sent as `%20` and as `+`. What q searches is not shown (§4 "q | string
 * | search text"), so either may find nothing, but one text finds one set of records.
 */
async function spacesInOwnText(c: CheckContext, w: Operation): Promise<void> {
  const res = await c.api.send({ method: 'GET', path: w.path, query: { ...requiredQuery(w), limit: 10 } });
  expectStatus(res, '2xx', `GET ${w.path}`);
  const records = ((res.body as { data?: Rec[]; })?.data ?? []) as Rec[];
  const held =
    records.flatMap((r) =>
      Object.entries(r).filter(([k, v]) => k !== 'id' && typeof v === 'string' && / \S/.test(v.trim()) && !k.endsWith('_at')).map(([field, v]) => ({
        r,
        field,
        v: String(v),
      }))
    )[0];
  if (!held) return c.skip(`no ${w.resource} of the first page holds text with a space: nothing of the deployment's own to search for`);
  // the largest page the target serves up to 100 (§4 shows no maximum): learnt by the list walker
  const probe = await sendList(c, w.path, { ...requiredQuery(w), limit: 100 });
  const limit = new URL(probe.exchange.request.url).searchParams.get('limit') ?? '100';
  const filters = Object.entries({ ...requiredQuery(w), limit }).map(([k, v]) => [k, encodeURIComponent(v)] as const);
  const found: { space: string; res: ApiResponse; hit: boolean; }[] = [];
  for (const [space, spell] of [['%20', (q: string) => encodeURIComponent(q)], ['+', (q: string) => encodeURIComponent(q).replace(/%20/g, '+')]] as const) {
    const answer = await c.api.send({ method: 'GET', path: `${w.path}?${rawQuery([...filters, ['q', spell(held.v)]])}` });
    expectStatus(answer, '2xx', `GET ${w.path}?q=<the ${held.field} of a ${w.resource}>, spaces as ${space}`);
    found.push({ space, res: answer, hit: ((answer.body as { data?: Rec[]; })?.data ?? []).some((i) => i.id === held.r.id) });
  }
  const [a, b] = found as [(typeof found)[0], (typeof found)[0]];
  if (a.hit !== b.hit) {
    const [hit, miss] = a.hit ? [a, b] : [b, a];
    fail(`GET ${w.path}?q=<the ${held.field} of a ${w.resource}> finds it with spaces sent as ${hit.space} but not as ${miss.space}: one text, two answers`,
      miss.res);
  }
  c.reading(`request-forms.q-spaces ${w.op}`, a.hit ? 'found by its own text' : 'not found by its own text');
}

/** Text a search is sent: the run's mark with every reserved character of RFC 3986 §2.2, a percent sign, a space and letters beyond ASCII. */
const reservedText = (c: CheckContext) => `${markedText(c)} a&b=c+d#e%25f/g?h;i,j:k@l[m]n$o!p'q(r)s*t ü`;
const everyOctet = (s: string, upper: boolean) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).map((e) => (upper ? e.toUpperCase() : e)).join('');

for (const op of listsOf()) {
  check([
    'LIST-Q',
  ], `request forms: ${op.op} answers search text with reserved characters alike in every equivalent percent-encoding`, async (c) => {
    const w = live(c, op);
    const text = reservedText(c);
    // a record the search may find, where the run can make one holding the text
    const create = createOf(c, w.resource);
    const field = create && textOf(create);
    if (create && field && !c.settings.readOnly && !w.filters.some((f) => f.required)) {
      const sent = await bodyOf(c, create);
      sent.body[field] = text;
      await made(c, w.resource, { sent });
    }
    const base = Object.entries({ ...requiredQuery(w), limit: '100' }).map(([k, v]) => [k, encodeURIComponent(v)] as const);
    const forms = {
      minimal: encodeURIComponent(text),
      'every octet, upper-case hex': everyOctet(text, true),
      'every octet, lower-case hex': everyOctet(text, false),
    };
    const answers = await Promise.all(Object.values(forms).map((q) => c.api.send({ method: 'GET', path: `${w.path}?${rawQuery([...base, ['q', q]])}` })));
    const shown = answers.map((res) => {
      if (res.status >= 500) fail(`GET ${w.path}?q=… (reserved characters) answered ${res.status}`, res);
      return is2xx(res) ? ((res.body as { data?: Rec[]; })?.data ?? []).map((i) => String(i.id)).join(',') : `status ${res.status}`;
    });
    const names = Object.keys(forms);
    for (const [i, s] of shown.entries()) {
      if (s !== shown[0]) {
        fail(
          `GET ${w.path}?q= answered ${names[i]} ${JSON.stringify(s.slice(0, 120))}, but ${names[0]} ${
            JSON.stringify(shown[0]!.slice(0, 120))
          }: one text, two answers`,
          answers[i],
        );
      }
    }
    c.reading(`request-forms.q-reserved ${w.op}`, shown[0] === '' ? 'nothing found' : shown[0]!.startsWith('status') ? shown[0]! : 'found');
  });

  check([
    'LIST-Q',
  ],
    `request forms: ${op.op} searched for a record's own text (percent sequences in it: 50%25, %2B, %41; spaces sent as + and as %20) finds the record its token finds`,
    async (c) => {
      const w = live(c, op);
      const token = `${marker(c)} q${randomBytes(4).toString('hex')}`;
      if (!servedOperations(c.settings).some((o) => o.resource === w.resource && (o.kind === 'create' || o.kind === 'patch'))) {
        return spacesInOwnText(c, w);
      }
      const holder = await percentHolder(c, w, `${token} ${PERCENT_TEXT}`);
      const value = holder.record[holder.field];
      // what q searches is not shown (§4 "q | string | search text"): a record its token does not
      // find proves nothing; one it finds must be found by the whole of the text that holds the
      // token, as the record shows it — the text read once, as sent
      if (typeof value !== 'string' || !value.includes(token) || !value.includes('%')) {
        return c.skip(`${w.resource} show ${holder.field} as ${JSON.stringify(value)}: not the text with percent sequences the run wrote`);
      }
      // the largest page the target serves up to 100 (§4 shows no maximum): learnt by the list walker
      const probe = await sendList(c, w.path, { ...holder.query, limit: 100 });
      const limit = new URL(probe.exchange.request.url).searchParams.get('limit') ?? '100';
      const filters = Object.entries({ ...holder.query, limit }).map(([k, v]) => [k, encodeURIComponent(v)] as const);
      // a space in a query is `%20` (RFC 3986 §2.1) or `+` (the application/x-www-form-urlencoded
      // query every form and URLSearchParams writes, this suite's client included): one text
      const spellings = { '%20': (q: string) => encodeURIComponent(q), '+': (q: string) => encodeURIComponent(q).replace(/%20/g, '+') };
      const search = async (q: string, what: string) => {
        const out = [];
        for (const [space, spell] of Object.entries(spellings)) {
          const res = await c.api.send({ method: 'GET', path: `${w.path}?${rawQuery([...filters, ['q', spell(q)]])}` });
          expectStatus(res, '2xx', `${what}, spaces as ${space}`);
          out.push({ res, space, found: ((res.body as { data?: Rec[]; })?.data ?? []).some((i) => i.id === holder.record.id) });
        }
        const [a, b] = out as [(typeof out)[0], (typeof out)[0]];
        if (a.found !== b.found) {
          const [hit, miss] = a.found ? [a, b] : [b, a];
          fail(`${what} finds the record with spaces sent as ${hit.space} but not as ${miss.space}: one text, two answers`, miss.res);
        }
        return a;
      };
      const byToken = await search(token, `GET ${w.path}?q=<the record's token>`);
      if (!byToken.found) return c.reading(`request-forms.q-percent ${w.op}`, `q does not find a record by its ${holder.field}`);
      const byText = await search(value, `GET ${w.path}?q=<the record's ${holder.field}>`);
      if (!byText.found) {
        fail(`GET ${w.path}?q=<the whole ${holder.field} of a record, percent sequences in it> does not find the record its token alone finds: `
          + 'the search text is read otherwise than sent (percent-decoded once more?)', byText.res);
      }
    }, { mutates: true });

  check([
    'LIST-PARAMS-ALL-LISTS',
  ], `request forms: ${op.op} with a repeated or an empty parameter answers a page the values allow, or refuses; never a server error`, async (c) => {
    const w = live(c, op);
    const required = requiredQuery(w);
    const send1 = (pairs: (readonly [string, string])[]) =>
      c.api.send({ method: 'GET', path: `${w.path}?${rawQuery(pairs.map(([k, v]) => [k, encodeURIComponent(v)]))}` });
    const items = (res: ApiResponse) => (res.body as { data?: Rec[]; })?.data ?? [];
    const outcomes: string[] = [];
    const judge = (res: ApiResponse, what: string, holds: (i: Rec) => boolean) => {
      if (res.status >= 500) fail(`GET ${w.path} with ${what} answered ${res.status}`, res);
      outcomes.push(`${what}: ${res.status}`);
      if (!is2xx(res)) return;
      const stray = items(res).filter((i) => !holds(i));
      if (stray.length) {
        fail(`GET ${w.path} with ${what} answered ${stray.length} record(s) no value names (${stray.slice(0, 3).map((i) => i.id).join(', ')})`, res);
      }
    };
    const others = Object.entries(required).filter(([k]) => !w.filters.find((f) => f.name === k)?.format);
    // each id filter repeated with two ids no record has: a page answered must be empty
    for (const f of w.filters.filter((x) => x.format === 'uuid')) {
      const [x, y] = [randomId(), randomId()];
      const rest = others.filter(([k]) => k !== f.name);
      judge(await send1([...rest, [f.name, x], [f.name, y]]), `${f.name} twice`, (i) => i[f.name] === x || i[f.name] === y);
    }
    const reqPairs = Object.entries(required);
    const page = await send1([...reqPairs, ['limit', '1'], ['limit', '2']]);
    judge(page, 'limit=1&limit=2', () => true);
    if (is2xx(page) && items(page).length > 2) fail(`GET ${w.path}?limit=1&limit=2 answered ${items(page).length} records`, page);
    for (const name of ['limit', 'sort', 'order', 'q', ...w.filters.filter((f) => !f.required).map((f) => f.name)]) {
      judge(await send1([...reqPairs, [name, '']]), `${name}=`, () => true);
    }
    c.reading(`request-forms.repeated-empty ${w.op}`, outcomes.join('; '));
  });
}

for (const op of jsonWrites()) {
  check([
    'ERR-ENVELOPES',
    'EP-INVALID-BODY-NO-EFFECT',
  ], `request forms: ${op.op} answers a malformed JSON body with a client error in the §7 envelope, the record left as it was`, async (c) => {
    const w = live(c, op);
    const target = w.kind === 'patch' ? await recordFor(c, w) : undefined;
    const views = target ? viewsOf(c, await subjectOf(c, w.resource, target)) : [];
    const before = await observe(views);
    // the short envelope is seen on the older project and organization update shapes (§7)
    const shortAllowed = w.kind === 'patch' && (w.resource === 'projects' || w.resource === 'organizations');
    for (const rawBody of MALFORMED) {
      const res = await c.api.send({ ...requestTo(w, target ? String(target.id) : undefined), headers: { 'content-type': 'application/json' }, rawBody });
      const what = `${w.op} with the body ${JSON.stringify(rawBody)}`;
      if (res.status >= 500) fail(`${what} answered ${res.status}`, res);
      expectStatus(res, '4xx', what);
      ensure(isJson(res), `${what} answered Content-Type ${res.headers['content-type']}, not JSON`, res);
      expectErrorEnvelope(res, what, shortAllowed);
    }
    if (target) await expectUnchanged(c, before, `${w.op} with malformed bodies was refused`);
  }, { mutates: true });
}

/** Text of a JSON body at sizes the document does not limit: past a 64 KiB column, and past a 1 MiB body limit. */
const LARGE = [70_000, 2 * 1024 * 1024];
/** Fields of free text no list is likely sorted by: a long value there never ends up in a cursor. */
const LONG_TEXT = ['notes', 'description', 'bio'];

for (const op of jsonWrites().filter((o) => o.kind === 'patch')) {
  check([
    'EP-PATCH-PERSISTS',
    'EP-INVALID-BODY-NO-EFFECT',
  ], `request forms: ${op.op} with a large body stores its text whole, or refuses it with a client error leaving the record as it was`, async (c) => {
    // §8 states the upload size only ("Upload size | POST /attachments, POST /files | 25 MB"): a
    // JSON body may be limited at any size, but what is taken is kept whole, and what is not is a
    // client error, never a server error.
    const w = live(c, op);
    const field = w.fields.find((f) => LONG_TEXT.includes(f.name))?.name ?? textOf(w);
    if (!field) return c.skip(`${w.op} names no free-text field to write`);
    const target = await recordFor(c, w);
    const views = viewsOf(c, await subjectOf(c, w.resource, target));
    const outcomes: string[] = [];
    try {
      for (const size of LARGE) {
        const before = await observe(views);
        const mark = markedText(c);
        const value = `${mark} ${'x'.repeat(Math.max(0, size - mark.length - 1))}`;
        const res = await send(c, w, { id: String(target.id), sent: { body: { [field]: value } } });
        const what = `${w.op} of ${field} with ${value.length} characters`;
        if (res.status >= 500) fail(`${what} answered ${res.status}`, res);
        outcomes.push(`${size}: ${res.status}`);
        if (is2xx(res)) {
          const shown = (res.body as Rec | undefined)?.[field];
          const length = typeof shown === 'string' ? shown.length : typeof shown;
          // one limit of a text column is one cause, whichever resource and field meet it
          ensure(echo(field, value, shown) !== 'differs', `${what} answered ${field} of ${length} characters`, res,
            writeConcern(`long text | kept as ${length} characters`, { resource: w.resource, field }));
          await expectEveryView(c, views, { id: target.id, [field]: shown }, `after ${what}`);
        } else {
          expectStatus(res, '4xx', what);
          expectErrorEnvelope(res, what, w.resource === 'projects' || w.resource === 'organizations');
          await expectUnchanged(c, before, `${what} was refused`);
        }
      }
    } finally {
      // a record the API cannot delete keeps no megabyte of text: the field is written back
      if (typeof target[field] === 'string') await send(c, w, { id: String(target.id), sent: { body: { [field]: target[field] } } });
    }
    c.reading(`request-forms.large-body ${w.op}`, outcomes.join(', '));
  }, { mutates: true });
}
