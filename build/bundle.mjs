// Builds dist/: the TypeScript entry points bundled to plain JavaScript with esbuild, and
// the schema validators precompiled by ajv (specs/validator-code.ts), so that running the
// mock or the command line compiles no TypeScript and no schema at start. Run by
// `npm ci`/`npm install` (the `prepare` script) and by build/run.mjs whenever an input is
// newer than the build.
//
//   node build/bundle.mjs            build dist/
//
// Output (git-ignored), every file written under a temporary name and renamed into place,
// entries last, so a process starting meanwhile loads either the old build or the new one:
//   dist/cli.cjs           the command line, one CommonJS file (run from V8's code cache by
//                          build/common-js.mjs; the caches go to dist/cache/)
//   dist/<entry>.js        the other ESM_ENTRIES, ES modules; shared code in dist/chunk-<hash>.js
//   dist/validators.cjs    ajv standalone code of every schema (specs/validator.ts loads it
//                          when its schema hash matches the schemas on disk)
//   dist/report-validator.cjs  the same of specs/report.schema.json (reports/schema.ts)
//   dist/registrations.json    the suites' check registrations, read by the TypeScript compiler
//                          (suites/harness/registration/registrations.ts): a run from dist/ needs no compiler;
//                          not written where the compiler is not installed (the package needs it:
//                          build/package.mjs fails without it)
//   dist/harness/<path>.js the harness the conformance suites import, and the project modules it
//                          imports, each source compiled to one ES module at its own path: the test
//                          worker imports them as they are, without vitest's per-module transform
//                          (see suites/conformance.config.ts)
//   dist/manifest.json     build time, entries (with a hash of each CommonJS bundle), the harness's
//                          sources and their modules, and every input, for build/run.mjs's
//                          freshness check
//
// Only the mock's run-time packages are bundled (BUNDLED_PACKAGES); the others load from
// node_modules. Sources are not type-checked here (`npm run typecheck` does). `import.meta.url`
// in a project module is rewritten to that module's source location, so the paths it resolves
// (schemas, specs/openapi.json, the suites) are the same from dist/ as from the sources.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
export const MANIFEST = join(DIST, 'manifest.json');

/** dist/<key>.cjs ← source: one CommonJS file each. */
export const COMMONJS_ENTRIES = { cli: 'bin/cli.ts' };

/** dist/<key>.js ← source: ES modules sharing chunks (imported by vitest's global set-up, the benchmark, the images, the package's ./mock). */
export const ESM_ENTRIES = {
  mock: 'mock/index.ts',
  'container-relay': 'mock/container-relay.ts',
  'bench-serve': 'bench/serve.ts',
};

/** The suites' harness, built to dist/harness/ (see harnessRoots). */
export const HARNESS_DIR = 'suites/harness';
const HARNESS_OUT = join(DIST, 'harness');
const REGISTRATIONS = join(DIST, 'registrations.json');

/** Files that are not imported but still shape the build's output. */
const EXTRA_INPUTS = [
  'build/bundle.mjs',
  'specs/validator-code.ts',
  'reports/schema.ts',
  'specs/report.schema.json',
  'suites/harness/registration/registration-reader.ts',
  'package-lock.json',
];

/** Superseded files stay this long, for a process that loaded the previous entry just before. */
const STALE_CHUNK_MS = 60_000;

/**
 * The mock's own run-time packages are bundled (one file loads faster than hundreds, about
 * 25 ms less at start); every other package stays in node_modules: the test runner, Prism,
 * testcontainers and undici are loaded only by commands that need them.
 */
const BUNDLED_PACKAGES = /^fastify$/;

const toPosix = (p) => p.split(sep).join('/');
const packageName = (path) => (path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]);

/**
 * Project sources as esbuild gets them. Every `import.meta.url` becomes the module's source URL
 * relative to dist/: from the output file's own URL (ESM), or from __bundleUrl, set by the
 * banner (CommonJS). In CommonJS, an `await import()` of a package (vitest is ES-only) becomes a call
 * of __dynamicImport, which build/common-js.mjs passes in: code compiled from V8's code cache
 * loses what a script's own import() needs, and fails with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING.
 */
