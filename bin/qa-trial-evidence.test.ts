// A QA engineer's trial of evidence they can act on and replay, run as a person runs it (the keys
// exported, the rest in staging.json, tsx bin/cli.ts as a child):
// - a deployment whose downloads fail only for filenames outside Latin-1: the failure's first
//   screen names the upload and its filename, and the printed script, run afresh after the run
//   cleaned up, builds that state again and shows the 500;
// - a model-based failure: the printed `again` command runs the failing check alone with the same
//   seed and path, reproduces the very failure, and writes to a folder of the cause's own.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningMock, start } from '../mock/index.js';
import type { Report } from '../reports/types.js';
import { childEnv, type Exited, modelBasedCheck, spawnCli } from './cli-child.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const keys = {
  CONFORMANCE_API_KEY: 'trial-key-of-team-a',
  CONFORMANCE_API_KEY_OTHER_TEAM: 'trial-key-of-team-b',
  CONFORMANCE_API_KEY_READ_ONLY: 'trial-key-read-only',
  CONFORMANCE_API_KEY_NO_API_ACCESS: 'trial-key-no-api-access',
};
const mockKeys = {
  teamA: keys.CONFORMANCE_API_KEY,
  teamB: keys.CONFORMANCE_API_KEY_OTHER_TEAM,
  readOnly: keys.CONFORMANCE_API_KEY_READ_ONLY,
  noApiAccess: keys.CONFORMANCE_API_KEY_NO_API_ACCESS,
};

const cli = (args: readonly string[], env: Record<string, string> = {}): Promise<Exited> => spawnCli(args, { ...keys, ...env }, { timeoutMs: 170_000 }).exited;
const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report;

/** The settings file of a deployment, keys left out, as the README's staging.json. */
function stagingFile(dir: string, mock: RunningMock): string {
  const { CONFORMANCE_API_KEY: _a, CONFORMANCE_API_KEY_OTHER_TEAM: _b, CONFORMANCE_API_KEY_READ_ONLY: _r, CONFORMANCE_API_KEY_NO_API_ACCESS: _n, ...rest } =
    mock.settings;
  const file = join(dir, `staging-${mock.url.split(':').at(-1)}.json`);
  writeFileSync(file, JSON.stringify({ ...rest, CONFORMANCE_RUN_TIMEOUT: '5m' }));
  return file;
}

/** A line printed as `   <label> …` under cause `n`, shell words split as a shell would. */
function commandOf(stdout: string, causeNumber: number, label: string): { env: Record<string, string>; words: string[]; } {
  const block = stdout.split(/\n(?=\d+\. )/).find((b) => b.startsWith(`${causeNumber}. `))!;
  const line = new RegExp(`${label} +(.*)`).exec(block)![1]!;
  const words = (line.match(/'(?:[^']|'\\'')*'|\S+/g) ?? []).map((w) => w.replace(/^'|'$/g, '').replace(/'\\''/g, "'"));
  const at = words.findIndex((w) => !/^[A-Z_]+=/.test(w));
  return { env: Object.fromEntries(words.slice(0, at).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)])), words: words.slice(at) };
}

