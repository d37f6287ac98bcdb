import { describe, expect, it } from 'vitest';
import { replayCommand, replaySettings } from './replay.js';

describe('the command that runs a failing check again', () => {
  const deployment = { kind: 'deployment', baseUrl: 'https://staging.example.test', seed: 42 };

  it('carries the settings file, the target settings of the environment and never a key', () => {
    const env = {
      CONFORMANCE_CONFIG: '/home/qa/suite/staging.json',
      CONFORMANCE_API_KEY: 'sk_live_secret_a',
      CONFORMANCE_API_KEY_OTHER_TEAM: 'sk_live_secret_b',
      CONFORMANCE_RUN_TIMEOUT: '20m',
      CONFORMANCE_ONLY: 'ISO-*',
      CONFORMANCE_SEED: '42',
      CONFORMANCE_REPORT_DIR: '/home/qa/suite/out',
      HOME: '/home/qa',
    };
    const settings = replaySettings(env, env.CONFORMANCE_REPORT_DIR, '/home/qa/suite');
    expect(settings).toEqual({ config: 'staging.json', environment: { CONFORMANCE_RUN_TIMEOUT: '20m' }, reportDir: 'out' });
    const command = replayCommand({ ...deployment, settings }, ['ISO-GET-OTHER-TEAM-404', 'ISO-OTHER-TEAM-AS-MISSING'], null);
    expect(command).toBe(
      'CONFORMANCE_RUN_TIMEOUT=20m npm start -- --config staging.json --only ISO-GET-OTHER-TEAM-404,ISO-OTHER-TEAM-AS-MISSING --seed 42 --report-dir out/again',
    );
    expect(command).not.toContain('sk_live');
  });

  it('carries a base URL given in the environment, quoted for the shell', () => {
    const settings = replaySettings({ CONFORMANCE_BASE_URL: 'https://staging.example.test/a b', CONFORMANCE_SORT_FIELDS: 'projects=created_at,title' },
      undefined, '/x');
    expect(replayCommand({ ...deployment, settings }, ['LIST-SORT'], '3:1:0')).toBe(
      "CONFORMANCE_BASE_URL='https://staging.example.test/a b' CONFORMANCE_SORT_FIELDS=projects=created_at,title npm start -- --only LIST-SORT --seed 42 --path 3:1:0",
    );
  });

  it('writes beside the report it replays: a replay of a replay goes one folder further', () => {
    const settings = replaySettings({}, '/p/out/again', '/p');
    expect(replayCommand({ ...deployment, settings }, ['LIST-SORT'], null)).toContain('--report-dir out/again/again');
  });

  it('asks for the bundled mock outright, so keys exported for its curl lines do not refuse the replay', () => {
    const settings = replaySettings({}, '/p/out', '/p');
    expect(replayCommand({ kind: 'bundled-mock', baseUrl: 'http://127.0.0.1:4010', seed: 7, settings }, ['LIST-SORT'], null)).toBe(
      'CONFORMANCE_TARGET=bundled-mock npm start -- --only LIST-SORT --seed 7 --report-dir out/again',
    );
    const faulty = replaySettings({ CONFORMANCE_MOCK_FAULT: 'field-mistyped' }, '/p/out', '/p');
    expect(replayCommand({ kind: 'bundled-mock', baseUrl: 'http://127.0.0.1:4010', seed: 7, settings: faulty }, ['LIST-SORT'], null)).toBe(
      'CONFORMANCE_MOCK_FAULT=field-mistyped npm start -- --only LIST-SORT --seed 7 --report-dir out/again',
    );
  });
});
