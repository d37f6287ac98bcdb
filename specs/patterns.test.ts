import { describe, expect, test } from 'vitest';
import { escapeRegExp, globRegExp } from './patterns.js';

describe('regular expressions from text', () => {
  test('a literal part matches itself only', () => {
    const special = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    expect(new RegExp(`^${escapeRegExp(special)}$`).test(special)).toBe(true);
    expect(new RegExp(`^${escapeRegExp('a.b')}$`).test('axb')).toBe(false);
  });

  test('a glob of requirement ids: * any run, ? one character, any case, whole id', () => {
    expect(globRegExp('LIST-*').test('LIST-CURSOR-UNDECODABLE')).toBe(true);
    expect(globRegExp('list-*').test('LIST-LIMIT')).toBe(true);
    expect(globRegExp('AUTH-?EARER-REQUIRED').test('AUTH-BEARER-REQUIRED')).toBe(true);
    expect(globRegExp('LIST').test('LIST-LIMIT')).toBe(false);
    expect(globRegExp('*-LIMIT').test('LIST-LIMIT-MAX')).toBe(false);
  });
});
