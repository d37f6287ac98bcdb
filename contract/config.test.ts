import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { configErrorLine, loadConfig } from './config.js';

const keys = { CONFORMANCE_API_KEY: 'secret-key-a-123456', CONFORMANCE_API_KEY_OTHER_TEAM: 'secret-key-b-654321' };
const deployment = { CONFORMANCE_BASE_URL: 'https://api.example.test', ...keys };

function codes(env: NodeJS.ProcessEnv): string[] {
  const r = loadConfig(env);
  return r.ok ? [] : r.errors.map((e) => `${e.code}:${e.setting}`);
}

describe('target settings', () => {
  test('defaults: the bundled mock, auto shape, POST /organizations', () => {
    const r = loadConfig({});
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.baseUrl).toBeUndefined();
    expect(r.settings.shape).toBe('auto');
    expect(r.settings.paths.organizationCreate).toEqual({ method: 'POST', path: '/api/public/v1/organizations' });
    expect(r.settings.reportDir).toBe('out');
    expect(r.settings.readOnly).toBe(false);
  });

  test('a deployment with paths, sort fields, seed and flags', () => {
    const r = loadConfig({
      ...deployment,
      CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD: '/attachments/{id}/download',
      CONFORMANCE_PATH_FILE_DELETE: 'POST /files/{id}/delete',
      CONFORMANCE_SORT_FIELDS: 'projects=created_at,title;assignments=created_at',
      CONFORMANCE_SEED: '42',
      CONFORMANCE_READ_ONLY: '1',
      CONFORMANCE_SHAPE: 'legacy',
      CONFORMANCE_ONLY: 'LIST-*,AUTH-BEARER-REQUIRED',
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.paths.attachmentDownload).toEqual({ method: 'GET', path: '/api/public/v1/attachments/{id}/download' });
    expect(r.settings.paths.fileDelete).toEqual({ method: 'POST', path: '/api/public/v1/files/{id}/delete' });
    expect(r.settings.sortFields).toEqual({ projects: ['created_at', 'title'], assignments: ['created_at'] });
    expect(r.settings).toMatchObject({ seed: 42, readOnly: true, shape: 'legacy', selection: { only: ['LIST-*', 'AUTH-BEARER-REQUIRED'], exclude: [] } });
  });

  test.each([
    [{ ...deployment, CONFORMANCE_BASE_URL: 'ftp://x' }, 'invalid_url:CONFORMANCE_BASE_URL'],
    [{ ...deployment, CONFORMANCE_BASE_URL: 'not a url' }, 'invalid_url:CONFORMANCE_BASE_URL'],
    [{ CONFORMANCE_BASE_URL: 'http://x', CONFORMANCE_API_KEY: 'k' }, 'key_without_other_team_key:CONFORMANCE_API_KEY_OTHER_TEAM'],
    [{ CONFORMANCE_BASE_URL: 'http://x' }, 'missing_setting:CONFORMANCE_API_KEY'],
    [{ ...deployment, CONFORMANCE_API_KEY_OTHER_TEAM: keys.CONFORMANCE_API_KEY }, 'same_key_for_both_teams:CONFORMANCE_API_KEY_OTHER_TEAM'],
    [{ CONFORMANCE_SHAPE: 'modern' }, 'unknown_shape:CONFORMANCE_SHAPE'],
    [{ CONFORMANCE_SORT_FIELDS: 'projects:created_at' }, 'malformed_sort_fields:CONFORMANCE_SORT_FIELDS'],
    [{ CONFORMANCE_SORT_FIELDS: 'widgets=name' }, 'malformed_sort_fields:CONFORMANCE_SORT_FIELDS'],
    [{ CONFORMANCE_PATH_FILE_DELETE: '/files/delete' }, 'path_missing_id:CONFORMANCE_PATH_FILE_DELETE'],
    [{ CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD: 'download' }, 'invalid_path:CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD'],
    [{ CONFORMANCE_SEED: '1.5' }, 'invalid_integer:CONFORMANCE_SEED'],
    [{ CONFORMANCE_SEED: 'abc' }, 'invalid_integer:CONFORMANCE_SEED'],
    [{ CONFORMANCE_READ_ONLY: 'yes' }, 'invalid_flag:CONFORMANCE_READ_ONLY'],
    [{ CONFORMANCE_ONLY: 'list cursor' }, 'invalid_only_pattern:CONFORMANCE_ONLY'],
    [{ CONFORMANCE_TARGET: 'wiremock' }, 'unknown_target:CONFORMANCE_TARGET'],
    [{ ...deployment, CONFORMANCE_IMAGE: 'img:1' }, 'conflicting_targets:CONFORMANCE_IMAGE'],
    [{ ...deployment, CONFORMANCE_BASE_URL: 'https://api.example.test/api/public/v1' }, 'base_url_has_api_path:CONFORMANCE_BASE_URL'],
    [{ ...deployment, CONFORMANCE_BASE_URL: 'https://api.example.test/api/public/v1/' }, 'base_url_has_api_path:CONFORMANCE_BASE_URL'],
    [{ CONFORMANCE_RUN_TIMEOUT: 'soon' }, 'invalid_duration:CONFORMANCE_RUN_TIMEOUT'],
    [{ CONFORMANCE_RUN_TIMEOUT: '0' }, 'invalid_duration:CONFORMANCE_RUN_TIMEOUT'],
    [{ CONFORMANCE_SCRATCH_PROJECTS: 'p1,p2' }, 'invalid_id_list:CONFORMANCE_SCRATCH_PROJECTS'],
    [{ CONFORMANCE_WALK_PAGES: '0' }, 'invalid_integer:CONFORMANCE_WALK_PAGES'],
    [{ CONFORMANCE_STOP_AFTER_NO_RESPONSE: '0' }, 'invalid_integer:CONFORMANCE_STOP_AFTER_NO_RESPONSE'],
    [{ CONFORMANCE_MOCK_POPULATION: 'many' }, 'invalid_integer:CONFORMANCE_MOCK_POPULATION'],
  ])('misconfiguration %# is an error with a stable code', (env, expected) => {
    expect(codes(env as NodeJS.ProcessEnv)).toContain(expected);
  });

  test('run bounds, scratch projects, walk budget and mock population', () => {
    const d = loadConfig({});
    expect(d.ok && d.settings).toMatchObject({
      runTimeoutMs: 1_800_000,
      preflightTimeoutMs: 5_000,
      stopAfterNoResponse: 5,
      walkPages: 10,
      scratchProjects: [],
    });
    const id = '0b6f4c1e-8d2a-4f3b-9c4d-5e6f7a8b9c0d';
    const r = loadConfig({
      CONFORMANCE_RUN_TIMEOUT: '90s',
      CONFORMANCE_SCRATCH_PROJECTS: ` ${id} ,`,
      CONFORMANCE_WALK_PAGES: '3',
      CONFORMANCE_STOP_AFTER_NO_RESPONSE: '2',
      CONFORMANCE_MOCK_POPULATION: '5000',
      CONFORMANCE_PREFLIGHT_TIMEOUT_MS: '800',
    });
    expect(r.ok && r.settings).toMatchObject({
      runTimeoutMs: 90_000,
      scratchProjects: [id],
      walkPages: 3,
      stopAfterNoResponse: 2,
      preflightTimeoutMs: 800,
      mock: { population: 5000 },
    });
    expect(
      loadConfig({ CONFORMANCE_RUN_TIMEOUT: '1800' }).ok
        && (loadConfig({ CONFORMANCE_RUN_TIMEOUT: '30m' }) as { settings: { runTimeoutMs: number; }; }).settings.runTimeoutMs,
    ).toBe(1_800_000);
  });

  test('a base URL that already ends in the API path names the base to use instead', () => {
    const r = loadConfig({ ...deployment, CONFORMANCE_BASE_URL: 'https://api.example.test/gw/api/public/v1' });
    expect(!r.ok && r.errors[0]!.message).toContain('"https://api.example.test/gw"');
  });

  test('every error is reported at once, and no message repeats a key', () => {
    const r = loadConfig({ CONFORMANCE_BASE_URL: 'ftp://x', CONFORMANCE_API_KEY: keys.CONFORMANCE_API_KEY, CONFORMANCE_SEED: 'x', CONFORMANCE_SHAPE: 'y' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(r.errors)).not.toContain(keys.CONFORMANCE_API_KEY);
  });

  test('a JSON file named by CONFORMANCE_CONFIG, overridden by the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-config-'));
    const file = join(dir, 'target.json');
    writeFileSync(file, JSON.stringify({ ...deployment, CONFORMANCE_SEED: 7, CONFORMANCE_READ_ONLY: true }));
    const r = loadConfig({ CONFORMANCE_CONFIG: file, CONFORMANCE_SEED: '8' });
    expect(r.ok && r.settings).toMatchObject({ baseUrl: 'https://api.example.test', seed: 8, readOnly: true });
  });

  test('a config file with an unknown key or a wrong type is refused, without echoing values', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-config-'));
    const file = join(dir, 'target.json');
    writeFileSync(file, JSON.stringify({ ...deployment, CONFORMANCE_BASE_URLL: 'x', CONFORMANCE_API_KEY: 5 }));
    const r = loadConfig({ CONFORMANCE_CONFIG: file });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.code)).toEqual(expect.arrayContaining(['unknown_setting', 'config_file_invalid']));
    expect(JSON.stringify(r.errors)).not.toContain(keys.CONFORMANCE_API_KEY);
    expect(loadConfig({ CONFORMANCE_CONFIG: join(dir, 'missing.json') }).ok).toBe(false);
  });
});

