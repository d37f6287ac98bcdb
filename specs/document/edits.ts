// Edit pairs for the tests: the real API document (specs/public-api-v1.md) and string replacements on
// it. A replacement whose text is not in the document exactly once throws, so a pair cannot silently
// stop editing anything when the document changes.
import { readFileSync } from 'node:fs';
import { documentPath } from '../requirements.js';

export const original: string = readFileSync(documentPath, 'utf8');

export function edit(text: string, from: string, to: string): string {
  const count = text.split(from).length - 1;
  if (count !== 1) throw new Error(`edit: expected ${JSON.stringify(from)} once in the document, found it ${count} time(s)`);
  return text.replace(from, () => to);
}

/** Several replacements in turn. */
export const edits = (text: string, ...pairs: [string, string][]): string => pairs.reduce((t, [from, to]) => edit(t, from, to), text);

/** A new newest changelog row (§9), which is what raises the document's version. */
export const release = (text: string, version: string, change = `Release ${version}.`): string =>
  edit(text, '| Version | Change |\n|---|---|\n', `| Version | Change |\n|---|---|\n| ${version} | ${change} |\n`);
