// The one reader of check registrations: the `check(['ID', ...], 'title', ...)` calls of a suite
// file, read with the TypeScript compiler from the source, without importing a suite or needing a
// target. It needs `typescript`, a devDependency: it runs in the project's tests and at build time,
// when build/bundle.mjs writes what it reads to dist/registrations.json; a run from dist/ reads
// that manifest (registrations.ts) and comes here only when a suite file changed since the build.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as ts from 'typescript';
import { concernOf } from '../../../contract/check.js';

// Loaded as CommonJS: imported as an ES module, its 9 MB are scanned for named exports first (about 0.4 s).
const compiler = createRequire(import.meta.url)('typescript') as typeof ts;

export interface Registration {
  requirements: string[];
  /**
   * The title as written; in a template literal, a part the file fixes (`${why['no-key']}` of a
   * constant object) is filled in, the others (a loop's variable) keep their `${...}`.
   */
  title: string;
  concern: string;
  /** Relative to the project root, e.g. suites/cursors.check.ts. */
  file: string;
  line: number;
}

/** A registration as written: what it names, and its id list's source text. */
interface Call {
  registration: Registration;
  idList: string;
}

/** `[...]`, `[...] as const` or `[...] satisfies T`. */
function arrayLiteral(node: ts.Expression | undefined): ts.ArrayLiteralExpression | undefined {
  let n = node;
  while (n && (compiler.isAsExpression(n) || compiler.isSatisfiesExpression(n) || compiler.isParenthesizedExpression(n))) n = n.expression;
  return n && compiler.isArrayLiteralExpression(n) ? n : undefined;
}

/** The string elements of an array literal, spreads of the file's `constants` resolved. */
function stringsOf(list: ts.ArrayLiteralExpression, constants: ReadonlyMap<string, ts.ArrayLiteralExpression>, seen = new Set<string>()): string[] {
  return list.elements.flatMap((element) => {
    if (compiler.isStringLiteralLike(element)) return [element.text];
    if (compiler.isSpreadElement(element) && compiler.isIdentifier(element.expression)) {
      const name = element.expression.text;
      const spread = constants.get(name);
      return spread && !seen.has(name) ? stringsOf(spread, constants, new Set([...seen, name])) : [`<unknown constant ${name}>`];
    }
    return [`<not an id: ${element.getText()}>`];
  });
}

/** The project root: registrations name their files relative to it. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What a title may name besides literals: the constant objects in scope, and the values of a title function's parameters. */
interface Scope {
  objects: ReadonlyMap<string, ts.ObjectLiteralExpression>;
  /** A parameter bound to its argument: the literal's text, or the argument as written (a loop's variable). */
  params?: ReadonlyMap<string, { text: string; fixed: boolean; }>;
  /** The constant objects of the modules the file imports, by the name it imports them under. */
  imported: (name: string) => Scope | undefined;
}

/** `(x as T)`, `(x satisfies T)`, `(x)`: the expression itself. */
function bare(node: ts.Expression | undefined): ts.Expression | undefined {
  let n = node;
  while (n && (compiler.isAsExpression(n) || compiler.isSatisfiesExpression(n) || compiler.isParenthesizedExpression(n))) n = n.expression;
  return n;
}

/** The property `key` of object `name` in scope (or of the module it is imported from), with the scope its value is read in. */
function propertyOf(name: string, key: string, scope: Scope): { value: ts.Expression; scope: Scope; } | undefined {
  const own = scope.objects.get(name);
  const where = own ? scope : scope.imported(name);
  const object = own ?? where?.objects.get(name);
  if (!object || !where) return undefined;
  const property = object.properties.find((p) =>
    compiler.isPropertyAssignment(p) && (compiler.isStringLiteralLike(p.name) || compiler.isIdentifier(p.name)) && p.name.text === key
  );
  return property && compiler.isPropertyAssignment(property) ? { value: property.initializer, scope: { ...where, params: undefined } } : undefined;
}

/** `NAME['key']`, `NAME.key` or `NAME[param]` with the parameter bound to a literal: the object and key. */
function accessOf(e: ts.Expression, scope: Scope): { of: string; key: string; } | undefined {
  if (compiler.isPropertyAccessExpression(e) && compiler.isIdentifier(e.expression)) return { of: e.expression.text, key: e.name.text };
  if (!compiler.isElementAccessExpression(e) || !compiler.isIdentifier(e.expression)) return undefined;
  const k = e.argumentExpression;
  if (compiler.isStringLiteralLike(k)) return { of: e.expression.text, key: k.text };
  const bound = compiler.isIdentifier(k) ? scope.params?.get(k.text) : undefined;
  return bound?.fixed ? { of: e.expression.text, key: bound.text } : undefined;
}

/**
 * The text of a title expression: literals as they are, a template's parts the files fix filled in
 * (a constant object's text, a title function's literal argument) and the others kept as `${...}`;
 * `titles.name(args)` of an object of title functions, in the file or imported, read with its
 * parameters bound to the arguments.
 */
