// Builds dist/: the TypeScript entry points bundled to plain ES modules with esbuild, and
// the schema validators precompiled by ajv (specs/validator-code.ts), so that running the
// mock or the command line compiles nothing at start. Run by `npm ci`/`npm install`
// (the `prepare` script) and by build/run.mjs whenever a source is newer than the build.
//
//   node build/bundle.mjs            build dist/
//
// Output (git-ignored), every file written under a temporary name and renamed into place,
// entries last, so a process starting meanwhile loads either the old build or the new one:
//   dist/<entry>.js        one per ENTRIES key; shared code in dist/chunk-<hash>.js
//   dist/validators.cjs    ajv standalone code of every schema (specs/validator.ts loads it
//                          when its schema hash matches the schemas on disk)
//   dist/manifest.json     build time and every input, for build/run.mjs's freshness check
//
// Only the mock's run-time packages are bundled (BUNDLED_PACKAGES); the others load from
// node_modules. Sources are not type-checked here (`npm run typecheck` does). `import.meta.url` in a project
// module is rewritten to that module's source location, so the paths it resolves (schemas,
// specs/openapi.json, the suites) are the same from dist/ as from the sources.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
export const MANIFEST = join(DIST, 'manifest.json');

/** dist/<key>.js ← source. */
export const ENTRIES = {
  cli: 'bin/cli.ts',
  mock: 'mock/index.ts',
  'container-relay': 'mock/container-relay.ts',
  'bench-serve': 'mock/bench/serve.ts',
};

/** Files that are not imported but still shape the build's output. */
const EXTRA_INPUTS = ['build/bundle.mjs', 'specs/validator-code.ts', 'package-lock.json'];

/** Superseded chunks stay this long, for a process that loaded the previous entry just before. */
const STALE_CHUNK_MS = 60_000;

const toPosix = (p) => p.split(sep).join('/');

/** Every `import.meta.url` of a project module, as that module's source URL relative to dist/. */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      const fromDist = toPosix(relative(DIST, args.path));
      const url = `new URL(${JSON.stringify(fromDist)}, import.meta.url).href`;
      return { contents: text.replace(/\bimport\.meta\.url\b/g, url), loader: 'ts' };
    });
  },
};

/**
 * The mock's own run-time packages are bundled (one file loads faster than hundreds, about
 * 25 ms less at start); every other package stays in node_modules: the test runner, Prism,
 * testcontainers and undici are loaded only by commands that need them.
 */
const BUNDLED_PACKAGES = /^(fastify|@fastify\/multipart)$/;

const packageName = (path) => (path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]);

const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const fromPackage = args.importer.includes(`${sep}node_modules${sep}`);
      if (fromPackage || BUNDLED_PACKAGES.test(packageName(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
}

/** The ajv standalone module of every schema, from the TypeScript generator bundled on the fly. */
async function precompileValidators() {
  const result = await esbuild.build({
    entryPoints: [join(ROOT, 'specs/validator-code.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outfile: join(DIST, 'validator-code.mjs'),
    plugins: [sourceUrls],
    logLevel: 'error',
  });
  const tmp = join(DIST, `.validator-code-${process.pid}.mjs`);
  writeFileSync(tmp, result.outputFiles[0].contents);
  try {
    const { standaloneValidators } = await import(pathToFileURL(tmp).href);
    return standaloneValidators();
  } finally {
    rmSync(tmp, { force: true });
  }
}

function removeSuperseded(current) {
  const now = Date.now();
  for (const name of readdirSync(DIST)) {
    const path = join(DIST, name);
    const superseded = /^chunk-.*\.js(\.map)?$/.test(name) && !current.has(path);
    const leftover = /\.tmp-\d+$/.test(name);
    if ((superseded || leftover) && now - statSync(path).mtimeMs > STALE_CHUNK_MS) rmSync(path, { force: true });
  }
}

export async function bundle() {
  const builtAt = Date.now();
  mkdirSync(DIST, { recursive: true });
  const result = await esbuild.build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([k, v]) => [k, join(ROOT, v)])),
    bundle: true,
    splitting: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    absWorkingDir: ROOT,
    // Bundled CommonJS packages call require(); ES modules have none of their own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    outdir: DIST,
    chunkNames: 'chunk-[hash]',
    sourcemap: 'linked',
    metafile: true,
    plugins: [sourceUrls, externalPackages],
    logLevel: 'error',
  });
  const validators = await precompileValidators();
  const entryPaths = new Set(Object.keys(ENTRIES).map((k) => join(DIST, `${k}.js`)));
  const outputs = [...result.outputFiles].sort((a, b) => Number(entryPaths.has(a.path)) - Number(entryPaths.has(b.path)));
  writeAtomically(join(DIST, 'validators.cjs'), validators);
  for (const file of outputs) writeAtomically(file.path, file.contents);
  // Packages are covered by package-lock.json: an install that changes one rewrites it.
  const sources = Object.keys(result.metafile.inputs).map(toPosix).filter((p) => !p.startsWith('node_modules/'));
  const inputs = [...new Set([...sources, ...EXTRA_INPUTS, ...schemaFiles()])].sort();
  writeAtomically(MANIFEST, `${JSON.stringify({ builtAt, esbuild: esbuild.version, inputs }, null, 1)}\n`);
  removeSuperseded(new Set(outputs.map((f) => f.path)));
  return { builtAt, inputs };
}

/** The schema documents: the precompiled validators depend on them. */
function schemaFiles() {
  return readdirSync(join(ROOT, 'specs/schemas')).filter((n) => n.endsWith('.json')).map((n) => `specs/schemas/${n}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const { inputs } = await bundle();
  process.stdout.write(`dist/ built from ${inputs.length} inputs in ${(performance.now() - started).toFixed(0)} ms\n`);
}
