import { describe, expect, it } from 'vitest';
import { containerMounts, invocationOf, replayCommand, replaySettings } from './replay.js';

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
    expect(settings).toEqual({
      config: 'staging.json',
      environment: { CONFORMANCE_RUN_TIMEOUT: '20m' },
      reportDir: 'out',
      keys: ['CONFORMANCE_API_KEY', 'CONFORMANCE_API_KEY_OTHER_TEAM'],
    });
    const command = replayCommand({ ...deployment, settings }, ['ISO-GET-OTHER-TEAM-404', 'ISO-OTHER-TEAM-AS-MISSING'], null, 'C3');
    expect(command).toBe(
      'CONFORMANCE_RUN_TIMEOUT=20m npm start -- --config staging.json --only ISO-GET-OTHER-TEAM-404,ISO-OTHER-TEAM-AS-MISSING --seed 42 --report-dir out/again-C3',
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

  it('writes to a folder of its cause inside the report it replays; the replays of a replay go beside it, not inside', () => {
    expect(replayCommand({ ...deployment, settings: replaySettings({}, '/p/out', '/p') }, ['LIST-SORT'], null, 'C1')).toContain('--report-dir out/again-C1');
    expect(replayCommand({ ...deployment, settings: replaySettings({}, '/p/out', '/p') }, ['LIST-SORT'], null, 'C2')).toContain('--report-dir out/again-C2');
    const settings = replaySettings({}, '/p/out/again-C1', '/p');
    expect(replayCommand({ ...deployment, settings }, ['LIST-SORT'], null, 'C2')).toContain('--report-dir out/again-C2');
  });

  it('is started as the run was: npm start from a clone, npx conformance run from the package, docker run of the same image', () => {
    const env = { CONFORMANCE_BASE_URL: 'http://127.0.0.1:8080', CONFORMANCE_API_KEY: 'a', CONFORMANCE_API_KEY_OTHER_TEAM: 'b', npm_lifecycle_event: 'start' };
    const clone = replaySettings(env, '/p/out', '/p', invocationOf(env, '/p/dist/cli.cjs'));
    expect(replayCommand({ ...deployment, settings: clone }, ['LIST-SORT'], '1:2', 'C1')).toBe(
      'CONFORMANCE_BASE_URL=http://127.0.0.1:8080 npm start -- --only LIST-SORT --seed 42 --path 1:2 --report-dir out/again-C1',
    );
    const cli = replaySettings(env, '/p/out', '/p', invocationOf({ ...env, npm_lifecycle_event: 'cli' }, '/p/dist/cli.cjs'));
    expect(replayCommand({ ...deployment, settings: cli }, ['LIST-SORT'], null, 'C1')).toContain(' npm run cli -- run --only LIST-SORT');
    const installed = replaySettings(env, '/q/out', '/q', invocationOf(env, '/q/node_modules/public-api-v1-conformance/dist/cli.cjs'));
    expect(replayCommand({ ...deployment, settings: installed }, ['LIST-SORT'], null, 'C1')).toBe(
      'CONFORMANCE_BASE_URL=http://127.0.0.1:8080 npx conformance run --only LIST-SORT --seed 42 --report-dir out/again-C1',
    );
    const mountinfo = [
      '700 600 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/X',
      '710 700 8:1 /home/qa/out /out rw,relatime - ext4 /dev/sda1 rw',
      '711 700 8:1 /var/lib/docker/containers/abc/resolv.conf /etc/resolv.conf rw,relatime - ext4 /dev/sda1 rw',
      '712 700 0:60 / /proc rw - proc proc rw',
    ].join('\n');
    const inImage = { ...env, SUITE_IMAGE_REF: 'registry.example.com/conformance-suite:1' };
    const image = replaySettings(inImage, '/out', '/', invocationOf(inImage, '/app/dist/cli.cjs', () => containerMounts(mountinfo)));
    expect(replayCommand({ ...deployment, baseUrl: 'http://127.0.0.1:8080', settings: image }, ['LIST-SORT'], '0:1', 'C2')).toBe(
      'docker run --rm --network host -v /home/qa/out:/out -e CONFORMANCE_API_KEY -e CONFORMANCE_API_KEY_OTHER_TEAM -e CONFORMANCE_BASE_URL=http://127.0.0.1:8080 '
        + 'registry.example.com/conformance-suite:1 --only LIST-SORT --seed 42 --path 0:1 --report-dir /out/again-C2',
    );
    // no mount shows the report folder: the working directory's out/ is mounted there
    const unmounted = replaySettings(inImage, '/out', '/', invocationOf(inImage, '/app/dist/cli.cjs', () => []));
    expect(replayCommand({ ...deployment, settings: unmounted }, ['LIST-SORT'], null, 'C1')).toContain(' -v "$PWD/out":/out ');
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
