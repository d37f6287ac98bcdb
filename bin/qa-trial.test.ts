// A QA engineer's trial of a staging deployment, as the README's QA section has it, on a failing
// deployment: the reference mock with one cross-team leak (GET by id serves another team's
// record) behind a gateway that serves every project's title as a number. Run as a person runs it
// (tsx bin/cli.ts, child processes, the keys exported, the rest in staging.json):
// - a misspelled setting is one line naming what was meant, exit 2;
// - the full run's first screens state the verdict; the wrong field type is one cause, failing at
//   most its shape requirement, everything else it touches blocked by it;
// - the printed `again` command reproduces the failure against that deployment, and keeps the
//   first report;
// - report diff fails the gate for an interrupted run.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningMock, start } from '../mock/index.js';
import type { Report } from '../reports/types.js';
import { type Exited, spawnCli } from './cli-child.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const keys = {
  CONFORMANCE_API_KEY: 'trial-key-of-team-a',
  CONFORMANCE_API_KEY_OTHER_TEAM: 'trial-key-of-team-b',
  CONFORMANCE_API_KEY_READ_ONLY: 'trial-key-read-only',
  CONFORMANCE_API_KEY_NO_API_ACCESS: 'trial-key-no-api-access',
};

/** `conformance <args>` as a person's shell runs it: the keys exported, `env` beside them; SIGINT once the run started, if asked. */
async function cli(args: readonly string[], o: { env?: Record<string, string>; interruptAfterMs?: number; } = {}): Promise<Exited> {
  const child = spawnCli(args, { ...keys, ...o.env }, { timeoutMs: 170_000 });
  if (o.interruptAfterMs !== undefined) {
    while (!/run id cfm-/.test(child.stdout())) await new Promise((r) => setTimeout(r, 50));
    setTimeout(() => child.kill('SIGINT'), o.interruptAfterMs);
  }
  return child.exited;
}

/** A gateway in front of the mock that serves every project's title as a number: one wrong field type. */
class Gateway {
  private server!: Server;
  url = '';
  constructor(private readonly upstream: string) {}

