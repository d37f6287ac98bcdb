// Runs an entry of dist/ (build/bundle.mjs), rebuilding dist/ first when it is missing or
// any of its inputs changed since it was built, so an edited source is never run stale:
//
//   node build/run.mjs <entry> [args...]      e.g. node build/run.mjs cli mock --port 4010
//
// The check stats the inputs listed in dist/manifest.json (about a hundred files, a few
// milliseconds); esbuild is loaded only when a rebuild is needed. A CommonJS entry runs from
// V8's code cache (build/common-js.mjs), one cache per entry and first argument (the
// command), since each command compiles different functions at start.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');

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

/** dist/'s manifest, after building or rebuilding dist/ when it is stale. */
async function freshManifest() {
  const manifest = readManifest();
  const reason = staleReason(manifest);
  if (reason === undefined) return manifest;
  const { bundle } = await import('./bundle.mjs');
  process.stderr.write(`building dist/ (${reason})\n`);
  await bundle();
  return readManifest();
}

/** The path of an entry's file in dist/, built or rebuilt first when stale. */
export async function builtEntry(entry) {
  const found = (await freshManifest()).entries[entry];
  if (!found) throw new Error(`dist/ has no entry ${entry}`);
  return join(DIST, found.file);
}

/** Runs an entry of dist/ with `args` as its command-line arguments. */
export async function runEntry(entry, args) {
  const found = (await freshManifest()).entries[entry];
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
  if (!entry) {
    process.stderr.write('usage: node build/run.mjs <entry> [args...]\n');
    process.exit(2);
  }
  await runEntry(entry, args);
}
