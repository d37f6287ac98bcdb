// The comparison behind ISO-OTHER-TEAM-AS-MISSING: what varies per request (learned from two
// missing answers, or known) is ignored; a header or field only one side has, a changed status or
// a changed stable value is a difference.
import { describe, expect, test } from 'vitest';
import { differences, type Probe } from './missing.js';
import type { ApiResponse } from './transport/client.js';

const THEIRS = '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60';
const MISSING = ['6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f', '0a1b2c3d-4e5f-4a6b-9c7d-8e9fa0b1c2d3'];

function answer(id: string, status: number, body: unknown, headers: Record<string, string> = {}): Probe {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { res: { status, headers: { 'content-type': 'application/json', ...headers }, text, body: undefined } as unknown as ApiResponse, ids: [id] };
}

const notFound = (extra: Record<string, unknown> = {}) => ({ error: { code: 'not_found', message: 'Not found' }, ...extra });

describe('differences from the answers for missing ids', () => {
  test('per-request headers and numeric body fields the missing answers vary in are ignored', () => {
    const diff = differences(answer(THEIRS, 404, notFound({ took_us: 7 }), { 'x-upstream-latency-us': '9', 'content-length': '70' }), [
      answer(MISSING[0]!, 404, notFound({ took_us: 12345 }), { 'x-upstream-latency-us': '123', 'content-length': '74' }),
      answer(MISSING[1]!, 404, notFound({ took_us: 88 }), { 'x-upstream-latency-us': '4567', 'content-length': '71' }),
    ]);
    expect(diff).toEqual([]);
  });

  test('headers of known gateways are ignored even when two missing answers agree by chance', () => {
    const gateway = (v: string) => ({ 'x-envoy-upstream-service-time': v, 'x-kong-upstream-latency': v, 'x-amz-apigw-id': v, 'x-runtime': v });
    const diff = differences(answer(THEIRS, 404, notFound(), gateway('2')), [
      answer(MISSING[0]!, 404, notFound(), gateway('1')),
      answer(MISSING[1]!, 404, notFound(), gateway('1')),
    ]);
    expect(diff).toEqual([]);
  });

  test('the ids themselves are masked, in the body and in headers', () => {
    const body = (id: string) => notFound({ detail: { id: `no record ${id}` } });
    const diff = differences(answer(THEIRS, 404, body(THEIRS), { link: `</x/${THEIRS}>` }), [
      answer(MISSING[0]!, 404, body(MISSING[0]!), { link: `</x/${MISSING[0]}>` }),
      answer(MISSING[1]!, 404, body(MISSING[1]!), { link: `</x/${MISSING[1]}>` }),
    ]);
    expect(diff).toEqual([]);
  });

  test('a status, a stable value, or a header or field only one side shows is a difference', () => {
    const missing = [answer(MISSING[0]!, 404, notFound({ took_us: 1 }), { 'x-a': '1' }), answer(MISSING[1]!, 404, notFound({ took_us: 22 }), { 'x-a': '2' })];
    expect(differences(answer(THEIRS, 403, notFound({ took_us: 3 }), { 'x-a': '3' }), missing)).toEqual(['status 403 instead of 404']);
    expect(differences(answer(THEIRS, 404, { error: { code: 'not_found', message: 'Belongs to another team' }, took_us: 3 }, { 'x-a': '3' }), missing))
      .toEqual(['body error.message: "Belongs to another team" instead of "Not found"']);
    expect(differences(answer(THEIRS, 404, notFound({ took_us: 3 }), { 'x-a': '3', 'x-owner': 'b' }), missing))
      .toEqual(['header x-owner: "b" instead of (absent)']);
    // varying in value for missing ids, but never absent: absent only for the other team's id
    expect(differences(answer(THEIRS, 404, notFound(), {}), missing)).toEqual(['header x-a: (absent) instead of "1"', 'body took_us: (absent) instead of 1']);
  });

  test('a value two answers for the other team differ in is noise too', () => {
    const missing = [answer(MISSING[0]!, 404, notFound(), { 'x-t': '1' }), answer(MISSING[1]!, 404, notFound(), { 'x-t': '1' })];
    const theirs = answer(THEIRS, 404, notFound(), { 'x-t': '2' });
    expect(differences(theirs, missing)).toEqual(['header x-t: "2" instead of "1"']);
    expect(differences(theirs, missing, [answer(THEIRS, 404, notFound(), { 'x-t': '1' })])).toEqual([]);
    // the same answer again for the other team's id: still a difference
    expect(differences(theirs, missing, [answer(THEIRS, 404, notFound(), { 'x-t': '2' })])).toEqual(['header x-t: "2" instead of "1"']);
  });

  test('a body that is not JSON is compared with its numbers masked when it varies', () => {
    const page = (n: number, who = 'Not found') => `<html>${who} (request ${n})</html>`;
    const missing = [answer(MISSING[0]!, 404, page(17)), answer(MISSING[1]!, 404, page(923))];
    expect(differences(answer(THEIRS, 404, page(5)), missing)).toEqual([]);
    expect(differences(answer(THEIRS, 404, page(5, 'Forbidden')), missing)).toEqual([
      'body (text, numbers masked): "<html>Forbidden (request #)</html>" instead of "<html>Not found (request #)</html>"',
    ]);
  });
});
