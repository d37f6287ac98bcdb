// "A record that belongs to another team is reported as missing, the same as an id that does not
// exist" (§1): the answer for another team's id and the answer for a missing id must not differ in
// anything but the id itself — status, body, headers.
//
// What differs between any two answers (time, request ids, a gateway's latency header, a timing
// field in the body) is not such a difference, and no fixed list can know every gateway: the server
// itself shows what varies per request when it answers two missing ids differently. That is learned
// from each comparison and ignored — in value only: a header or body field present (or absent) only
// for the other team's id is still a difference, and so is any change of status.
import type { CheckContext } from './check.js';
import { type Concerning, fail } from './judge/assert.js';
import { randomId } from './team-b.js';
import type { ApiRequest, ApiResponse } from './transport/client.js';

/**
 * Headers that differ between any two responses. content-length and transfer-encoding only frame
 * the body, which is compared itself (a masked request id of another length changes the length).
 */
const VOLATILE_HEADERS = new RegExp(
  '^(date|age|etag|last-modified|expires|set-cookie|server-timing|x-response-time|retry-after|traceparent|tracestate|cf-ray|via'
    + '|content-length|transfer-encoding|connection|keep-alive'
    + '|(x-)?(amzn-)?(request|trace|correlation|span)-?id|(x-)?ratelimit.*'
    + '|x-amz-apigw-id|apigw-requestid|x-amz-cf-(id|pop)|x-envoy-upstream-service-time|x-kong-.*-latency|x-runtime'
    + '|x-cloud-trace-context|fly-request-id|x-vercel-id|x-served-by|x-timer|x-ms-request-id|x-azure-ref|x-b3-.*)$',
  'i',
);
/** Body fields that differ between any two responses, by name at any depth. */
const VOLATILE_FIELD = /^(request_?id|requestId|trace_?id|traceId|correlation_?id|timestamp|time)$/;
const VOLATILE_TEXT_FIELDS = /"(request_?id|requestId|trace_?id|traceId|correlation_?id|timestamp|time)"\s*:\s*"[^"]*"/g;

/** An answer and the ids its request named, masked before comparing. */
export interface Probe {
  res: ApiResponse;
  ids: readonly string[];
}

const mask = (text: string, ids: readonly string[]) => ids.reduce((t, id) => t.split(id).join('<id>').split(id.toUpperCase()).join('<id>'), text);

function leaves(value: unknown, path: string, into: Map<string, string>): void {
  if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) if (Array.isArray(value) || !VOLATILE_FIELD.test(k)) leaves(v, path ? `${path}.${k}` : k, into);
  } else {
    into.set(`body ${path || '(root)'}`, JSON.stringify(value));
  }
}

/**
 * What an answer shows, item by item, each value as JSON text: each header but the volatile ones,
 * and each leaf of a JSON body (a body that is not JSON: its text, and its text with runs of digits
 * and hex masked, so a varying number in it does not hide the rest).
 */
