// Reading the container target's settings. The image itself, started and run against by the
// suites: suites/self/container.test.ts.
import { describe, expect, test } from 'vitest';
import { parseImageEnv, parseSettingsLog } from './container.js';

describe('container settings parsing', () => {
  test('CONFORMANCE_IMAGE_ENV is K=V pairs separated by semicolons', () => {
    expect(parseImageEnv('A=1;B=x=y; C=3;;bad')).toEqual({ A: '1', B: 'x=y', C: '3' });
    expect(parseImageEnv(undefined)).toEqual({});
  });

  test('settings lines are read from the container log', () => {
    const log = 'mock listening\nCONFORMANCE_PATH_OPENAPI=/openapi.json\nexport CONFORMANCE_SORT_FIELDS="projects=created_at"\n';
    expect(parseSettingsLog(log)).toEqual({
      CONFORMANCE_PATH_OPENAPI: '/openapi.json',
      CONFORMANCE_SORT_FIELDS: 'projects=created_at',
    });
  });
});
