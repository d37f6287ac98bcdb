import { describe, expect, test } from 'vitest';
import { parseCells } from './check.js';

describe('parseCells', () => {
  test('keeps well-formed cells as they are', () => {
    const cells = [
      { dimension: 'fields', subject: 'updateEmployee', aspect: 'phone:filled', outcome: 'checked' },
      { dimension: 'walks', subject: 'GET /cvs', aspect: 'sort=name order=desc', outcome: 'skipped', reason: 'CONFORMANCE_SORT_FIELDS names no sort of cvs' },
      { dimension: 'views', subject: 'createEmployee', aspect: 'GET /employees/{id}', outcome: 'not-applicable', reason: 'not in the document' },
    ];
    expect(parseCells(cells)).toEqual(cells);
  });

  test('leaves out malformed entries and empty reasons, and is undefined for anything but an array', () => {
    expect(parseCells([
      null,
      'fields',
      { dimension: 'fields', subject: 'x', aspect: 'y', outcome: 'done' },
      { dimension: 'fields', subject: '', aspect: 'y', outcome: 'checked' },
      { dimension: 'fields', subject: 'x', aspect: 'y', outcome: 'checked', reason: '' },
    ])).toEqual([{ dimension: 'fields', subject: 'x', aspect: 'y', outcome: 'checked' }]);
    expect(parseCells({ cells: [] })).toBeUndefined();
    expect(parseCells(undefined)).toBeUndefined();
  });
});
