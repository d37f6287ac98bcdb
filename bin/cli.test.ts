import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { requirements } from '../specs/requirements.js';
import { cli } from './cli-harness.js';
import { commands } from './main.js';

const root = fileURLToPath(new URL('..', import.meta.url));
// mock/main.ts and bin/commands/diff.ts are other modules' entry points; their help is
// checked once they exist.
const available = (name: string) => name !== 'mock' || existsSync(`${root}mock/main.ts`);

describe('conformance (top level)', () => {
  it('--help lists every command and exits 0', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    for (const name of Object.keys(commands)) expect(r.stdout).toContain(`  ${name} `);
  });

  it('without a command prints the usage and exits 2', async () => {
    const r = await cli();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: conformance <command>');
  });

  it('an unknown command or option exits 2 with a clear message', async () => {
    expect(await cli('frobnicate')).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown command 'frobnicate'") });
    expect(await cli('--verbose')).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown option '--verbose'") });
  });

  it('help <command> shows that command\'s help', async () => {
    expect(await cli('help', 'report')).toMatchObject({ code: 0, stdout: expect.stringContaining('conformance report diff') });
  });
});

describe.each(Object.keys(commands))('conformance %s', (name) => {
  it.skipIf(!available(name))('--help prints its usage and exits 0', async () => {
    const r = await cli(name, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage/);
  });
});

describe('unknown flags', () => {
  it.each([['run'], ['requirements'], ['report', 'diff']])('%s … --no-such-flag exits 2', async (...args) => {
    const r = await cli(...args, '--no-such-flag');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown option '--no-such-flag'");
    expect(r.stderr).toContain('--help');
  });
});

describe('conformance run: usage and configuration errors before any request', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });

  it.each([
    [['--seed', 'abc'], '--seed must be an integer'],
    [['--shape', 'round'], '--shape must be full or legacy'],
    [['--target', 'staging'], '--target accepts only prism-mock'],
    [['--only', 'NO-SUCH-REQUIREMENT-*'], 'matches no requirement'],
    [['--fault', 'no-such-fault'], "unknown mock fault 'no-such-fault'"],
    [['extra'], "unexpected argument 'extra'"],
  ])('%j → 2', async (args, message) => {
    const r = await cli('run', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('an unreadable settings file is a configuration error (2)', async () => {
    const r = await cli('run', '--config', '/nonexistent/conformance.json');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/configuration is invalid:[\s\S]*config_file_unreadable/);
  });

  it('mock-only flags against a deployment are refused (2)', async () => {
    process.env.CONFORMANCE_BASE_URL = 'http://127.0.0.1:9';
    process.env.CONFORMANCE_API_KEY = 'key-of-team-a-000';
    process.env.CONFORMANCE_API_KEY_OTHER_TEAM = 'key-of-team-b-000';
    const r = await cli('run', '--shape', 'legacy');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--shape apply to the bundled mock only');
    expect(r.stderr + r.stdout).not.toContain('key-of-team-a-000');
  });
});

describe('conformance requirements', () => {
  it('--json lists every catalog id with the checks covering it', async () => {
    const r = await cli('requirements', '--json');
    const doc = JSON.parse(r.stdout) as { requirements: { id: string; checks: { concern: string; title: string }[] }[]; uncovered: string[] };
    expect(doc.requirements.map((x) => x.id)).toEqual(requirements.map((x) => x.id));
    expect(Array.isArray(doc.uncovered)).toBe(true);
  });

  it('--uncovered lists only uncovered requirements', async () => {
    const r = await cli('requirements', '--uncovered', '--json');
    const doc = JSON.parse(r.stdout) as { requirements: { id: string; checks: unknown[] }[]; uncovered: string[] };
    expect(doc.requirements.map((x) => x.id).sort()).toEqual([...doc.uncovered].sort());
    expect(doc.requirements.every((x) => x.checks.length === 0)).toBe(true);
  });
});

describe('bin/conformance.js (package bin)', () => {
  it('runs the command line through tsx', () => {
    const r = spawnSync(process.execPath, [`${root}bin/conformance.js`, '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: conformance <command>');
    const bad = spawnSync(process.execPath, [`${root}bin/conformance.js`, 'nope'], { encoding: 'utf8', timeout: 30_000 });
    expect(bad.status).toBe(2);
  }, 60_000);
});