function projectSources(format, outdirOf = () => DIST) {
  const base = format === 'cjs' ? '__bundleUrl' : 'import.meta.url';
  return {
    name: 'project-sources',
    setup(build) {
      build.onLoad({ filter: /\.([cm]?ts|mjs)$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        let text = readFileSync(args.path, 'utf8');
        const url = `new URL(${JSON.stringify(toPosix(relative(outdirOf(args.path), args.path)))}, ${base}).href`;
        text = text.replace(/\bimport\.meta\.url\b/g, url);
        if (format === 'cjs') {
          // `await import('pkg')` only: `typeof import('pkg')` and other type positions stay.
          text = text.replace(/\bawait\s+import\((['"])([^./'"][^'"]*)\1\)/g, (call, _q, specifier) =>
            BUNDLED_PACKAGES.test(packageName(specifier)) ? call : `await __dynamicImport(${JSON.stringify(specifier)})`);
        }
        return { contents: text, loader: args.path.endsWith('.mjs') ? 'js' : 'ts' };
      });
    },
  };
}

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

const COMMON = { bundle: true, write: false, platform: 'node', target: 'node20', absWorkingDir: ROOT, metafile: true, sourcemap: 'linked', logLevel: 'error' };

function esmBuild() {
  return esbuild.build({
    ...COMMON,
    entryPoints: Object.fromEntries(Object.entries(ESM_ENTRIES).map(([k, v]) => [k, join(ROOT, v)])),
    format: 'esm',
    splitting: true,
    outdir: DIST,
    chunkNames: 'chunk-[hash]',
    // Bundled CommonJS packages call require(); ES modules have none of their own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [projectSources('esm'), externalPackages],
  });
}

/**
 * Where the harness starts: every non-test module of suites/harness/, and each project module a
 * suite imports from outside it (e.g. specs/ids.ts).
 */
export function harnessRoots() {
  const own = readdirSync(join(ROOT, HARNESS_DIR)).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts')).map((n) => `${HARNESS_DIR}/${n}`);
  const beside = new Set();
  for (const name of readdirSync(join(ROOT, 'suites')).filter((n) => n.endsWith('.check.ts'))) {
    for (const m of readFileSync(join(ROOT, 'suites', name), 'utf8').matchAll(/\bfrom\s+['"]\.\.\/([\w/.-]+)\.js['"]/g)) {
      const source = `${m[1]}.ts`;
      try {
        if (statSync(join(ROOT, source)).isFile()) beside.add(source);
      } catch {
        // not a TypeScript source: left to the test transform
      }
    }
  }
  return [...own, ...beside];
}

/** dist/harness/<path>.js of a source (its imports of one another stay as written). */
const harnessOutput = (source) => join(HARNESS_OUT, source.replace(/\.[cm]?ts$/, '.js'));

/**
 * The harness and every project module it imports, each compiled on its own (not bundled), so
 * that each module the suites import has one instance, at a path that names its source (as stack
 * traces show it). Returns the build and the sources, relative to the project.
 */
async function harnessBuild() {
  const graph = await esbuild.build({
    ...COMMON,
    entryPoints: harnessRoots().map((s) => join(ROOT, s)),
    format: 'esm',
    splitting: true,
    sourcemap: false,
    outdir: HARNESS_OUT,
    plugins: [externalPackages],
  });
  const sources = Object.keys(graph.metafile.inputs).map(toPosix).filter((p) => !p.startsWith('node_modules/') && /\.[cm]?ts$/.test(p)).sort();
  const build = await esbuild.build({
    ...COMMON,
    bundle: false,
    entryPoints: sources.map((s) => join(ROOT, s)),
    format: 'esm',
    outbase: ROOT,
    outdir: HARNESS_OUT,
    plugins: [projectSources('esm', (path) => dirname(harnessOutput(toPosix(relative(ROOT, path)))))],
  });
  return { build, sources };
}

function commonJsBuild() {
  return esbuild.build({
    ...COMMON,
    entryPoints: Object.fromEntries(Object.entries(COMMONJS_ENTRIES).map(([k, v]) => [k, join(ROOT, v)])),
    format: 'cjs',
    outdir: DIST,
    outExtension: { '.js': '.cjs' },
    // Run directly by node (not through build/common-js.mjs), the bundle's own import() serves.
    banner: {
      js:
        'var __bundleUrl = require("node:url").pathToFileURL(__filename).href; var __dynamicImport = typeof __dynamicImport === "function" ? __dynamicImport : (s) => import(s);',
    },
    plugins: [projectSources('cjs'), externalPackages],
  });
}

function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
}

/** Runs `name` of a TypeScript module (a generator of precompiled code), bundled on the fly. */
async function generate(source, name) {
  const result = await esbuild.build({
    ...COMMON,
    entryPoints: [join(ROOT, source)],
    format: 'esm',
    sourcemap: false,
    metafile: false,
    packages: 'external',
    outfile: join(DIST, 'generator.mjs'),
    plugins: [projectSources('esm')],
  });
  const tmp = join(DIST, `.generator-${source.replace(/\W/g, '-')}-${process.pid}.mjs`);
  writeFileSync(tmp, result.outputFiles[0].contents);
  try {
    return await (await import(pathToFileURL(tmp).href))[name]();
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The ajv standalone module of every schema (specs/validator-code.ts). */
const precompileValidators = () => generate('specs/validator-code.ts', 'standaloneValidators');

/** The ajv standalone module of the report schema (reports/schema.ts). */
const precompileReportValidator = () => generate('reports/schema.ts', 'reportValidatorCode');

/** The suites' registrations (suites/harness/registration/registrations.ts); undefined where `typescript`, a devDependency, is not installed. */
async function readRegistrations() {
  try {
    return await generate('suites/harness/registration/registrations.ts', 'registrationsManifest');
  } catch (error) {
    if (['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND'].includes(error?.code) && /'typescript'/.test(error.message)) return undefined;
    throw error;
  }
}

function removeSuperseded(current) {
  const now = Date.now();
  const visit = (dir, recurse) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (recurse) visit(path, true);
        continue;
      }
      const superseded = /\.c?js(\.map)?$/.test(entry.name) && !PRECOMPILED.includes(entry.name) && !current.has(path);
      const leftover = /\.tmp-\d+$/.test(entry.name);
      if ((superseded || leftover) && now - statSync(path).mtimeMs > STALE_CHUNK_MS) rmSync(path, { force: true });
    }
  };
  visit(DIST, false);
  visit(HARNESS_OUT, true);
  // Code caches name the bundle's hash; those of older bundles are never read again.
  rmSync(join(DIST, 'cache'), { recursive: true, force: true });
}

