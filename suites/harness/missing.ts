// "A record that belongs to another team is reported as missing, the same as an id that does not
// exist" (§1): the answer for another team's id and the answer for a random id must not differ in
// anything but the id itself — status, body, headers — apart from what differs between any two
// responses (time, request ids, rate-limit counters).
import { fail } from './assert.js';
import type { CheckContext } from './check.js';
import type { ApiRequest, ApiResponse } from './client.js';
import { randomId } from './team-b.js';

const VOLATILE_HEADERS =
  /^(date|age|etag|last-modified|expires|set-cookie|server-timing|x-response-time|retry-after|traceparent|tracestate|cf-ray|via|(x-)?(amzn-)?(request|trace|correlation|span)-?id|(x-)?ratelimit.*)$/i;
const VOLATILE_FIELDS = /"(request_?id|requestId|trace_?id|traceId|correlation_?id|timestamp|time)"\s*:\s*"[^"]*"/g;

const bodyOf = (res: ApiResponse, id: string) => res.text.split(id).join('<id>').split(id.toUpperCase()).join('<id>').replace(VOLATILE_FIELDS, '');

function headersOf(res: ApiResponse): Map<string, string> {
  return new Map(Object.entries(res.headers).filter(([k]) => !VOLATILE_HEADERS.test(k)).map(([k, v]) => [k.toLowerCase(), v]));
}

/** How the answer for `theirs` differs from the answer for `missing`, each with the id masked. */
export function differences(theirs: ApiResponse, theirsId: string, missing: ApiResponse, missingId: string): string[] {
  const out: string[] = [];
  if (theirs.status !== missing.status) out.push(`status ${theirs.status} instead of ${missing.status}`);
  const [a, b] = [bodyOf(theirs, theirsId), bodyOf(missing, missingId)];
  if (a !== b) out.push(`body ${JSON.stringify(a.slice(0, 200))} instead of ${JSON.stringify(b.slice(0, 200))}`);
  const [ha, hb] = [headersOf(theirs), headersOf(missing)];
  for (const name of new Set([...ha.keys(), ...hb.keys()])) {
    const [x, y] = [ha.get(name)?.split(theirsId).join('<id>'), hb.get(name)?.split(missingId).join('<id>')];
    if (x !== y) out.push(`header ${name}: ${x === undefined ? '(absent)' : JSON.stringify(x)} instead of ${y === undefined ? '(absent)' : JSON.stringify(y)}`);
  }
  return out;
}

/**
 * Sends `request(theirsId)`, then the same request for a random id, and fails unless the two
 * answers are the same but for the id. Returns the answer for another team's id.
 */
export async function expectLikeMissing(c: CheckContext, theirsId: string, request: (id: string) => ApiRequest, what: string): Promise<ApiResponse> {
  const theirs = await c.api.send(request(theirsId));
  const missingId = randomId();
  const missing = await c.api.send(request(missingId));
  const diff = differences(theirs, theirsId, missing, missingId);
  if (diff.length) fail(`${what} for another team's id differs from the answer for a missing id: ${diff.join('; ')}`, theirs);
  return theirs;
}
