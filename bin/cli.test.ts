import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtEntry } from '../build/run.mjs';
import { requirements } from '../specs/requirements.js';
import { cli } from './cli-in-process.js';
import { commands } from './main.js';

const root = fileURLToPath(new URL('..', import.meta.url));

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

  it('an unknown command or option exits 2 with a one-line hint and what was probably meant', async () => {
    expect(await cli('frobnicate')).toMatchObject({ code: 2, stderr: "conformance: unknown command 'frobnicate'; see 'conformance --help'\n" });
    expect(await cli('requirement')).toMatchObject({
      code: 2,
      stderr: "conformance: unknown command 'requirement' (did you mean 'requirements'?); see 'conformance --help'\n",
    });
    expect(await cli('--verbose')).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown option '--verbose'") });
  });

  it('--version names the suite and the API document it checks', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await cli(flag);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^conformance \d+\.\d+\.\d+ \(API document \d+\.\d+\.\d+\)\n$/);
    }
  });

  it("help <command> shows that command's help", async () => {
    expect(await cli('help', 'report')).toMatchObject({ code: 0, stdout: expect.stringContaining('conformance report diff') });
  });
});

describe.each(Object.keys(commands))('conformance %s', (name) => {
  it('--help prints its usage and exits 0', async () => {
    const r = await cli(name, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage/);
  });
});

