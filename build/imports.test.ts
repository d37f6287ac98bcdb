// The import graph of the whole tree runs one way: no circle between files, and no import from a
// top-level folder to a higher one. Every relative import counts — static, `import type`,
// re-exports and `import('literal')` — and a test belongs to the folder it sits in.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * The top-level folders, lowest first: an import may go to its own folder or to a lower rank.
 * `build` and `fixtures` are leaves: they import no other folder, not even each other.
 */
const LAYER = {
  build: 0,
  fixtures: 0,
  specs: 1,
  contract: 2,
  mock: 3,
  reports: 4,
  integrations: 5,
  suites: 6,
  bin: 7,
  bench: 8,
} as const satisfies Record<string, number>;
type Folder = keyof typeof LAYER;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIPPED = new Set(['node_modules', 'dist', 'out', '.git']);
const CODE = /\.(ts|mts|mjs|js)$/;

const toPosix = (p: string) => p.split(sep).join('/');

function codeFiles(dir = ROOT): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...codeFiles(path));
    else if (entry.isFile() && CODE.test(entry.name) && !entry.name.endsWith('.d.mts') && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** The file a relative specifier names: `./x.js` is `./x.ts` when that exists (NodeNext resolution). */
function resolveSpecifier(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    base.replace(/\.cjs$/, '.cts'),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  return candidates.find((c) => existsSync(c)) ?? base;
}

/** Relative imports of one file, as the compiler reads them (type-only and dynamic ones included). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('./') || s.startsWith('../')).map((s) => resolveSpecifier(file, s));
}

const files = codeFiles().map((f) => toPosix(relative(ROOT, f))).sort();
const graph = new Map(files.map((f) => [f, [...new Set(importsOf(join(ROOT, f)).map((t) => toPosix(relative(ROOT, t))))].sort()]));
const folderOf = (path: string): string | undefined => (path.includes('/') ? path.split('/')[0] : undefined);
const isFolder = (name: string): name is Folder => Object.hasOwn(LAYER, name);

/** Circles between files: one per strongly connected component of more than one file (or a file importing itself). */
function circles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(cycleThrough(new Set(component)));
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

/** One circle within a component, as a path that ends where it starts (breadth-first, so the shortest from its first file). */
function cycleThrough(component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/**
 * The layers inside two folders, lowest first, as paths under the folder ('' for the files at its
 * root, above every sub-folder unless placed). A file imports its own layer or a lower one; two
 * layers of the same rank do not import each other.
 */
const INNER_LAYERS = {
  // the reference's behaviour alone; the seed data over its store; faults (through hooks) and the
  // speed layer beside each other, never one into the other; the library that composes them; its tests' helpers
  // (the options, which the faults' declarations name, sit below them)
  mock: { reference: 0, seed: 1, 'options.ts': 1, faults: 2, fast: 2, '': 3, testing: 4 },
  // run state; the HTTP transport, which knows no rule of the document; judging responses; planning
  // the coverage and reading registrations; the checks' runtime at the root (sessions, records, views)
  'suites/harness': { run: 0, transport: 1, judge: 2, plan: 3, registration: 3, '': 4 },
} as const satisfies Record<string, Record<string, number>>;

/** The layer of a file inside `folder`: its first path segment below it (a file at the root: its name); undefined outside the folder. */
function innerLayer(folder: string, path: string): string | undefined {
  if (!path.startsWith(`${folder}/`)) return undefined;
  return path.slice(folder.length + 1).split('/')[0]!;
}

describe('the import graph', () => {
  test('reads the tree', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get('build/imports.test.ts')).toEqual([]);
  });

  test('has no circle between files', () => {
    expect(circles().map((c) => c.join(' -> '))).toEqual([]);
  });

  test('imports run only from a top-level folder to itself or a lower one', () => {
    const upward: string[] = [];
    for (const [from, targets] of graph) {
      const source = folderOf(from);
      // Files at the root (vitest.config.ts) configure the whole tree: above every folder.
      if (source === undefined || !isFolder(source)) continue;
      for (const to of targets) {
        const folder = folderOf(to);
        if (folder === source) continue;
        if (folder === undefined || !isFolder(folder) || LAYER[folder] >= LAYER[source]) upward.push(`${from} -> ${to}`);
      }
    }
    expect(upward).toEqual([]);
  });

  // Tests are outside these layers: a test may start the whole of its folder (mock/testing/ is there for them).
  test('imports inside mock/ and suites/harness/ run from a layer to itself or a lower one', () => {
    const wrong: string[] = [];
    for (const [folder, layers] of Object.entries(INNER_LAYERS) as [string, Record<string, number>][]) {
      const rank = (layer: string) => layers[layer] ?? (layer.includes('.') ? layers[''] : undefined);
      for (const [from, targets] of graph) {
        const source = innerLayer(folder, from);
        if (source === undefined || from.endsWith('.test.ts')) continue;
        for (const to of targets) {
          const target = innerLayer(folder, to);
          if (target === undefined || target === source) continue;
          const [a, b] = [rank(source), rank(target)];
          // files at the root of a folder share its root layer and may import each other
          if (a === layers[''] && b === layers[''] && !(source in layers) && !(target in layers)) continue;
          if (a === undefined || b === undefined || b >= a) wrong.push(`${from} -> ${to}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  test('the transport of the harness imports no judge: the session hands it the audit', () => {
    const judged = [...graph].filter(([from]) => innerLayer('suites/harness', from) === 'transport').flatMap(([from, targets]) =>
      targets.filter((t) => innerLayer('suites/harness', t) === 'judge').map((t) => `${from} -> ${t}`)
    );
    expect(judged).toEqual([]);
  });

  test('every top-level folder with code has its place in the layers', () => {
    const unplaced = [...new Set(files.map(folderOf).filter((f): f is string => f !== undefined && !isFolder(f)))];
    expect(unplaced).toEqual([]);
  });
});
