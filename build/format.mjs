// The project's formatter: dprint's TypeScript plugin (the npm build of its Wasm module), with the
// settings of .dprint.json, which the dprint CLI and editors read too. `npm run format` rewrites
// the tracked sources; `npm test` runs it with --check and fails on any file it would change.
//
//   node build/format.mjs [--check] [file...]
//
// Arrays keep one element a line once written that way (arrayExpression.preferSingleLine: false),
// so a check's requirement ids stay one per line.
import { createFromBuffer } from '@dprint/formatter';
import { getPath } from '@dprint/typescript';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const config = JSON.parse(readFileSync(join(ROOT, '.dprint.json'), 'utf8'));
const SOURCE = /\.(ts|mts|mjs|js)$/;
const excluded = (file) => config.excludes.some((e) => file === e || file.startsWith(`${e}/`));

function trackedSources() {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\n').filter((f) => SOURCE.test(f) && !excluded(f));
}

const args = process.argv.slice(2);
const check = args.includes('--check');
const files = args.filter((a) => a !== '--check');
const formatter = createFromBuffer(readFileSync(getPath()));
formatter.setConfig({ lineWidth: config.lineWidth, indentWidth: config.indentWidth }, config.typescript);

// A few layouts settle only on a second pass (a call that breaks once its argument has broken).
function fixedPoint(file, text) {
  let current = text;
  for (let pass = 0; pass < 3; pass++) {
    const next = formatter.formatText({ filePath: file, fileText: current });
    if (next === current) return current;
    current = next;
  }
  return current;
}

const changed = [];
for (const file of files.length ? files : trackedSources()) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const formatted = fixedPoint(file, text);
  if (formatted === text) continue;
  changed.push(file);
  if (!check) writeFileSync(join(ROOT, file), formatted);
}
if (check && changed.length) {
  process.stderr.write(`${changed.length} file(s) are not formatted (run npm run format):\n${changed.map((f) => `  ${f}`).join('\n')}\n`);
  process.exit(1);
}
if (!check) process.stdout.write(`formatted ${changed.length} file(s)\n`);
