// Reads an API document (Markdown): a file path, or `git:REV[:PATH]` for the document as of a git
// revision, PATH relative to the repository root as in `git show REV:PATH` (default: the document
// the catalog names). The same notation as the OpenAPI diff's sources (specs/diff/load.ts), which
// read JSON only.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { git as readWithGit, GitReadError } from '../git.js';
import { DocumentInputError } from './errors.js';

/** The document in the repository, relative to its root (the catalog's `document`). */
export const DOCUMENT_PATH = 'specs/public-api-v1.md';

export interface DocumentSource {
  text: string;
  /** What the user named, for messages: a path or `git:REV:PATH`. */
  label: string;
}

/** A Markdown source: a `.md` file, or `git:REV:PATH` whose PATH ends in `.md`. */
export const isMarkdownSource = (source: string): boolean => /\.md$/i.test(source);

export function readDocumentSource(source: string, cwd = process.cwd()): DocumentSource {
  if (source.startsWith('git:')) {
    const rest = source.slice(4);
    const colon = rest.indexOf(':');
    const rev = colon < 0 ? rest : rest.slice(0, colon);
    const path = colon < 0 ? DOCUMENT_PATH : rest.slice(colon + 1);
    if (rev === '' || path === '') throw new DocumentInputError('DOC_GIT_UNREADABLE', `"${source}": expected git:REV or git:REV:PATH`);
    const label = `git:${rev}:${path}`;
    const top = git(['rev-parse', '--show-toplevel'], cwd, label).trim();
    return { text: git(['show', `${rev}:${path.replace(/^\.\//, '')}`], top, label), label };
  }
  try {
    return { text: readFileSync(resolve(cwd, source), 'utf8'), label: source };
  } catch (error) {
    throw new DocumentInputError('DOC_FILE_UNREADABLE', `cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function git(args: string[], cwd: string, label: string): string {
  try {
    return readWithGit(args, cwd, label);
  } catch (error) {
    if (error instanceof GitReadError) throw new DocumentInputError('DOC_GIT_UNREADABLE', error.message);
    throw error;
  }
}
