import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { isPathId, isUuid, PATH_ID_PATTERN, PATH_ID_PATTERN_SOURCE, UUID_PATTERN } from './ids.js';

const vectors = JSON.parse(readFileSync(new URL('../fixtures/ids.json', import.meta.url), 'utf8')) as {
  valid: string[];
  invalid: string[];
};

describe('§4 path id pattern', () => {
  test.each(vectors.valid)('accepts %j', (id) => {
    expect(isPathId(id)).toBe(true);
  });

  test.each(vectors.invalid)('rejects %j', (id) => {
    expect(isPathId(id)).toBe(false);
  });

  test('covers every version 1..8 with every variant 8/9/a/b', () => {
    for (const version of '12345678') {
      for (const variant of '89ab') {
        expect(vectors.valid.some((v) => v[14] === version && v[19] === variant)).toBe(true);
      }
    }
  });

  test('needs no regex flags, so the same source serves as a JSON Schema pattern', () => {
    expect(PATH_ID_PATTERN.flags).toBe('');
    expect(PATH_ID_PATTERN.source).toBe(new RegExp(PATH_ID_PATTERN_SOURCE).source);
  });
});

describe('body uuid format', () => {
  test('accepts every valid path id', () => {
    for (const id of vectors.valid) expect(isUuid(id)).toBe(true);
  });

  test('accepts any version and variant, but only the canonical hyphenated form', () => {
    expect(isUuid('1b4e28ba-2fa1-01d2-c3f2-0a1b2c3d4e5f')).toBe(true);
    expect(isUuid('urn:uuid:1b4e28ba-2fa1-41d2-83f2-0a1b2c3d4e5f')).toBe(false);
    expect(isUuid('{1b4e28ba-2fa1-41d2-83f2-0a1b2c3d4e5f}')).toBe(false);
    expect(isUuid('1b4e28ba2fa141d283f20a1b2c3d4e5f')).toBe(false);
    expect(UUID_PATTERN.flags).toBe('');
  });
});
