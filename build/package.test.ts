// The scripts npm runs in a package's lifecycle where it is installed name only files the package
// ships: a `prepare` naming the build, which the package leaves out, would fail wherever npm runs it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { packageFiles } from './package.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'] as const;

test('the install scripts of the packed package.json name only files the package ships', () => {
  const { scripts = {} } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string>; };
  const shipped = new Set(packageFiles());
  for (const name of INSTALL_SCRIPTS) {
    const script = scripts[name];
    if (script === undefined) continue;
    const files = [...script.matchAll(/(?:^|\s)((?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)+\.[cm]?[jt]s)\b/g)].map((m) => m[1]!.replace(/^\.\//, ''));
    for (const file of files) expect(shipped.has(file), `${name}: ${script} names ${file}, which the package does not ship`).toBe(true);
  }
});