describe('typos are errors, with the setting probably meant', () => {
  const lines = (env: NodeJS.ProcessEnv) => {
    const r = loadConfig(env);
    return r.ok ? [] : r.errors.map(configErrorLine);
  };

  test('a misspelled key of the settings file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-config-'));
    const file = join(dir, 'staging.json');
    writeFileSync(file, JSON.stringify({ ...deployment, CONFORMANCE_SORT_FEILDS: 'projects=title', CONFORMANCE_RUN_TIMEOUT: '20m' }));
    expect(lines({ CONFORMANCE_CONFIG: file })).toEqual([
      `CONFORMANCE_SORT_FEILDS: is not a setting (in ${file}): did you mean CONFORMANCE_SORT_FIELDS? [unknown_setting]`,
    ]);
  });

  test('a misspelled CONFORMANCE_* variable of the environment', () => {
    expect(lines({ CONFORMANCE_SEEED: '5' })).toEqual([
      'CONFORMANCE_SEEED: is not a setting (in the environment): did you mean CONFORMANCE_SEED? [unknown_setting]',
    ]);
    expect(lines({ CONFORMANCE_BASEURL: 'http://x' })[0]).toContain('did you mean CONFORMANCE_BASE_URL?');
    // nothing close: no guess, still an error
    expect(lines({ CONFORMANCE_WIDGETS: '1' })).toEqual(['CONFORMANCE_WIDGETS: is not a setting (in the environment) [unknown_setting]']);
  });

  test('settings read from the environment only are known there', () => {
    expect(loadConfig({ CONFORMANCE_VERBOSE: '1', CONFORMANCE_REPLAY_PATH: '3:1', CONFORMANCE_MOCK_READINGS: 'x=y', CONFORMANCE_IMAGE_ENV: 'A=1' }).ok).toBe(
      true,
    );
  });
});

describe('keys without a base URL', () => {
  test('are refused: the run would test the bundled mock, not the deployment the keys are for', () => {
    const r = loadConfig({ ...keys });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors.map((e) => e.code)).toEqual(['keys_without_base_url']);
    expect(!r.ok && configErrorLine(r.errors[0]!)).toMatch(/^CONFORMANCE_API_KEY: is set but CONFORMANCE_BASE_URL is not: .*--target bundled-mock/);
  });

  test('are accepted when the bundled mock is asked for outright, or the target is a container', () => {
    expect(loadConfig({ ...keys, CONFORMANCE_TARGET: 'bundled-mock' }).ok).toBe(true);
    expect(loadConfig({ ...keys, CONFORMANCE_MOCK_FAULT: 'field-mistyped' }).ok).toBe(true);
    expect(loadConfig({ ...keys, CONFORMANCE_IMAGE: 'img:1' }).ok).toBe(true);
    expect(codes({ ...deployment, CONFORMANCE_TARGET: 'bundled-mock' })).toContain('conflicting_targets:CONFORMANCE_TARGET');
  });
});
