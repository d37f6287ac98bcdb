// Reads the two documents to compare: a file path, or `git:REV[:PATH]` for the document as of a git
// revision, PATH relative to the repository root as in `git show REV:PATH` (default
// `specs/openapi.json`). A name ending .yaml or .yml is read as YAML, any other as JSON (./parse.js),
// documents a $ref reaches included. A document must be an OpenAPI 3.1 description
// (`openapi: 3.1.x`, an `info.version`), else an input error.
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { git as readWithGit, GitReadError } from '../git.js';
import { DiffInputError } from './errors.js';
import { parseText } from './parse.js';
import type { ExternalLoader } from './resolve.js';
import { isObject, type Json } from './types.js';

export const DEFAULT_DOCUMENT = 'specs/openapi.json';

export interface LoadedDocument {
  document: Json;
  /** What the user named, for messages: a path or `git:REV:PATH`. */
  label: string;
  uri: string;
  loadExternal: ExternalLoader;
}

export interface LoadOptions {
  /** Directory relative paths and the git repository are found from (default: the working directory). */
  cwd?: string;
}

export function loadDocument(source: string, options: LoadOptions = {}): LoadedDocument {
  const cwd = options.cwd ?? process.cwd();
  if (source.startsWith('git:')) {
    const rest = source.slice(4);
    const colon = rest.indexOf(':');
    const rev = colon < 0 ? rest : rest.slice(0, colon);
    const path = colon < 0 ? DEFAULT_DOCUMENT : rest.slice(colon + 1);
    if (rev === '') throw new DiffInputError('DIFF_USAGE', `"${source}": expected git:REV or git:REV:PATH`);
    return fromGit(rev, path, cwd);
  }
  const file = resolve(cwd, source);
  const read = (f: string) => readFileSync(f, 'utf8');
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    throw new DiffInputError('DIFF_FILE_UNREADABLE', `cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return checked(text, source, pathToFileURL(file).href, (uri) => parseOrUndefined(uri, () => read(fileURLToPath(uri))));
}

/** The root of the git repository `cwd` is in. */
export function repositoryRoot(cwd: string, label = 'the git repository'): string {
  return git(['rev-parse', '--show-toplevel'], cwd, label).trim();
}

function fromGit(rev: string, path: string, cwd: string): LoadedDocument {
  const top = repositoryRoot(cwd, `git:${rev}:${path}`);
  const show = (repoPath: string) => git(['show', `${rev}:${repoPath}`], top, `git:${rev}:${repoPath}`);
  const repoPath = (file: string) => relative(top, file).split(sep).join('/');
  const file = resolve(top, path);
  return checked(show(repoPath(file)), `git:${rev}:${repoPath(file)}`, pathToFileURL(file).href,
    (uri) => parseOrUndefined(uri, () => show(repoPath(fileURLToPath(uri)))));
}

function git(args: string[], cwd: string, label: string): string {
  try {
    return readWithGit(args, cwd, label);
  } catch (error) {
    if (error instanceof GitReadError) throw new DiffInputError('DIFF_GIT_UNREADABLE', error.message);
    throw error;
  }
}

function parseOrUndefined(uri: string, read: () => string): unknown {
  try {
    return parseText(read(), uri, uri);
  } catch {
    return undefined;
  }
}

function checked(text: string, label: string, uri: string, loadExternal: ExternalLoader): LoadedDocument {
  const document = parseText(text, uri, label);
  if (!isObject(document)) throw new DiffInputError('DIFF_NOT_OPENAPI_31', `${label}: not an OpenAPI document (not an object)`);
  if (typeof document.openapi !== 'string' || !/^3\.1\.\d+/.test(document.openapi)) {
    const found = document.openapi === undefined
      ? (document.swagger ? `swagger "${String(document.swagger)}"` : 'no "openapi" field')
      : `openapi "${String(document.openapi)}"`;
    throw new DiffInputError('DIFF_NOT_OPENAPI_31', `${label}: expected an OpenAPI 3.1 document (openapi: 3.1.x), found ${found}`);
  }
  if (!isObject(document.info) || typeof document.info.version !== 'string') {
    throw new DiffInputError('DIFF_NOT_OPENAPI_31', `${label}: info.version is missing (OpenAPI 3.1 requires it)`);
  }
  if (document.paths !== undefined && !isObject(document.paths)) {
    throw new DiffInputError('DIFF_NOT_OPENAPI_31', `${label}: paths is not an object`);
  }
  return { document, label, uri, loadExternal };
}