describe('unknown flags: one way for every command', () => {
  it.each([['run'], ['requirements'], ['report', 'diff'], ['mock']])('%s … --no-such-flag exits 2 with one line', async (...args) => {
    const r = await cli(...args, '--no-such-flag');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^(conformance [a-z ]+|mock): unknown option '--no-such-flag'; see 'conformance [a-z ]+ --help'\n$/);
    expect(r.stdout).toBe('');
  });

  it.each([
    [['run', '--sed', '1'], "conformance run: unknown option '--sed' (did you mean '--seed'?)"],
    [['run', '--exlude', 'LIST-*'], "(did you mean '--exclude'?)"],
    [['mock', '--bogus'], "mock: unknown option '--bogus'; see 'conformance mock --help'"],
    [['mock', '--popualtion', '5'], "(did you mean '--population'?)"],
    [['mock', '--fault', 'field-mistype'], "mock: unknown fault 'field-mistype' (did you mean 'field-mistyped'?); list them with --list-faults"],
    [
      ['run', '--fault', 'field-mistype'],
      "unknown mock fault 'field-mistype' (did you mean 'field-mistyped'?); list them with 'conformance mock --list-faults'",
    ],
    [['run', '--seed'], "option '--seed' needs a value"],
  ])('%j says what was probably meant, on one line', async (args, message) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
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
    [['--target', 'staging'], '--target accepts prism-mock or bundled-mock'],
    [['--only', 'NO-SUCH-REQUIREMENT-*'], 'matches no requirement'],
    [['--fault', 'no-such-fault'], "unknown mock fault 'no-such-fault'"],
    [['extra'], "unexpected argument 'extra'"],
    [['--exclude', 'NO-SUCH-*'], '--exclude NO-SUCH-* matches no requirement'],
    [['--path', 'three'], '--path must be a fast-check path such as 3:1:0'],
  ])('%j → 2', async (args, message) => {
    const r = await cli('run', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('an unreadable settings file is a configuration error (2)', async () => {
    const r = await cli('run', '--config', '/nonexistent/conformance.json');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('conformance run: CONFORMANCE_CONFIG: cannot read /nonexistent/conformance.json: ENOENT [config_file_unreadable]\n');
  });

  it('a misspelled setting is one line naming the setting probably meant (2)', async () => {
    process.env.CONFORMANCE_SEEED = '5';
    const r = await cli('run');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'conformance run: CONFORMANCE_SEEED: is not a setting (in the environment): did you mean CONFORMANCE_SEED? [unknown_setting]\n',
    );
  });

  it('keys without a base URL are refused in one line, before the bundled mock starts (2)', async () => {
    process.env.CONFORMANCE_API_KEY = 'key-of-team-a-000';
    process.env.CONFORMANCE_API_KEY_OTHER_TEAM = 'key-of-team-b-000';
    const r = await cli('run');
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('[keys_without_base_url]');
    expect(r.stderr + r.stdout).not.toContain('key-of-team-a-000');
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

describe('conformance run --help', () => {
  it('points at the list of faults and documents --exclude, --path and --verbose', async () => {
    const r = await cli('run', '--help');
    expect(r.stdout).toContain('conformance mock --list-faults');
    expect(r.stdout).not.toContain('mock/faults.ts');
    for (const flag of ['--exclude <ids>', '--path <p>', '--verbose']) expect(r.stdout).toContain(flag);
  });
});

describe('conformance requirements', () => {
  it('filters by id globs and by level', async () => {
    const r = await cli('requirements', 'LIST-*', '--level', 'must');
    expect(r.code).toBe(0);
    const ids = r.stdout.split('\n').filter((l) => /^\S/.test(l) && !/requirements,/.test(l)).map((l) => l.split(' ')[0]);
    const expected = requirements.filter((x) => x.id.startsWith('LIST-') && x.level === 'must').map((x) => x.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids).toEqual(expected);
    expect(r.stdout).toContain(`${expected.length} of ${requirements.length} requirements`);
    expect((await cli('requirements', 'list-cursor-undecodable', '--json')).stdout).toContain('"id": "LIST-CURSOR-UNDECODABLE"');
  });

  it('shows a check of a table as such, and counts the checks of what it lists', async () => {
    const r = await cli('requirements', 'ISO-*');
    expect(r.stdout).not.toContain('${');
    expect(r.stdout).toContain("refusals: refused: <each m.name> aimed at another team's record leaves no trace");
    const listed = new Set(r.stdout.split('\n').filter((l) => l.startsWith('    ')).map((l) => l.trim()));
    expect(r.stdout).toContain(`covered by ${listed.size} checks`);
  });

  it('refuses an unknown level or a glob matching nothing (2)', async () => {
    expect(await cli('requirements', '--level', 'shall')).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown level 'shall'") });
    expect(await cli('requirements', 'LIST-CURSOR-UNDECODEABLE')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("no requirement matches 'LIST-CURSOR-UNDECODEABLE' (did you mean 'LIST-CURSOR-UNDECODABLE'?)"),
    });
  });

  it('--json lists every catalog id with the checks covering it', async () => {
    const r = await cli('requirements', '--json');
    const doc = JSON.parse(r.stdout) as { requirements: { id: string; checks: { concern: string; title: string; }[]; }[]; uncovered: string[]; };
    expect(doc.requirements.map((x) => x.id)).toEqual(requirements.map((x) => x.id));
    expect(Array.isArray(doc.uncovered)).toBe(true);
  });

  it('--uncovered lists only uncovered requirements', async () => {
    const r = await cli('requirements', '--uncovered', '--json');
    const doc = JSON.parse(r.stdout) as { requirements: { id: string; checks: unknown[]; }[]; uncovered: string[]; };
    expect(doc.requirements.map((x) => x.id).sort()).toEqual([...doc.uncovered].sort());
    expect(doc.requirements.every((x) => x.checks.length === 0)).toBe(true);
  });
});

describe('output into a pipe that closes early', () => {
  // The package bin runs the build; one rebuilt here first keeps its note off the stderr under test.
  beforeAll(() => builtEntry('cli'), 120_000);
  // --json writes more than a pipe holds (64 KiB on Linux), so the reader is gone while it writes.
  it.each([['requirements', /^[A-Z0-9-]+ {2}\[(must|implied|not-testable)\]/], ['requirements --json', /^\{\n$/]])('%s | head -1 prints one line and no error',
    (args, first) => {
      const r = spawnSync('bash', ['-c', `set -o pipefail; '${process.execPath}' '${root}bin/conformance.js' ${args} | head -1`], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.stderr).toBe('');
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stdout).toMatch(first);
      expect(r.status).toBe(0);
    }, 60_000);
});

describe('bin/conformance.js (package bin)', () => {
  it("runs the command line's build", () => {
    const r = spawnSync(process.execPath, [`${root}bin/conformance.js`, '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: conformance <command>');
    const bad = spawnSync(process.execPath, [`${root}bin/conformance.js`, 'nope'], { encoding: 'utf8', timeout: 30_000 });
    expect(bad.status).toBe(2);
  }, 60_000);
});
