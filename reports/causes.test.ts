import { describe, expect, it } from 'vitest';
import { causeMessage, headline, type Outcome, rootCauses } from './causes.js';

const outcome = (name: string, message: string, failed: string[], blocked: string[], status: 'failed' | 'blocked' = 'failed'): Outcome => ({
  check: { name, status, concern: 'x', durationMs: 0 },
  failure: { check: name, message, request: null, response: null, curl: null, seed: null, path: null },
  failed,
  blocked,
});

describe('root causes', () => {
  it('reads one line without the exchange the evidence shows anyway', () => {
    expect(headline('expected 404, got 200 (GET http://h/api/x → 200)\nmore')).toBe('expected 404, got 200');
  });

  it('folds item indices and ids, and lists a problem repeated per item once', () => {
    expect(causeMessage('page of project does not match: /data/0/title must be string; /data/1/title must be string (GET http://h/p?limit=5 → 200)'))
      .toBe('page of project does not match: /data/*/title must be string');
    expect(causeMessage('asked for 0b6f6c1e-8a3d-4c4e-9d55-3f1f0e6c2a10, got another')).toBe('asked for <id>, got another');
    expect(causeMessage('expected 400, got 200')).not.toBe(causeMessage('expected 404, got 200'));
  });

  it('groups by message, most requirements first, and stamps checks and failures with the cause id', () => {
    const outcomes = [
      outcome('a', 'expected 400, got 200', ['A'], []),
      outcome('b', 'bad title: /data/0/title must be string', ['B'], []),
      outcome('c', 'bad title: /data/3/title must be string', [], ['C', 'D'], 'blocked'),
    ];
    const causes = rootCauses(outcomes);
    expect(causes.map((c) => [c.id, c.message, c.failed, c.blocked])).toEqual([
      ['C1', 'bad title: /data/*/title must be string', ['B'], ['C', 'D']],
      ['C2', 'expected 400, got 200', ['A'], []],
    ]);
    expect(outcomes.map((o) => [o.check.cause, o.failure.cause])).toEqual([['C2', 'C2'], ['C1', 'C1'], ['C1', 'C1']]);
  });

  it('lists ids in document order and shows the evidence of the check about the earliest one', () => {
    const rank = (id: string) => ['RES-SHAPE', 'LIST-X', 'AUTH-Y'].indexOf(id);
    const causes = rootCauses([
      outcome('auth', 'same', ['AUTH-Y'], []),
      outcome('shape', 'same', ['RES-SHAPE'], []),
      outcome('list', 'same', [], ['LIST-X'], 'blocked'),
    ], { rank });
    expect(causes[0]).toMatchObject({ failed: ['RES-SHAPE', 'AUTH-Y'], blocked: ['LIST-X'], failure: { check: 'shape' } });
  });

  it('joins a bare problem to the cause that says where it was met', () => {
    const causes = rootCauses([
      outcome('lens', '/data/0/x must be boolean', ['A'], []),
      outcome('walk', 'page of org does not match: /data/1/x must be boolean', ['B'], []),
    ]);
    expect(causes.map((c) => [c.message, [...c.failed].sort()])).toEqual([['page of org does not match: /data/*/x must be boolean', ['A', 'B']]]);
  });

  it('lists as blocked only requirements that did not end up failed by another cause', () => {
    const causes = rootCauses([outcome('a', 'x', ['A'], []), outcome('b', 'y', [], ['A', 'B'], 'blocked')], { endedBlocked: (id) => id !== 'A' });
    expect(causes.find((c) => c.message === 'y')?.blocked).toEqual(['B']);
  });
});