function textOf(node: ts.Expression | undefined, scope: Scope): string | undefined {
  const e = bare(node);
  if (!e) return undefined;
  if (compiler.isStringLiteralLike(e)) return e.text;
  if (compiler.isIdentifier(e)) {
    const bound = scope.params?.get(e.text);
    return bound ? (bound.fixed ? bound.text : `\${${bound.text}}`) : undefined;
  }
  if (compiler.isTemplateExpression(e)) {
    return e.head.text + e.templateSpans.map((span) => (textOf(span.expression, scope) ?? `\${${span.expression.getText()}}`) + span.literal.text).join('');
  }
  const access = accessOf(e, scope);
  if (access) {
    const p = propertyOf(access.of, access.key, scope);
    return p ? textOf(p.value, p.scope) : undefined;
  }
  if (compiler.isCallExpression(e) && compiler.isPropertyAccessExpression(e.expression) && compiler.isIdentifier(e.expression.expression)) {
    const p = propertyOf(e.expression.expression.text, e.expression.name.text, scope);
    const fn = p && bare(p.value);
    if (!p || !fn || !(compiler.isArrowFunction(fn) || compiler.isFunctionExpression(fn)) || !compiler.isExpression(fn.body)) return undefined;
    const params = new Map(fn.parameters.map((param, i) => {
      const arg = bare(e.arguments[i]);
      const literal = arg && compiler.isStringLiteralLike(arg);
      return [param.name.getText(), { text: literal ? arg.text : arg?.getText() ?? 'undefined', fixed: !!literal }] as const;
    }));
    return textOf(fn.body, { ...p.scope, params });
  }
  return undefined;
}

/** The constant objects a source file declares, by name. */
function objectsIn(sourceFile: ts.SourceFile): Map<string, ts.ObjectLiteralExpression> {
  const objects = new Map<string, ts.ObjectLiteralExpression>();
  const visit = (node: ts.Node): void => {
    if (compiler.isVariableDeclaration(node) && compiler.isIdentifier(node.name)) {
      const init = bare(node.initializer);
      if (init && compiler.isObjectLiteralExpression(init)) objects.set(node.name.text, init);
    }
    compiler.forEachChild(node, visit);
  };
  visit(sourceFile);
  return objects;
}

const moduleScopes = new Map<string, Scope | undefined>();

/** The scope of a module of the project, by its path relative to the root (read once). */
function moduleScope(path: string): Scope | undefined {
  if (!moduleScopes.has(path)) {
    const full = join(ROOT, path);
    moduleScopes.set(path, existsSync(full) ? scopeOf(path, readFileSync(full, 'utf8')) : undefined);
  }
  return moduleScopes.get(path);
}

/** A file's scope: its constant objects, and those of the relative modules it imports by name. */
function scopeOf(file: string, source: string | ts.SourceFile): Scope {
  const sourceFile = typeof source === 'string' ? compiler.createSourceFile(file, source, compiler.ScriptTarget.Latest, true, compiler.ScriptKind.TS) : source;
  const from = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    if (!compiler.isImportDeclaration(statement) || !compiler.isStringLiteral(statement.moduleSpecifier)) continue;
    const spec = statement.moduleSpecifier.text;
    const named = statement.importClause?.namedBindings;
    if (!spec.startsWith('.') || !named || !compiler.isNamedImports(named)) continue;
    const path = join(dirname(file), spec).replace(/\.js$/, '.ts');
    for (const el of named.elements) from.set(el.name.text, path);
  }
  return { objects: objectsIn(sourceFile), imported: (name) => (from.has(name) ? moduleScope(from.get(name)!) : undefined) };
}

/** The title as written, the parts the files fix filled in (the others keep their `${...}`). */
function titleOf(node: ts.Expression | undefined, scope: Scope): string {
  if (!node) return '';
  return textOf(node, scope) ?? node.getText();
}

function callsIn(file: string, source: string): Call[] {
  const sourceFile = compiler.createSourceFile(file, source, compiler.ScriptTarget.Latest, true, compiler.ScriptKind.TS);
  // `const NAME = ['A', 'B']` anywhere in the file, which a registration may spread (`...NAME`).
  const constants = new Map<string, ts.ArrayLiteralExpression>();
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (compiler.isVariableDeclaration(node) && compiler.isIdentifier(node.name)) {
      const list = arrayLiteral(node.initializer);
      if (list) constants.set(node.name.text, list);
    }
    if (compiler.isCallExpression(node) && compiler.isIdentifier(node.expression) && node.expression.text === 'check' && arrayLiteral(node.arguments[0])) {
      calls.push(node);
    }
    compiler.forEachChild(node, visit);
  };
  visit(sourceFile);
  // `const NAME = { key: 'text' }` and title functions, in the file or imported, which a title may name
  const scope = scopeOf(file, sourceFile);
  return calls.map((call) => {
    const ids = arrayLiteral(call.arguments[0])!;
    return {
      registration: {
        requirements: stringsOf(ids, constants),
        title: titleOf(call.arguments[1], scope),
        concern: concernOf(file),
        file,
        line: sourceFile.getLineAndCharacterOfPosition(call.getStart(sourceFile)).line + 1,
      },
      idList: ids.getText(sourceFile).slice(1, -1),
    };
  });
}

/** The registrations of one suite file (`file` as reports name it, e.g. suites/cursors.check.ts), in source order. */
export function registrationsIn(file: string, source: string): Registration[] {
  return callsIn(file, source).map((c) => c.registration);
}

/** The source text between the brackets of each registration's id list, in source order. */
export function idListsIn(file: string, source: string): string[] {
  return callsIn(file, source).map((c) => c.idList);
}
