import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../contract/check.js';
import { stateBehind } from './state-trail.js';

const BASE = 'http://127.0.0.1:4010/api/public/v1';
const ex = (method: string, path: string, status: number, o: { body?: string; answer?: unknown; file?: Exchange['request']['file']; } = {}): Exchange => ({
  request: { method, url: `${BASE}${path}`, headers: {}, ...(o.body ? { body: o.body } : {}), ...(o.file ? { file: o.file } : {}) },
  response: { status, headers: {}, ...(o.answer !== undefined ? { body: JSON.stringify(o.answer) } : {}) },
  curl: `curl -X ${method} '${BASE}${path}'`,
  durationMs: 1,
});

describe('the requests that built what a failing request read', () => {
  const employee = ex('POST', '/employees', 201, { body: '{"first_name":"conformance cfm-1 Zoë"}', answer: { id: 'emp-000001' } });
  const other = ex('POST', '/employees', 201, { body: '{"first_name":"conformance cfm-1 Ann"}', answer: { id: 'emp-000002' } });
  const upload = ex('POST', '/attachments', 201, {
    body: '<multipart/form-data: {"entity_type":"employee","entity_id":"emp-000001"}, file 東京.bin (65 bytes)>',
    answer: { id: 'att-000001' },
    file: { name: '東京.bin', size: 65, contentType: 'application/octet-stream' },
  });
  const refused = ex('PATCH', '/employees/emp-000001', 400, { body: '{"first_name":""}' });
  const renamed = ex('PATCH', '/employees/emp-000001', 200, { body: '{"last_name":"Ünal","is_active":false}' });
  const download = ex('GET', '/attachments/att-000001/download', 500);

  it('follows the ids the failing request names, and the ids those name, in the order sent', () => {
    const steps = stateBehind([employee, other, upload, refused, renamed], download);
    expect(steps.map((s) => s.summary)).toEqual([
      'POST /employees: create → 201',
      'POST /attachments: upload "東京.bin" (65 bytes, application/octet-stream) → 201',
      'PATCH /employees/emp-000001: set last_name="Ünal", is_active=false → 200',
    ]);
    expect(steps.map((s) => s.created)).toEqual(['emp-000001', 'att-000001', undefined]);
  });

  it('leaves out what was sent after the failing request', () => {
    const order = new WeakMap([employee, upload, download, renamed].map((e, i) => [e, i + 1] as const));
    expect(stateBehind([employee, upload, renamed], download, order).map((s) => s.created)).toEqual(['emp-000001', 'att-000001']);
  });
});