describe('a QA trial: evidence to act on, replays that replay', () => {
  let dir = '';
  const mocks: RunningMock[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-evidence-'));
  });
  afterAll(async () => {
    for (const m of mocks) await m.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('downloads failing only for non-Latin-1 filenames: the filename on the first screen, and a script that shows the 500 afresh', async () => {
    const mock = await start({ fault: 'download-non-latin1-filename-5xx', seed: 12, keys: mockKeys });
    mocks.push(mock);
    const out = join(dir, 'filenames');
    const run = await cli([
      'run',
      '--config',
      stagingFile(dir, mock),
      '--only',
      'EP-ATTACHMENTS-DOWNLOAD,UPLOAD-DOWNLOAD-BYTE-IDENTICAL',
      '--seed',
      '31',
      '--report-dir',
      out,
    ]);
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(1);
    // The first screen: the cause's block starts within it, and names the upload and its filename.
    const lines = run.stdout.split('\n');
    const head = lines.findIndex((l) => /^1\. /.test(l));
    const upload = lines.findIndex((l) => /after +POST \/attachments: upload ".*[^\u0000-\u00ff].*" \(\d+ bytes/.test(l));
    expect(head, run.stdout).toBeGreaterThan(0);
    expect(upload, run.stdout).toBeGreaterThan(head);
    expect(upload).toBeLessThan(30);
    const report = readReport(out);
    const failure = report.causes![0]!.failure;
    expect(failure.state?.some((s) => s.request.file && [...s.request.file.name].some((ch) => ch.codePointAt(0)! > 0xff))).toBe(true);
    expect(failure.reproduce).toMatch(new RegExp(`^reproduce-${report.runId}-C1\\.sh$`));
    // The run cleaned up what it made: the failing request of the run, sent again, finds nothing.
    const again = await fetch(failure.request!.url, { headers: { authorization: `Bearer ${keys.CONFORMANCE_API_KEY}` } });
    expect(again.status).toBe(404);
    // The script builds the state again and shows the 500, then deletes what it made.
    const script = join(out, failure.reproduce!);
    const shown = await new Promise<{ code: number; stdout: string; }>((done) =>
      execFile('sh', [script], { env: childEnv(keys), timeout: 60_000 }, (e, stdout) => done({ code: e ? Number(e.code ?? 1) : 0, stdout }))
    );
    expect(shown.stdout).toMatch(/upload ".*[^\u0000-\u00ff].*" \(\d+ bytes/);
    expect(shown.stdout).toContain('look for: attachment download: expected 2xx, got 500');
    expect(shown.stdout).toMatch(/^HTTP\/1\.1 500/m);
    const made = /→ 201, id (\S+)\n[^\n]*\n?$/m.exec(shown.stdout.split('the failing request')[0]!)?.[1];
    if (made) {
      const gone = await fetch(`${mock.url}/api/public/v1/attachments/${made}/download`, { headers: { authorization: `Bearer ${keys.CONFORMANCE_API_KEY}` } });
      expect(gone.status).toBe(404);
    }
  }, 180_000);

  test('a model-based failure: the printed again command reproduces it, alone, in a folder of its own', async () => {
    const mock = await start({ fault: 'patch-not-persisted', seed: 13, keys: mockKeys });
    mocks.push(mock);
    const out = join(dir, 'model');
    const name = 'model-based:';
    // the model-based check alone: the field it finds not persisted is one cause with every other check that meets it
    const first = await cli([
      'run',
      '--config',
      stagingFile(dir, mock),
      '--only',
      'EP-PATCH-PERSISTS',
      '--check',
      modelBasedCheck(),
      '--seed',
      '4242',
      '--report-dir',
      out,
    ]);
    expect(first.code, first.stdout.slice(-3000) + first.stderr).toBe(1);
    const report = readReport(out);
    const index = report.causes!.findIndex((c) => c.failure.check.startsWith(name) && c.failure.path);
    expect(index, JSON.stringify(report.causes!.map((c) => [c.failure.check.slice(0, 40), c.failure.path]))).toBeGreaterThanOrEqual(0);
    const cause = report.causes![index]!;
    const again = commandOf(first.stdout, index + 1, 'again');
    expect(again.words.slice(0, 3)).toEqual(['npm', 'start', '--']);
    const args = again.words.slice(3);
    expect(args).toEqual(expect.arrayContaining(['--check', cause.failure.check, '--seed', '4242', '--path', cause.failure.path!]));
    const replayDir = resolve(root, args[args.indexOf('--report-dir') + 1]!);
    expect(replayDir).toBe(join(out, `again-${cause.id}`));
    const replay = await cli(['run', ...args], again.env);
    expect(replay.code, replay.stdout.slice(-2000) + replay.stderr).toBe(1);
    const replayed = readReport(replayDir);
    // the failing check alone, the same failure (the same values, named with its own run id) at the same path
    const named = (text: string, runId: string | null | undefined) => text.split(runId!).join('<run id>');
    expect(replayed.causes!.map((c) => [named(c.message, replayed.runId), c.failure.path])).toEqual([[named(cause.message, report.runId), cause.failure.path]]);
    const ran = replayed.requirements.flatMap((r) => r.checks).filter((c) => c.status !== 'skipped');
    expect(new Set(ran.map((c) => c.name))).toEqual(new Set([cause.failure.check]));
    expect(existsSync(join(out, 'conformance.json'))).toBe(true);
    // its own replays go beside it, not inside it
    expect(replayed.causes![0]!.failure.replay).toContain(`--report-dir ${join(out, `again-${replayed.causes![0]!.id}`)}`);
  }, 240_000);
});