export function itemsOf(a: Probe): Map<string, string> {
  const items = new Map<string, string>();
  for (const [k, v] of Object.entries(a.res.headers)) if (!VOLATILE_HEADERS.test(k)) items.set(`header ${k.toLowerCase()}`, JSON.stringify(mask(v, a.ids)));
  const text = mask(a.res.text, a.ids);
  let json: unknown;
  try {
    json = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (json !== undefined) leaves(json, '', items);
  else if (text !== '') {
    const plain = text.replace(VOLATILE_TEXT_FIELDS, '');
    items.set('body (text)', JSON.stringify(plain));
    items.set('body (text, numbers masked)', JSON.stringify(plain.replace(/[0-9a-f]*[0-9][0-9a-f]*/gi, '#')));
  }
  return items;
}

/** Items that vary between answers to equivalent requests: in value, or in whether they are there at all. */
export interface Noise {
  value: Set<string>;
  presence: Set<string>;
}

export function noiseOf(samples: readonly Map<string, string>[]): Noise {
  const noise: Noise = { value: new Set(), presence: new Set() };
  for (const key of new Set(samples.flatMap((s) => [...s.keys()]))) {
    const values = samples.map((s) => s.get(key));
    if (values.some((v) => v === undefined)) {
      if (values.some((v) => v !== undefined)) noise.presence.add(key);
    } else if (new Set(values).size > 1) noise.value.add(key);
  }
  return noise;
}

/** An item as JSON text (see itemsOf), cut for the message. */
const shown = (v: string | undefined) => (v === undefined ? '(absent)' : v.length > 200 ? `${v.slice(0, 200)}…` : v);

/**
 * How the answer for another team's ids differs from the answers for missing ids, all masked,
 * apart from what the missing answers (and repeats of the other team's) show varies per request.
 */
export function differences(theirs: Probe, missing: readonly Probe[], repeats: readonly Probe[] = []): string[] {
  const out: string[] = [];
  const reference = missing[0]!.res;
  if (theirs.res.status !== reference.status) out.push(`status ${theirs.res.status} instead of ${reference.status}`);
  const mine = itemsOf(theirs);
  const others = missing.map(itemsOf);
  const noise = noiseOf(others);
  // A value that changes between two answers for the other team's ids is per-request too (never
  // one that differs between the two sides); whether an item is there at all is judged against
  // the missing answers alone.
  if (repeats.length) { for (const key of noiseOf([mine, ...repeats.map(itemsOf)]).value) noise.value.add(key); }
  for (const key of new Set([...mine.keys(), ...others[0]!.keys()])) {
    if (noise.presence.has(key)) continue;
    const [x, y] = [mine.get(key), others[0]!.get(key)];
    // present for every answer (noise sees them all): only the value may vary
    if (x !== undefined && y !== undefined && noise.value.has(key)) continue;
    if (x !== y) out.push(`${key}: ${shown(x)} instead of ${shown(y)}`);
  }
  return out;
}

/** Noise the comparison learned, for the reading: names only. */
function learned(theirs: Probe, missing: readonly Probe[]): string[] {
  const noise = noiseOf(missing.map(itemsOf));
  return [...noise.value, ...noise.presence].filter((k) => itemsOf(theirs).has(k)).sort();
}

/** Additional missing answers sent before a difference counts: two samples may agree on a varying value by chance. */
const CONFIRMING_SAMPLES = 2;

/**
 * Sends `send(theirsIds)`, then the same request for random ids twice, and returns how the first
 * answer differs (`differences`). A difference found is confirmed against more random ids and one
 * more answer for the other team's ids before it counts.
 */
export async function compareWithMissing(
  c: CheckContext,
  theirsIds: readonly string[],
  send: (ids: readonly string[]) => Promise<ApiResponse>,
): Promise<{ theirs: ApiResponse; differences: string[]; }> {
  const answer = async (ids: readonly string[]): Promise<Probe> => ({ res: await send(ids), ids });
  const missingAnswer = () => answer(theirsIds.map(() => randomId()));
  const theirs = await answer(theirsIds);
  const missing = [await missingAnswer(), await missingAnswer()];
  let diff = differences(theirs, missing);
  const repeats: Probe[] = [];
  if (diff.length && theirs.res.status === missing[0]!.res.status) {
    for (let i = 0; i < CONFIRMING_SAMPLES; i++) missing.push(await missingAnswer());
    repeats.push(await answer(theirsIds));
    diff = differences(theirs, missing, repeats);
  }
  const noisy = learned(theirs, missing);
  if (noisy.length) c.reading('isolation.per-request-noise', noisy.join(', '));
  return { theirs: theirs.res, differences: diff };
}

/**
 * Fails unless `send` answers the other team's ids exactly like random missing ids (see
 * compareWithMissing). Returns the answer for the other team's ids.
 */
export async function expectAnswerLikeMissing(
  c: CheckContext,
  theirsIds: readonly string[],
  send: (ids: readonly string[]) => Promise<ApiResponse>,
  what: string,
  concerning?: Concerning,
): Promise<ApiResponse> {
  const { theirs, differences: diff } = await compareWithMissing(c, theirsIds, send);
  if (diff.length) fail(`${what} for another team's id differs from the answer for a missing id: ${diff.join('; ')}`, theirs, concerning);
  return theirs;
}

/** expectAnswerLikeMissing for one request naming one id. */
export function expectLikeMissing(c: CheckContext, theirsId: string, request: (id: string) => ApiRequest, what: string): Promise<ApiResponse> {
  return expectAnswerLikeMissing(c, [theirsId], (ids) => c.api.send(request(ids[0]!)), what);
}