/** Written by the generators rather than esbuild: never superseded. */
const PRECOMPILED = ['validators.cjs', 'report-validator.cjs'];

/** The schema documents: the precompiled validators depend on them. */
function schemaFiles() {
  return readdirSync(join(ROOT, 'specs/schemas')).filter((n) => n.endsWith('.json')).map((n) => `specs/schemas/${n}`);
}

export async function bundle() {
  const builtAt = Date.now();
  mkdirSync(DIST, { recursive: true });
  const [esm, cjs, harness, validators, reportValidator, registrations] = await Promise.all([
    esmBuild(),
    commonJsBuild(),
    harnessBuild(),
    precompileValidators(),
    precompileReportValidator(),
    readRegistrations(),
  ]);
  const harnessFiles = Object.fromEntries(harness.sources.map((s) => [s, toPosix(relative(DIST, harnessOutput(s)))]));
  const entryPaths = new Set([
    ...Object.keys(ESM_ENTRIES).map((k) => join(DIST, `${k}.js`)),
    ...Object.keys(COMMONJS_ENTRIES).map((k) => join(DIST, `${k}.cjs`)),
  ]);
  const outputs = [...esm.outputFiles, ...cjs.outputFiles, ...harness.build.outputFiles].sort((a, b) =>
    Number(entryPaths.has(a.path)) - Number(entryPaths.has(b.path))
  );
  writeAtomically(join(DIST, 'validators.cjs'), validators);
  writeAtomically(join(DIST, 'report-validator.cjs'), reportValidator);
  if (registrations) writeAtomically(REGISTRATIONS, registrations);
  else rmSync(REGISTRATIONS, { force: true });
  for (const file of outputs) writeAtomically(file.path, file.contents);
  const hashOf = (path) => createHash('sha256').update(outputs.find((f) => f.path === path).contents).digest('hex').slice(0, 16);
  const entries = {
    ...Object.fromEntries(Object.keys(ESM_ENTRIES).map((k) => [k, { file: `${k}.js` }])),
    ...Object.fromEntries(Object.keys(COMMONJS_ENTRIES).map((k) => [k, { file: `${k}.cjs`, hash: hashOf(join(DIST, `${k}.cjs`)) }])),
  };
  // Packages are covered by package-lock.json: an install that changes one rewrites it.
  const built = [esm, cjs, harness.build].flatMap((b) => Object.keys(b.metafile.inputs)).map(toPosix).filter((p) => !p.startsWith('node_modules/'));
  const inputs = [...new Set([...built, ...EXTRA_INPUTS, ...schemaFiles()])].sort();
  writeAtomically(MANIFEST, `${JSON.stringify({ builtAt, esbuild: esbuild.version, entries, harness: harnessFiles, inputs }, null, 1)}\n`);
  removeSuperseded(new Set(outputs.map((f) => f.path)));
  return { builtAt, inputs };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const { inputs } = await bundle();
  process.stdout.write(`dist/ built from ${inputs.length} inputs in ${(performance.now() - started).toFixed(0)} ms\n`);
}
