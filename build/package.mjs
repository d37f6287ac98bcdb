// The package as users install it: what `npm pack` ships (package.json "files") and the
// declarations of its "exports", and the same package laid out with its production dependencies
// for the images (Dockerfile), which have no npm and no registry to install it from.
//
//   node build/package.mjs              build dist/ and dist/types/ (the `prepack` script)
//   node build/package.mjs --stage DIR  build dist/, then lay the package out in DIR as installed:
//                                       its files and node_modules/ with its production dependencies
//
// The package runs from dist/ as built here: it ships neither build/bundle.mjs nor the tools it
// needs (build/run.mjs never rebuilds dist/ where build/bundle.mjs is absent), so dist/ must hold
// everything a run reads, the registrations manifest included (built with `typescript`, a
// devDependency). The declarations of "exports" may name only Node's modules and the package's own
// dependencies: a type of the framework the mock bundles would not resolve where the package is
// installed, so the build fails instead of publishing it.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, DIST, ROOT } from './bundle.mjs';

const TYPES = join(DIST, 'types');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const toPosix = (p) => p.split(sep).join('/');

/** Files npm ships whatever "files" says (those of them that exist). */
const ALWAYS = /^(package\.json|README(\..*)?|LICEN[CS]E(\..*)?)$/i;
/** Never shipped, never walked. */
const NEVER_WALKED = new Set(['node_modules', '.git']);

/** A "files" entry as a regular expression over a path relative to the package (gitignore's glob: *, **, ?). */
function globPattern(glob) {
  const body = glob.replace(/^\/+|\/+$/g, '').split(/(\*\*\/|\*\*|\*|\?)/).map((part) => {
    if (part === '**/') return '(?:.*/)?';
    if (part === '**') return '.*';
    if (part === '*') return '[^/]*';
    if (part === '?') return '[^/]';
    return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }).join('');
  // An entry that names a folder takes everything under it.
  return new RegExp(`^${body}(?:/.*)?$`);
}

function walk(dir, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (NEVER_WALKED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, found);
    else if (entry.isFile()) found.push(toPosix(relative(ROOT, path)));
  }
  return found;
}

/**
 * The files of the package, relative to the project, sorted: each file is in when the last "files"
 * entry that matches it is not negated (`!`), as npm reads "files"; package.json, the README and a
 * licence always are. build/package.test.ts holds this list to `npm pack --dry-run`'s.
 */
export function packageFiles(root = ROOT) {
  const rules = readJson(join(root, 'package.json')).files.map((entry) => {
    const negated = entry.startsWith('!');
    return { negated, pattern: globPattern(negated ? entry.slice(1) : entry) };
  });
  const included = (path) => {
    let verdict = ALWAYS.test(path);
    for (const { negated, pattern } of rules) if (pattern.test(path)) verdict = !negated;
    return verdict;
  };
  return walk(root).filter(included).sort();
}

/**
 * The package's production dependencies as package-lock.json has them (every package npm did not
 * install for a devDependency alone): location under node_modules/ → the lock's entry.
 */
export function productionLock(root = ROOT) {
  const { packages } = readJson(join(root, 'package-lock.json'));
  return Object.fromEntries(
    Object.entries(packages).filter(([location, entry]) => location.startsWith('node_modules/') && !entry.dev && !entry.devOptional && !entry.link),
  );
}

/**
 * The lockfile of a project that installs the package (`npm install <tarball>`) at the versions this
 * one is tested with: npm then needs no registry's metadata, only the packages themselves, which
 * `npm ci` of this project left in npm's cache.
 */
export function installerLock(name, root = ROOT) {
  return { name, lockfileVersion: 3, requires: true, packages: { '': { name }, ...productionLock(root) } };
}

/** The folders of the production dependencies, as installed here; an optional one only where it is installed. */
export function productionPackages(root = ROOT) {
  return Object.entries(productionLock(root))
    .filter(([location, entry]) => {
      if (existsSync(join(root, location))) return true;
      // An optional package is left out where it does not install (another platform's binary).
      if (entry.optional) return false;
      throw new Error(`${location} is a production dependency but is not installed (run npm ci; is it left out of the build context?)`);
    })
    .map(([location]) => location)
    .sort();
}

