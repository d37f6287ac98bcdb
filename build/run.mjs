// Runs an entry of dist/ (build/bundle.mjs), rebuilding dist/ first when it is missing or
// any of its inputs changed since it was built, so an edited source is never run stale:
//
//   node build/run.mjs <entry> [args...]      e.g. node build/run.mjs cli mock --port 4010
//
// The check stats the inputs listed in dist/manifest.json (about a hundred files, a few
// milliseconds); esbuild is loaded only when a rebuild is needed.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');

/** Why dist/ must be rebuilt, or undefined when it is up to date. */
export function staleReason() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(DIST, 'manifest.json'), 'utf8'));
  } catch {
    return 'dist/ has not been built';
  }
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

/** The path of dist/<entry>.js, built or rebuilt first when stale. */
export async function builtEntry(entry) {
  const reason = staleReason();
  if (reason !== undefined) {
    const { bundle } = await import('./bundle.mjs');
    process.stderr.write(`building dist/ (${reason})\n`);
    await bundle();
  }
  return join(DIST, `${entry}.js`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [entry, ...args] = process.argv.slice(2);
  if (!entry) {
    process.stderr.write('usage: node build/run.mjs <entry> [args...]\n');
    process.exit(2);
  }
  const file = await builtEntry(entry);
  // The entry reads its own arguments from process.argv, as if it had been run directly.
  process.argv = [process.argv[0], file, ...args];
  await import(pathToFileURL(file).href);
}