  async start(): Promise<this> {
    const up = new URL(this.upstream);
    this.server = createServer((req, res) => {
      const fwd = httpRequest({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          let body = Buffer.concat(chunks);
          const projects = /^\/api\/public\/v1\/projects(\/|\?|$)/.test(req.url ?? '');
          if (projects && /json/.test(String(r.headers['content-type'])) && (r.statusCode ?? 500) < 300) {
            const doc = JSON.parse(body.toString()) as { data?: Record<string, unknown>[]; title?: unknown; };
            const mistype = (p: Record<string, unknown>) => ('title' in p ? { ...p, title: 12345 } : p);
            body = Buffer.from(JSON.stringify(Array.isArray(doc.data) ? { ...doc, data: doc.data.map(mistype) } : mistype(doc)));
          }
          res.writeHead(r.statusCode ?? 502, { ...r.headers, 'content-length': String(body.length) });
          res.end(body);
        });
      });
      fwd.on('error', () => res.destroy());
      req.pipe(fwd);
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report;

/** The `again` line printed under a cause, as a shell would split it: assignments, then the arguments of `npm start --`. */
function againOf(stdout: string, causeNumber: number): { env: Record<string, string>; args: string[]; } {
  const block = stdout.split(/\n(?=\d+\. )/).find((b) => b.startsWith(`${causeNumber}. `))!;
  const line = /again {4}(.*)/.exec(block)![1]!;
  const words = line.match(/'[^']*'|\S+/g)!.map((w) => w.replace(/^'|'$/g, ''));
  const at = words.indexOf('npm');
  const env = Object.fromEntries(words.slice(0, at).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
  expect(words.slice(at, at + 3)).toEqual(['npm', 'start', '--']);
  return { env, args: ['run', ...words.slice(at + 3)] };
}

describe('a QA trial of a failing staging deployment', () => {
  let mock: RunningMock;
  let gateway: Gateway;
  let dir = '';
  let config = '';
  let first: Exited;
  let report: Report;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-trial-'));
    mock = await start({
      fault: 'other-team-readable',
      seed: 11,
      keys: {
        teamA: keys.CONFORMANCE_API_KEY,
        teamB: keys.CONFORMANCE_API_KEY_OTHER_TEAM,
        readOnly: keys.CONFORMANCE_API_KEY_READ_ONLY,
        noApiAccess: keys.CONFORMANCE_API_KEY_NO_API_ACCESS,
      },
    });
    gateway = await new Gateway(mock.url).start();
    // The settings of the deployment, keys left out of the file: as the README's staging.json.
    const { CONFORMANCE_API_KEY: _a, CONFORMANCE_API_KEY_OTHER_TEAM: _b, CONFORMANCE_API_KEY_READ_ONLY: _r, CONFORMANCE_API_KEY_NO_API_ACCESS: _n, ...paths } =
      mock.settings;
    config = join(dir, 'staging.json');
    writeFileSync(config, JSON.stringify({ ...paths, CONFORMANCE_BASE_URL: gateway.url, CONFORMANCE_RUN_TIMEOUT: '5m' }));
    first = await cli(['run', '--config', config, '--seed', '4242', '--report-dir', join(dir, 'out')]);
    report = readReport(join(dir, 'out'));
  }, 180_000);

  afterAll(async () => {
    await gateway?.close();
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a misspelled setting is one line with the setting meant, exit 2, before any request', async () => {
    const o = await cli(['run', '--config', config], { env: { CONFORMANCE_SEEED: '5' } });
    expect(o.code).toBe(2);
    expect(o.stderr.trim()).toBe('conformance run: CONFORMANCE_SEEED: is not a setting (in the environment): did you mean CONFORMANCE_SEED? [unknown_setting]');
    const typo = join(dir, 'typo.json');
    writeFileSync(typo, JSON.stringify({ CONFORMANCE_BASE_URL: gateway.url, CONFORMANCE_SORT_FEILDS: 'projects=title' }));
    const file = await cli(['run', '--config', typo]);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('CONFORMANCE_SORT_FEILDS: is not a setting (in ');
    expect(file.stderr).toContain('did you mean CONFORMANCE_SORT_FIELDS?');
  }, 60_000);

  test('the terminal opens with the verdict; no key is printed', () => {
    expect(first.code, first.stdout.slice(-3000) + first.stderr).toBe(1);
    const summary = first.stdout.slice(first.stdout.indexOf('\n\n') + 2);
    expect(summary.split('\n')[0]).toMatch(/^✗ DOES NOT CONFORM: \d+ must or implied requirements? failed/);
    expect(first.stdout + first.stderr).not.toContain(keys.CONFORMANCE_API_KEY);
  });

  test('the wrong field type is one cause: its shape requirement failed, everything it touches blocked by it', () => {
    const title = report.causes!.filter((c) => c.message.startsWith('project.title'));
    expect(title.map((c) => c.message)).toEqual(['project.title is a number (12345), where the API document has a string']);
    const cause = title[0]!;
    expect(cause.failed).toEqual(['RES-PROJECT-SHAPE']);
    for (const r of report.requirements.filter((x) => x.causes?.includes(cause.id))) {
      expect(r.status === 'blocked' || r.id === 'RES-PROJECT-SHAPE', `${r.id} ${r.status}`).toBe(true);
    }
    // The other causes are the leak's: what fails besides the field type is isolation.
    const others = report.requirements.filter((r) => r.status === 'failed' && r.id !== 'RES-PROJECT-SHAPE').map((r) => r.id);
    expect(others.length).toBeGreaterThan(0);
    for (const id of others) expect(id, JSON.stringify(report.causes?.map((c) => c.message))).toMatch(/^(ISO-|ERR-NOT-FOUND|CHANGELOG-1-6-0-NOT-FOUND)/);
    expect(cause.failure.excerpt).toContain('"title":12345');
  });

  test('index.html opens with the verdict, in Chromium', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'], headless: true });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`file://${join(dir, 'out', 'index.html')}`);
      await page.waitForSelector('tr.req');
      expect(await page.textContent('#verdict')).toMatch(/^Does not conform: /);
      expect(await page.title()).toMatch(/^Conformance report — does not conform — /);
      const box = await page.locator('#verdict').boundingBox();
      expect(box!.y + box!.height).toBeLessThan(800);
    } finally {
      await browser.close();
    }
  }, 60_000);

  test('the printed again command reproduces the failure against the same deployment, and keeps the first report', async () => {
    const index = report.causes!.findIndex((c) => c.message.startsWith('project.title')) + 1;
    const again = againOf(first.stdout, index);
    expect(again.args).toEqual(expect.arrayContaining(['--config', '--only', '--seed', '4242', '--report-dir']));
    const firstReport = join(dir, 'out', 'conformance.json');
    const before = { text: readFileSync(firstReport, 'utf8'), mtime: statSync(firstReport).mtimeMs };
    const replay = await cli(again.args, { env: again.env });
    expect(replay.code, replay.stdout.slice(-2000) + replay.stderr).toBe(1);
    const replayDir = again.args[again.args.indexOf('--report-dir') + 1]!;
    const replayed = readReport(resolve(root, replayDir));
    expect(replayed.target).toMatchObject({ kind: 'deployment', baseUrl: gateway.url });
    expect(replayed.requirements.find((r) => r.id === 'RES-PROJECT-SHAPE')?.status).toBe('failed');
    expect(readFileSync(firstReport, 'utf8')).toBe(before.text);
    expect(statSync(firstReport).mtimeMs).toBe(before.mtime);
  }, 120_000);

  test('report diff fails the gate for an interrupted run', async () => {
    const interrupted = await cli(['run', '--config', config, '--report-dir', join(dir, 'interrupted')], { interruptAfterMs: 300 });
    expect(interrupted.code).toBe(130);
    expect(existsSync(join(dir, 'interrupted', 'conformance.json'))).toBe(true);
    expect(readReport(join(dir, 'interrupted')).stopped?.cause).toBe('interrupted');
    const diff = await cli(['report', 'diff', join(dir, 'out', 'conformance.json'), join(dir, 'interrupted', 'conformance.json')]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('is of an incomplete run: interrupted by SIGINT');
  }, 120_000);
});
