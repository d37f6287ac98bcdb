// The package as users get it: `npm pack`, then `npm install <tarball>` into an empty project
// (offline: the project's lockfile pins what this one is tested with, and `npm ci` of this project
// left those packages in npm's cache), then its command line and its library entry as users call
// them: `npx conformance mock`, `npx conformance run` against it, and `start()` of the `./mock`
// export in-process, typed.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installerLock, packageFiles } from '../build/package.mjs';
import { modelBasedCheck } from './cli-child.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NAME = 'public-api-v1-conformance';
/** A few requirements that touch listing, reading, cursors and errors. */
const REPRESENTATIVE = ['EP-PROJECTS-LIST', 'EP-PROJECTS-GET', 'LIST-CURSOR-UNDECODABLE'];

/** The environment of a user's shell: nothing of this project's npm script, its settings or its test run. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|CONFORMANCE_|VITEST|NODE_OPTIONS$|TEST$|INIT_CWD$)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

function exec(command: string, args: string[], cwd: string, env = userEnv(), timeoutMs = 180_000) {
  return new Promise<{ code: number; stdout: string; stderr: string; }>((resolve) => {
    execFile(command, args, { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Signals a process group (a child spawned detached, and what it started). */
function stopGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; }[];
}

describe.sequential('the package as installed from its tarball', () => {
  let dir: string;
  let project: string;
  let packed: Packed;
  let installError = '';
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-package-'));
    // npm pack runs prepack (build/package.mjs: dist/ and the declarations), as a publish would.
    const pack = await exec('npm', ['pack', '--json', '--pack-destination', dir], ROOT);
    if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr.slice(-3_000)}`);
    packed = (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Packed[])[0]!;
    console.log(
      `[package] ${packed.filename}: ${packed.files.length} files, ${(packed.size / 1e6).toFixed(2)} MB packed, ${
        (packed.unpackedSize / 1e6).toFixed(2)
      } MB unpacked`,
    );
    project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'sdk-tests', private: true, type: 'module' })}\n`);
    writeFileSync(join(project, 'package-lock.json'), `${JSON.stringify(installerLock('sdk-tests'), null, 1)}\n`);
    const install = await exec('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, packed.filename)], project);
    if (install.code !== 0) {
      installError = `npm install --offline of the tarball failed (npm ci of this project caches every package it needs):\n${install.stderr.slice(-3_000)}`;
    }
  }, 300_000);

  afterAll(async () => {
    for (const child of children) if (child.pid !== undefined) stopGroup(child.pid, 'SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the tarball holds the files package.json names, and neither the build nor the tests', () => {
    expect(packed.files.map((f) => f.path).sort()).toEqual(packageFiles());
    const paths = packed.files.map((f) => f.path);
    for (const required of ['bin/conformance.js', 'build/run.mjs', 'dist/cli.cjs', 'dist/mock.js', 'dist/registrations.json', 'dist/types/mock/index.d.ts']) {
      expect(paths).toContain(required);
    }
    expect(paths.filter((p) => p === 'build/bundle.mjs' || p.endsWith('.test.ts') || p.endsWith('.map') || p.startsWith('suites/self/'))).toEqual([]);
  });

  test('the install has the runtime dependencies only', () => {
    expect(installError).toBe('');
    const installed = readdirSync(join(project, 'node_modules'));
    expect(installed).toContain(NAME);
    expect(installed).toContain('vitest');
    // Build tools and the bundled framework are devDependencies; Prism and testcontainers optional peers.
    for (const absent of ['typescript', 'esbuild', 'tsx', 'fastify', 'testcontainers', '@stoplight']) expect(installed).not.toContain(absent);
  });

  test('npx conformance mock serves, and npx conformance run against it passes with its reports in the working directory', { timeout: 300_000 }, async () => {
    expect(installError).toBe('');
    // In a process group of its own: npx does not pass a signal on to the command it runs.
    const mock = spawn('npx', ['conformance', 'mock', '--port', '0'], { cwd: project, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.push(mock);
    let printed = '';
    const settings = await new Promise<Record<string, string>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the mock printed no settings within 60 s:\n${printed}`)), 60_000);
      const read = (d: Buffer) => {
        printed += d.toString();
        if (!/CONFORMANCE_SORT_FIELDS=/.test(printed)) return;
        clearTimeout(timer);
        resolve(Object.fromEntries([...printed.matchAll(/^export (CONFORMANCE_\w+)='([^']*)'$/gm)].map((m) => [m[1]!, m[2]!])));
      };
      mock.stdout.on('data', read);
      mock.stderr.on('data', read);
      mock.on('exit', (code) => reject(new Error(`the mock exited (${code}):\n${printed}`)));
    });
    expect(settings.CONFORMANCE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const run = await exec('npx', ['conformance', 'run', '--only', REPRESENTATIVE.join(',')], project, userEnv(settings), 240_000);
    expect(run.code, `${run.stdout.slice(-3_000)}\n${run.stderr.slice(-3_000)}`).toBe(0);
    const report = JSON.parse(readFileSync(join(project, 'out', 'conformance.json'), 'utf8')) as {
      target: { kind: string; };
      requirements: { id: string; status: string; }[];
    };
    expect(report.target.kind).toBe('deployment');
    const statuses = Object.fromEntries(report.requirements.filter((r) => REPRESENTATIVE.includes(r.id)).map((r) => [r.id, r.status]));
    expect(statuses).toEqual(Object.fromEntries(REPRESENTATIVE.map((id) => [id, 'passed'])));
    // An installed package runs dist/ as packed: nothing was built into it.
    expect(existsSync(join(project, 'node_modules', NAME, 'dist', '.build.lock'))).toBe(false);
    stopGroup(mock.pid!, 'SIGTERM');
  });

  test('a model-based failure: the printed replay is `npx conformance run`, and reproduces it alone in a folder of its own', { timeout: 300_000 }, async () => {
    expect(installError).toBe('');
    const { start } = await import('../mock/index.js');
    const mock = await start({ fault: 'patch-not-persisted', seed: 13 });
    try {
      const out = join(project, 'model');
      // the model-based check alone: the field it finds not persisted is one cause with every other check that meets it
      const first = await exec('npx', [
        'conformance',
        'run',
        '--only',
        'EP-PATCH-PERSISTS',
        '--check',
        modelBasedCheck(),
        '--seed',
        '4242',
        '--report-dir',
        out,
      ], project, userEnv(mock.settings), 240_000);
      expect(first.code, first.stderr.slice(-2000)).toBe(1);
      type Cause = { id: string; message: string; failure: { check: string; path: string | null; replay?: string; }; };
      const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { runId: string; causes: Cause[]; };
      const report = read(out);
      const cause = report.causes.find((c) => c.failure.check.startsWith('model-based:') && c.failure.path)!;
      expect(cause, JSON.stringify(report.causes.map((c) => c.failure.check.slice(0, 30)))).toBeDefined();
      // the non-secret settings go along as assignments (the same as the environment here); then the command
      const command = cause.failure.replay!.slice(cause.failure.replay!.indexOf('npx conformance run '));
      const words = (command.match(/'(?:[^']|'\\'')*'|\S+/g) ?? []).map((w) => w.replace(/^'|'$/g, '').replace(/'\\''/g, "'"));
      expect(words.slice(0, 3)).toEqual(['npx', 'conformance', 'run']);
      expect(words).toEqual(expect.arrayContaining(['--check', cause.failure.check, '--path', cause.failure.path!, '--report-dir', `model/again-${cause.id}`]));
      const replay = await exec('npx', words.slice(1), project, userEnv(mock.settings), 240_000);
      expect(replay.code, replay.stderr.slice(-2000)).toBe(1);
      const replayed = read(join(project, 'model', `again-${cause.id}`));
      const named = (text: string, runId: string) => text.split(runId).join('<run id>');
      expect(replayed.causes.map((c) => [named(c.message, replayed.runId), c.failure.path])).toEqual([[
        named(cause.message, report.runId),
        cause.failure.path,
      ]]);
    } finally {
      await mock.close();
    }
  });

  test('a target whose optional package is not installed is a misconfiguration, exit 2', { timeout: 60_000 }, async () => {
    expect(installError).toBe('');
    const run = await exec('npx', ['conformance', 'run', '--image', 'conformance-mock:local'], project);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/CONFORMANCE_IMAGE \(--image\) needs the package testcontainers, which is not installed: npm install testcontainers@\d/);
  });

  test('the ./mock export starts the mock in-process, typed, and ./report types the report', { timeout: 120_000 }, async () => {
    expect(installError).toBe('');
    writeFileSync(
      join(project, 'sdk.test.ts'),
      `import { faults, type MockOptions, type RunningMock, start } from '${NAME}/mock';
import type { Report } from '${NAME}/report';

const options: MockOptions = { seed: 7 };
const mock: RunningMock = await start(options);
const response = await fetch(\`\${mock.url}/api/public/v1/projects?limit=1\`, { headers: { authorization: \`Bearer \${mock.settings.CONFORMANCE_API_KEY}\` } });
const summary: Report['summary'] | undefined = undefined;
console.log(JSON.stringify({ status: response.status, faults: faults.length, summary }));
await mock.close();
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['sdk.test.ts'],
      }),
    );
    const types = await exec(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], project);
    expect(types.code, types.stdout).toBe(0);
    // The same module as users' tests run it, compiled to JavaScript.
    const compiled = ts.transpileModule(readFileSync(join(project, 'sdk.test.ts'), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(project, 'sdk.test.mjs'), compiled.outputText);
    const run = await exec(process.execPath, ['sdk.test.mjs'], project);
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { status: number; faults: number; };
    expect(printed.status).toBe(200);
    expect(printed.faults).toBeGreaterThan(0);
  });
});
