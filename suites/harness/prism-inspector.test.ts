// Behind a Prism proxy, each response violation Prism reports becomes a failure of the running
// check, attributed to the catalog requirement of what the response carried. (Prism's own
// reporting of violations: integrations/prism.test.ts.)
import { describe, expect, test } from 'vitest';
import type { PrismViolation } from '../../integrations/prism-violations.js';
import { isKnownRequirement } from '../../specs/requirements.js';
import { inspectExchange, PRISM_REQUIREMENT, requirementFor } from './prism-inspector.js';

const v = (...location: string[]): PrismViolation => ({ location, severity: 'Error', code: 'type', message: 'm' });

describe('the Prism inspector', () => {
  test('names only requirements of the catalog', () => {
    expect(Object.values(PRISM_REQUIREMENT).filter((id) => !isKnownRequirement(id))).toEqual([]);
  });

  test('violations are attributed to the requirement of what the response carried', () => {
    expect(requirementFor('GET', 'http://h/api/public/v1/projects', 200, v('response', 'body', 'data', '0', 'title'))).toBe('RES-PROJECT-SHAPE');
    expect(requirementFor('GET', 'http://h/api/public/v1/projects', 200, v('response', 'body', 'page', 'hasMore'))).toBe('RES-PAGE-ENVELOPE');
    expect(requirementFor('GET', 'http://h/api/public/v1/cvs/x', 200, v('response', 'body', 'data'))).toBe('RES-CV-SHAPE');
    expect(requirementFor('DELETE', 'http://h/api/public/v1/assignments/x', 200, v('response', 'body'))).toBe('RES-DELETE-RESULT');
    expect(requirementFor('GET', 'http://h/api/public/v1/projects/x', 404, v('response', 'body', 'error'))).toBe('ERR-ENVELOPES');
  });

  test('an exchange with response errors in sl-violations is one message; request violations and warnings are not', () => {
    const header = JSON.stringify([
      { location: ['request', 'query', 'limit'], severity: 'Error', code: 'type', message: 'Request query parameter limit must be integer' },
      { location: ['response', 'body', 'title'], severity: 'Error', code: 'type', message: 'Response body property title must be string' },
      { location: ['response'], severity: 'Warning', code: 'status', message: 'Unable to match the returned status code' },
    ]);
    const exchange = (headers: Record<string, string>) => ({
      request: { method: 'GET', url: 'http://127.0.0.1:9/api/public/v1/projects/p-1', headers: {} },
      response: { status: 200, headers },
      curl: '',
      durationMs: 0,
    });
    expect(inspectExchange(exchange({ 'sl-violations': header }))).toBe(
      'Prism violation of RES-PROJECT-SHAPE: Error at response.body.title: Response body property title must be string (type)',
    );
    expect(inspectExchange(exchange({}))).toBeUndefined();
  });
});
