// Runs a CommonJS bundle of dist/ compiled from V8's code cache when there is one, and
// writes the cache when there is none (or V8 rejected it): most of a start-up's time was
// parsing and compiling the bundle, which the cache skips. Node 22 has this built in
// (module.enableCompileCache), Node 20 only for scripts, hence CommonJS and vm.Script.
//
// V8 checks a cache against the source's length only, so the cache file's name carries a
// hash of the bundle's content (written into dist/manifest.json by build/bundle.mjs): a
// rebuilt bundle never meets an old cache. The cache is written once the start-up work is
// done, WRITE_AFTER_MS after the start, so it holds the functions start-up compiled, not
// only the top level; a process that ends sooner (--help, a failed start) writes none, so
// its few functions never stand for the command's.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

const WRITE_AFTER_MS = 1_000;

/** Runs `file` as the main module would run; `cachePath` is where its code cache is read and written. */
export function runCommonJs(file, cachePath) {
  const source = readFileSync(file, 'utf8');
  let cachedData;
  try {
    cachedData = readFileSync(cachePath);
  } catch {
    // no cache yet
  }
  // CommonJS's own wrapper, plus __dynamicImport: the bundle's import() of packages (build/bundle.mjs).
  const wrapped = `(function (exports, require, module, __filename, __dirname, __dynamicImport) { ${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const module = { exports: {}, filename: file, id: '.', loaded: false };
  const require = createRequire(file);
  // Packages resolve from build/ as from dist/: both sit beside node_modules.
  const dynamicImport = (specifier) => import(specifier);
  script.runInThisContext().call(module.exports, module.exports, require, module, file, dirname(file), dynamicImport);
  if (cachedData === undefined || script.cachedDataRejected) writeLater(script, cachePath);
}

function writeLater(script, cachePath) {
  const write = () => {
    try {
      mkdirSync(dirname(cachePath), { recursive: true });
      const tmp = `${cachePath}.tmp-${process.pid}`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cachePath);
    } catch {
      // a read-only install runs without the cache
    }
  };
  setTimeout(write, WRITE_AFTER_MS).unref();
}