/** Lays the package out in `dest` as `npm install` of its tarball would, dependencies included. */
export function stage(dest) {
  rmSync(dest, { recursive: true, force: true });
  for (const file of packageFiles()) cpSync(join(ROOT, file), join(dest, file), { preserveTimestamps: true });
  for (const location of productionPackages()) {
    const from = join(ROOT, location);
    // Packages nested under this one are entries of their own (production ones only).
    const nested = join(from, 'node_modules');
    cpSync(from, join(dest, location), { recursive: true, filter: (path) => path !== nested });
  }
}

/** Source (.ts) → its declaration under dist/types/, for each "exports" entry that has types. */
function exportedDeclarations() {
  const { exports } = readJson(join(ROOT, 'package.json'));
  return Object.values(exports).flatMap((target) => (typeof target === 'object' && target.types ? [target.types] : [])).map((types) => {
    const declaration = resolve(ROOT, types);
    const source = join(ROOT, relative(TYPES, declaration)).replace(/\.d\.ts$/, '.ts');
    return { source, declaration };
  });
}

/**
 * The declarations of "exports" in dist/types/: emitted by the compiler from their sources, then
 * only those the entry points reach are kept. Fails when one imports a package the installed
 * package would not have.
 */
export function emitDeclarations() {
  const ts = createRequire(import.meta.url)('typescript');
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const emitted = join(DIST, `.types-${process.pid}`);
  const entries = exportedDeclarations();
  const program = ts.createProgram(entries.map((e) => e.source), {
    ...config.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: ROOT,
    outDir: emitted,
  });
  try {
    const result = program.emit();
    const problems = [...result.diagnostics];
    if (problems.length > 0) {
      throw new Error(ts.formatDiagnostics(problems, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' }));
    }
    const { dependencies = {} } = readJson(join(ROOT, 'package.json'));
    const reached = new Set();
    const visit = (declaration, via) => {
      if (reached.has(declaration)) return;
      reached.add(declaration);
      const text = readFileSync(join(emitted, declaration), 'utf8');
      for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g)) {
        if (specifier.startsWith('.')) {
          visit(toPosix(join(dirname(declaration), specifier.replace(/\.js$/, '.d.ts'))), [...via, declaration]);
        } else if (!specifier.startsWith('node:')) {
          const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
          if (!Object.hasOwn(dependencies, name)) {
            throw new Error(`the published declarations import ${specifier}, not a dependency of the package: ${[...via, declaration].join(' → ')}`);
          }
        }
      }
    };
    for (const { declaration } of entries) visit(toPosix(relative(TYPES, declaration)), []);
    rmSync(TYPES, { recursive: true, force: true });
    for (const declaration of reached) cpSync(join(emitted, declaration), join(TYPES, declaration));
    return [...reached].sort();
  } finally {
    rmSync(emitted, { recursive: true, force: true });
  }
}

/** dist/ as the package needs it: built, with the registrations manifest. */
async function buildDist() {
  await bundle();
  if (!existsSync(join(DIST, 'registrations.json'))) {
    throw new Error('dist/registrations.json was not built (is `typescript` installed?): the package cannot run without it');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const [flag, dest] = process.argv.slice(2);
  await buildDist();
  if (flag === '--stage') {
    if (!dest) {
      process.stderr.write('usage: node build/package.mjs [--stage DIR]\n');
      process.exit(2);
    }
    stage(resolve(dest));
    process.stdout.write(`package laid out in ${dest} (${packageFiles().length} files, ${productionPackages().length} dependencies)\n`);
  } else {
    const declarations = emitDeclarations();
    process.stdout.write(`dist/ and ${declarations.length} declarations of "exports" built in ${(performance.now() - started).toFixed(0)} ms\n`);
  }
}
