// The `mock` command: flags, --list-faults, the printed settings, clean stop on SIGTERM.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { faults } from '../mock/index.js';
import { exportLine, mockHelp, runMock } from './commands/mock.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  return { out: () => out.join(''), err: () => err.join('') };
}

afterEach(() => vi.restoreAllMocks());

describe('runMock', () => {
  it('exits 2 for an unknown reading or value', async () => {
    capture();
    expect(await runMock(['--reading', 'nope=1'])).toBe(2);
    expect(await runMock(['--reading', 'max-limit=7'])).toBe(2);
  });

  it.each([[['--body-timeout', 'soon']], [['--request-timeout', '0']], [['--download-idle-timeout', '0']]])('exits 2 for %j, naming the timeout',
    async (argv) => {
      const io = capture();
      expect(await runMock(['--port', '0', ...argv])).toBe(2);
      expect(io.err()).toMatch(/timeout/i);
    });

  it('prints help and exits 0', async () => {
    const io = capture();
    expect(await runMock(['--help'])).toBe(0);
    expect(io.out()).toBe(mockHelp);
  });

  it('lists every fault with its requirement ids', async () => {
    const io = capture();
    expect(await runMock(['--list-faults'])).toBe(0);
    for (const f of faults) expect(io.out()).toContain(f.name);
    expect(io.out()).toContain('LIST-CURSOR-UNDECODABLE');
  });

  it.each([
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--host', '0.0.0.0']],
    [['--shape', 'medium']],
    [['--fault', 'nope']],
    [['--seed', '-1']],
    [['--unknown']],
    [['positional']],
  ])('exits 2 with a clear error for %j', async (argv) => {
    const io = capture();
    expect(await runMock(argv)).toBe(2);
    expect(io.err()).toMatch(/^mock: /);
  });

  it('exits 2 for an unknown operation in --deprecate', async () => {
    const io = capture();
    expect(await runMock(['--port', '0', '--deprecate', 'nothing'])).toBe(2);
    expect(io.err()).toMatch(/nothing/);
  });

  it('quotes values for POSIX shells', () => {
    expect(exportLine('A', "it's {id}")).toBe(`export A='it'\\''s {id}'`);
  });
});

describe('conformance mock (the command line, as a process)', () => {
  it('prints export lines with keys from the environment and stops cleanly on SIGTERM', async () => {
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'mock', '--port', '0', '--seed', '2'], {
      env: {
        ...process.env,
        MOCK_API_KEY_TEAM_A: 'key-a',
        MOCK_API_KEY_TEAM_B: 'key-b',
        MOCK_API_KEY_READ_ONLY: 'key-ro',
        MOCK_API_KEY_NO_API_ACCESS: 'key-free',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    await vi.waitFor(() => expect(out).toContain('CONFORMANCE_SORT_FIELDS'), { timeout: 20_000, interval: 100 });
    expect(out).toContain("export CONFORMANCE_API_KEY='key-a'");
    expect(out).toContain("export CONFORMANCE_API_KEY_NO_API_ACCESS='key-free'");
    expect(out).toContain("export CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD='GET /attachments/{id}/download'");
    const url = /CONFORMANCE_BASE_URL='([^']+)'/.exec(out)![1]!;
    const res = await fetch(`${url}/api/public/v1/projects?limit=1`, { headers: { authorization: 'Bearer key-b' } });
    expect(res.status).toBe(200);
    const code = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await code).toBe(0);
  }, 30_000);
});
