// The one reader of check registrations: the `check(['ID', ...], 'title', ...)` calls of a suite
// file, read with the TypeScript compiler from the source, without importing a suite or needing a
// target. It needs `typescript`, a devDependency: it runs in the project's tests and at build time,
// when build/bundle.mjs writes what it reads to dist/registrations.json; a run from dist/ reads
// that manifest (registrations.ts) and comes here only when a suite file changed since the build.
import { createRequire } from 'node:module';
import type * as ts from 'typescript';
import { concernOf } from '../../contract/check.js';

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

/** A template part the file fixes: `NAME['key']` or `NAME.key` of a constant object literal with a string there. */
function fixedPart(e: ts.Expression, objects: ReadonlyMap<string, ts.ObjectLiteralExpression>): string | undefined {
  const access = compiler.isElementAccessExpression(e) && compiler.isStringLiteralLike(e.argumentExpression)
    ? { of: e.expression, key: e.argumentExpression.text }
    : compiler.isPropertyAccessExpression(e)
    ? { of: e.expression, key: e.name.text }
    : undefined;
  if (!access || !compiler.isIdentifier(access.of)) return undefined;
  const property = objects.get(access.of.text)?.properties.find((p) =>
    compiler.isPropertyAssignment(p) && (compiler.isStringLiteralLike(p.name) || compiler.isIdentifier(p.name)) && p.name.text === access.key
  );
  return property && compiler.isPropertyAssignment(property) && compiler.isStringLiteralLike(property.initializer) ? property.initializer.text : undefined;
}

/** The title as written, a template literal's parts the file fixes filled in (the others keep their `${...}`). */
function titleOf(node: ts.Expression | undefined, objects: ReadonlyMap<string, ts.ObjectLiteralExpression>): string {
  if (!node) return '';
  if (compiler.isStringLiteralLike(node)) return node.text;
  if (compiler.isTemplateExpression(node)) {
    return node.head.text
      + node.templateSpans.map((span) => (fixedPart(span.expression, objects) ?? `\${${span.expression.getText()}}`) + span.literal.text).join('');
  }
  return node.getText();
}

function callsIn(file: string, source: string): Call[] {
  const sourceFile = compiler.createSourceFile(file, source, compiler.ScriptTarget.Latest, true, compiler.ScriptKind.TS);
  // `const NAME = ['A', 'B']` anywhere in the file, which a registration may spread (`...NAME`).
  const constants = new Map<string, ts.ArrayLiteralExpression>();
  // `const NAME = { key: 'text' }`, whose texts a template title may name (`${NAME['key']}`).
  const objects = new Map<string, ts.ObjectLiteralExpression>();
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (compiler.isVariableDeclaration(node) && compiler.isIdentifier(node.name)) {
      const list = arrayLiteral(node.initializer);
      if (list) constants.set(node.name.text, list);
      let init = node.initializer;
      while (init && (compiler.isAsExpression(init) || compiler.isSatisfiesExpression(init) || compiler.isParenthesizedExpression(init))) {
        init = init.expression;
      }
      if (init && compiler.isObjectLiteralExpression(init)) objects.set(node.name.text, init);
    }
    if (compiler.isCallExpression(node) && compiler.isIdentifier(node.expression) && node.expression.text === 'check' && arrayLiteral(node.arguments[0])) {
      calls.push(node);
    }
    compiler.forEachChild(node, visit);
  };
  visit(sourceFile);
  return calls.map((call) => {
    const ids = arrayLiteral(call.arguments[0])!;
    return {
      registration: {
        requirements: stringsOf(ids, constants),
        title: titleOf(call.arguments[1], objects),
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
