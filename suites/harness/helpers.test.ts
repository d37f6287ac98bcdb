// The validator tolerates what §9 says clients must tolerate; upload bodies are reproducible.
import { describe, expect, test } from 'vitest';
import { selects } from '../../contract/selection.js';
import { validate } from '../../specs/index.js';
import { httpDate, parseDeprecation } from './deprecation.js';
import { CheckFailure, fail, step } from './judge/assert.js';
import { shapeOfRecord } from './judge/shape.js';
import { inferSortField, isOrdered } from './order.js';
import { operationFor, operationsOf } from './served-openapi.js';
import { fileBytes, multipartBody, sha256Of } from './transport/upload.js';

const id = '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60';

describe('harness building blocks', () => {
  test('unknown response fields never fail validation (§9)', () => {
    expect(validate('employee', { id, first_name: 'A', x_new_field: { deep: [1, 2] } }).valid).toBe(true);
    expect(validate('page', { data: [], page: { hasMore: false, x_total: 3 }, x_meta: true }).valid).toBe(true);
    expect(validate('error', { error: { code: 'x_new_code', message: 'm', x_hint: 'h' }, request_id: 'r' }).valid).toBe(true);
  });

  test('shape detection: only by fields one shape has and the other lacks, present (an absence proves nothing)', () => {
    expect(shapeOfRecord('project', { id, client_org_id: id })).toBe('legacy');
    expect(shapeOfRecord('project', { id, stage_changed_at: 'x' })).toBe('full');
    expect(shapeOfRecord('project', { id, title: 't' })).toBeUndefined();
    expect(shapeOfRecord('organization', { id, last_activity_at: null })).toBe('full');
    expect(shapeOfRecord('organization', { id, addresses: [{ id, electronic_address: null }] })).toBe('full');
    expect(shapeOfRecord('organization', { id })).toBeUndefined();
  });

  test('CONFORMANCE_ONLY globs', () => {
    expect(selects([], ['A-B'])).toBe(true);
    expect(selects(['LIST-*'], ['LIST-ORDER'])).toBe(true);
    expect(selects(['LIST-*'], ['AUTH-X', 'ISO-Y'])).toBe(false);
    expect(selects(['AUTH-X'], ['ISO-Y', 'AUTH-X'])).toBe(true);
  });

  test('ordering under any one consistent collation, ignoring nulls', () => {
    expect(isOrdered([{ t: 'a' }, { t: 'B' }, { t: 'c' }], 't', 'asc')).toBe(true);
    expect(isOrdered([{ t: 3 }, { t: null }, { t: 2 }], 't', 'desc')).toBe(true);
    expect(isOrdered([{ t: 1 }, { t: 3 }, { t: 2 }], 't', 'asc')).toBe(false);
  });

  test('PostgreSQL en_US.utf8 ordering (spaces and punctuation ignored on the first pass) is accepted', () => {
    const names = (...n: string[]) => n.map((name) => ({ name }));
    expect(isOrdered(names('Abc', 'A-Z Corp', 'Database', 'Data Platform', 'zeta'), 'name', 'asc')).toBe(true);
    expect(isOrdered(names('zeta', 'Data Platform', 'Database', 'A-Z Corp', 'Abc'), 'name', 'desc')).toBe(true);
    expect(isOrdered(names('Data Platform', 'Abc', 'Database'), 'name', 'asc')).toBe(false);
    expect(isOrdered(names('Database', 'Data Platform', 'Abc'), 'name', 'asc')).toBe(false);
  });

  test('timestamps and dates are ordered as instants, whatever their format', () => {
    const at = (...t: string[]) => t.map((created_at) => ({ created_at, title: created_at }));
    const go = at('2026-01-02T03:04:05Z', '2026-01-02T03:04:05.12Z', '2026-01-02T03:04:05.125Z', '2026-01-02T03:04:05.13Z', '2026-01-02T03:04:05.3Z');
    expect(isOrdered(go, 'created_at', 'asc')).toBe(true);
    expect(isOrdered([...go].reverse(), 'created_at', 'desc')).toBe(true);
    expect(isOrdered(go, 'title', 'asc')).toBe(false); // as text they are not: only _at and _date fields are instants
    expect(isOrdered(at('2026-01-02T03:04:06.1Z', '2026-01-02T03:04:05.9Z'), 'created_at', 'asc')).toBe(false);
    expect(isOrdered(at('2026-01-02T04:30:00+02:00', '2026-01-02T03:00:00Z'), 'created_at', 'asc')).toBe(true);
    expect(isOrdered(at('2026-01-02T03:04:05.1234568Z', '2026-01-02T03:04:05.1234567Z'), 'created_at', 'asc')).toBe(false); // below the millisecond
    expect(isOrdered([{ start_date: '2026-01-09' }, { start_date: '2026-01-10' }], 'start_date', 'asc')).toBe(true);
  });

  test('upload bodies are deterministic per seed and streamed in blocks', async () => {
    const a = { filename: 'a.bin', contentType: 'application/octet-stream', size: 200_000, seed: 1 };
    expect(await sha256Of(a)).toBe(await sha256Of({ ...a }));
    expect(await sha256Of(a)).not.toBe(await sha256Of({ ...a, seed: 2 }));
    let total = 0;
    for await (const chunk of fileBytes(a)) {
      expect(chunk.length).toBeLessThanOrEqual(65_536);
      total += chunk.length;
    }
    expect(total).toBe(200_000);
    const mp = multipartBody({ category: 'c' }, a);
    let length = 0;
    for await (const chunk of mp.open()) length += chunk.length;
    expect(length).toBe(mp.length);
  });

  test('Deprecation and Sunset syntax', () => {
    expect(parseDeprecation('@1767225600')).toEqual({ ok: true, date: 1_767_225_600_000, form: 'structured-date' });
    expect(parseDeprecation('Thu, 01 Jan 2026 00:00:00 GMT').ok).toBe(true);
    expect(parseDeprecation('2026-01-01').ok).toBe(false);
    expect(httpDate('Fri, 01 Jan 2027 00:00:00 GMT')).toBe(Date.UTC(2027, 0, 1));
    expect(httpDate('2027-01-01')).toBeUndefined();
  });

  test('operations of a served description, matched by path template', () => {
    const ops = operationsOf({
      paths: { '/api/public/v1/projects/{id}': { get: { operationId: 'getProject', deprecated: true } }, '/cvs': { get: { operationId: 'listCvs' } } },
    });
    expect(operationFor(ops, 'GET', `/api/public/v1/projects/${id}`)?.operationId).toBe('getProject');
    expect(operationFor(ops, 'GET', '/api/public/v1/cvs')?.deprecated).toBe(false);
    expect(operationFor(ops, 'DELETE', '/api/public/v1/cvs')).toBeUndefined();
  });
});

