// Runs an entry of dist/ (build/bundle.mjs), rebuilding dist/ first when it is missing or
// any of its inputs changed since it was built, so an edited source is never run stale:
//
//   node build/run.mjs <entry> [args...]      e.g. node build/run.mjs cli mock --port 4010
//   node build/run.mjs --build                dist/ built when missing or stale (nothing in the installed package)
//
// The check stats the inputs listed in dist/manifest.json (about a hundred files, a few
// milliseconds). A rebuild runs build/bundle.mjs in a child process, one process at a time
// (dist/.build.lock): the others wait and use its build, as when the self-test starts many
// runs at once after an edit; in a child, because the caller may be a module loaded by
// vitest, whose module runner is no place to run esbuild and the validator generator. A
// CommonJS entry runs from V8's code cache (build/common-js.mjs), one cache per entry and
// first argument (the command), since each command compiles different functions at start.
// The installed package (npm pack, build/package.mjs) ships dist/ without build/bundle.mjs and its
// tools: there dist/ is run as packed, never checked nor rebuilt.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const BUNDLE = join(ROOT, 'build/bundle.mjs');
const LOCK = join(DIST, '.build.lock');
/**
 * Whether dist/ can be rebuilt here: in the project's work tree, not in the installed package,
 * which ships dist/ as `npm pack` built it and neither the build nor its tools (package.json `files`).
 */
const BUILDS = existsSync(BUNDLE);
/** A lock older than this is a build that died without removing it. */
const LOCK_STALE_MS = 120_000;

function readManifest() {
  try {
    return JSON.parse(readFileSync(join(DIST, 'manifest.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Why dist/ must be rebuilt, or undefined when it is up to date. */
export function staleReason(manifest = readManifest()) {
  if (!manifest?.entries) return 'dist/ has not been built';
  if (!BUILDS) return undefined;
  for (const input of manifest.inputs) {
    let mtime;
    try {
      mtime = statSync(join(ROOT, input)).mtimeMs;
    } catch {
      return `${input} is gone`;
    }
    if (mtime > manifest.builtAt) return `${input} changed`;
  }
  return undefined;
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Rebuilds dist/ unless another process does; returns once dist/ is fresh. */
function rebuild() {
  if (!BUILDS) throw new Error(`${DIST} is missing or incomplete, and this installed package cannot build it: install the package again`);
  mkdirSync(DIST, { recursive: true });
  for (;;) {
    let lock;
    try {
      lock = openSync(LOCK, 'wx');
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    if (lock !== undefined) {
      try {
        // A build may have finished while this process waited for the lock.
        const still = staleReason();
        if (still === undefined) return;
        process.stderr.write(`building dist/ (${still})\n`);
        const run = spawnSync(process.execPath, [BUNDLE], { stdio: ['ignore', 'ignore', 'inherit'] });
        if (run.status !== 0) throw new Error(`build/bundle.mjs failed (${run.status ?? run.signal})`);
        return;
      } finally {
        closeSync(lock);
        rmSync(LOCK, { force: true });
      }
    }
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { force: true });
    } catch {
      // released meanwhile
    }
    sleep(50);
    if (staleReason() === undefined) return;
  }
}

/** dist/'s manifest, after building or rebuilding dist/ when it is stale. */
function freshManifest() {
  if (staleReason() !== undefined) rebuild();
  return readManifest();
}

/**
 * The harness as built in dist/harness/ (built or rebuilt first when stale): the absolute path of
 * each built source (suites/harness/*.ts and what the suites import beside it) → its built module.
 */
export async function builtHarness() {
  const { harness } = freshManifest();
  return new Map(Object.entries(harness ?? {}).map(([source, file]) => [join(ROOT, source), join(DIST, file)]));
}

/** The path of an entry's file in dist/, built or rebuilt first when stale. */
export async function builtEntry(entry) {
  const found = freshManifest().entries[entry];
  if (!found) throw new Error(`dist/ has no entry ${entry}`);
  return join(DIST, found.file);
}

/** Runs an entry of dist/ with `args` as its command-line arguments. */
export async function runEntry(entry, args) {
  const found = freshManifest().entries[entry];
  if (!found) {
    process.stderr.write(`build/run.mjs: dist/ has no entry ${entry}\n`);
    process.exit(2);
  }
  const file = join(DIST, found.file);
  // The entry reads its own arguments from process.argv, as if it had been run directly.
  process.argv = [process.argv[0], file, ...args];
  if (found.hash === undefined) {
    await import(pathToFileURL(file).href);
  } else {
    const { runCommonJs } = await import('./common-js.mjs');
    const command = /^[a-z][a-z-]*$/.test(args[0] ?? '') ? args[0] : 'none';
    runCommonJs(file, join(DIST, 'cache', `${entry}-${found.hash}-${command}.v8`));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [entry, ...args] = process.argv.slice(2);
  // `npm ci` in the work tree (the `prepare` script): dist/ built when it is missing or stale. The
  // installed package ships this file but not the build, and has nothing to do.
  if (entry === '--build') {
    if (BUILDS) freshManifest();
    process.exit(0);
  }
  if (!entry) {
    process.stderr.write('usage: node build/run.mjs <entry> [args...]\n');
    process.exit(2);
  }
  // Not awaited: the command line's bundle includes this module (through the conformance config),
  // and a CommonJS bundle has no top-level await. A failure still ends the process, with its error.
  void runEntry(entry, args);
}