describe('inferSortField: the default sort read from a sample', () => {
  const at = (s: number) => `2026-01-01T00:00:0${s}Z`;
  test('a field ordered in the sample with distinct values is the sort', () => {
    expect(inferSortField([{ created_at: at(1), id: 'b' }, { created_at: at(2), id: 'a' }])).toBe('created_at');
    // newest first, its ids ascending by chance: still created_at
    expect(inferSortField([{ created_at: at(2), id: 'a' }, { created_at: at(1), id: 'b' }])).toBe('created_at');
  });

  test('records created within one tick leave the sort unknown: the id ordering them may be the tie-break', () => {
    const tied = [{ created_at: at(1), updated_at: at(1), id: 'a' }, { created_at: at(1), updated_at: at(1), id: 'b' }];
    expect(inferSortField(tied)).toBeUndefined();
  });

  test('a later field is the sort when the earlier ones are not ordered at all', () => {
    const records = [{ created_at: at(2), id: 'a' }, { created_at: at(1), id: 'b' }, { created_at: at(3), id: 'c' }];
    expect(inferSortField(records)).toBe('id');
  });
});

describe('step: a failure fails the requirement of the step it happened in', () => {
  test('an untagged failure takes the step ids; a tagged one and a finding keep theirs', async () => {
    const caught = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as CheckFailure);
    expect((await caught(step('IDEM-REPLAY', async () => fail('no replay'))))?.requirements).toEqual(['IDEM-REPLAY']);
    const inner = step(['EP-CREATE-PERSISTS', 'EP-FILES-GET'], async () => fail('not shown'));
    expect((await caught(step('IDEM-REPLAY', () => inner)))?.requirements).toEqual(['EP-CREATE-PERSISTS', 'EP-FILES-GET']);
    expect((await caught(step('IDEM-REPLAY', async () => fail('x', undefined, { requirement: 'EP-DELETE-GONE' }))))?.requirements).toEqual(['EP-DELETE-GONE']);
    expect((await caught(step('IDEM-REPLAY', async () => fail('x', undefined, { finding: 'k' }))))?.requirements).toBeUndefined();
    expect(await step('IDEM-REPLAY', async () => 7)).toBe(7);
  });
});
