import { join, relative, resolve, sep } from 'node:path';
import {
  DEFAULT_DOCUMENT,
  diffDocuments,
  DiffInputError,
  formatJson,
  formatText,
  loadDocument,
  type LoadedDocument,
  repositoryRoot,
} from '../../specs/diff/index.js';
import { diffApiDocuments, loadApiDocument } from '../../specs/document/diff.js';
import { DocumentInputError } from '../../specs/document/errors.js';
import { isMarkdownSource } from '../../specs/document/source.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, parseFlags, wantsHelp } from '../args.js';

// `conformance diff`: what a change of the machine-readable description, or of the API document
// itself (Markdown), breaks under §9 of the API document, and whether its version bump fits.

export const diffHelp = `Usage: conformance diff <old> <new> [--format text|json]
       conformance diff --rev <rev> [<new>] [--format text|json]

Lists every change between two OpenAPI 3.1 documents (JSON or YAML), classifies each as breaking,
non-breaking or documentation-only under §9 (Versioning) of the API document, and checks
info.version: semver, MAJOR equal to the path version (/api/public/vN), MINOR raised for
backward-compatible additions, PATCH for documentation fixes, never lowered; breaking changes
only under a new major path, and an older major path unchanged while it is served.

When both documents are Markdown (.md, or git:REV:PATH ending in .md), they are read as the
API document itself (specs/public-api-v1.md): the field tables of §2 (type, "or null",
"required on create", values listed), the endpoint tables of §4 (method, path, query, body,
response, PATCH and POST body markers), the known conditions of §7, the limits of §8, and
every normative statement: a sentence of §1-§9 in the normative form or quoted by the
requirement catalog, and the table cells that state behaviour (notes, rules, payload remarks,
conditions, limits). A changed statement is judged by direction under §9; where the text does
not tell, it is "behaviour changed, direction unknown": MAJOR, and it fails
(BEHAVIOUR_DIRECTION_UNKNOWN) naming the sentence. Only an edit that keeps every meaning-bearing
token is documentation. The document's version is its newest changelog row (§9): it must rise
as the changes require, released rows stay, newest first. Same output and exit codes.

OpenAPI documents named .yaml or .yml are read as YAML, others as JSON (a $ref's target too).
A document is a file path, git:REV (specs/openapi.json at that revision), or git:REV:PATH
(PATH at that revision, relative to the repository root as in 'git show REV:PATH'). With
--rev and a Markdown <new>, the old document is that same path at <rev>.

Options:
  --rev <rev>            the old document is specs/openapi.json at <rev>; <new> defaults to
                         the working copy of specs/openapi.json
  --format <text|json>   text for people (default), json for machines:
                         { changes: [{ kind, classification (breaking, non-breaking,
                           documentation or unknown), location, rule, message }],
                           version: { old, new, required, ok, problems, notes }, breaking }
  -h, --help             show this help

Examples:
  conformance diff git:HEAD~1 specs/openapi.json
  conformance diff --rev main
  conformance diff old.json new.json --format json
  conformance diff git:HEAD~1:specs/public-api-v1.md specs/public-api-v1.md
  conformance diff --rev main specs/public-api-v1.md --format json

Exit codes: 0 the change fits its version; 1 a breaking change within a served major or a
wrong info.version (or document version); 2 usage or input error (unreadable file, not JSON or YAML,
not OpenAPI 3.1, a $ref to nothing; for Markdown DOC_FILE_UNREADABLE, DOC_GIT_UNREADABLE,
DOC_NOT_API_DOCUMENT, DOC_TABLE_MALFORMED), printed as "[CODE] message".
`;

const options = {
  rev: { type: 'string' },
  format: { type: 'string', default: 'text' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface DiffIo {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
}

const processIo: DiffIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  cwd: process.cwd(),
};

export async function runDiff(argv: string[]): Promise<number> {
  return runDiffWith(argv, { ...processIo, cwd: process.cwd() });
}

export async function runDiffWith(argv: string[], io: DiffIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.out(diffHelp);
    return EXIT_OK;
  }
  const parsed = parseFlags(argv, options);
  const json = parsed.ok && parsed.values.format === 'json';
  const fail = (code: string, message: string): number => {
    if (json) io.out(JSON.stringify({ error: { code, message } }, null, 2) + '\n');
    io.err(`conformance diff: [${code}] ${message}\n${code === 'DIFF_USAGE' ? "Run 'conformance diff --help' for usage.\n" : ''}`);
    return EXIT_USAGE;
  };
  if (!parsed.ok) return fail('DIFF_USAGE', parsed.message);
  const { values, positionals } = parsed;
  if (values.format !== 'text' && values.format !== 'json') return fail('DIFF_USAGE', `--format must be text or json, not "${values.format}"`);
  const withRev = values.rev !== undefined;
  if (withRev ? positionals.length > 1 : positionals.length !== 2) {
    return fail('DIFF_USAGE', withRev ? 'with --rev, give at most one document (the new one)' : 'give two documents: <old> <new>');
  }
  const markdown = positionals.map(isMarkdownSource);
  if (markdown.includes(true)) {
    if (markdown.includes(false)) return fail('DIFF_USAGE', 'compare two API documents (.md) or two OpenAPI documents, not one of each');
    try {
      return diffMarkdown(withRev ? [previousRevision(values.rev!, positionals[0]!, io.cwd), positionals[0]!] : positionals, json, io);
    } catch (error) {
      if (error instanceof DocumentInputError || error instanceof DiffInputError) return fail(error.code, error.message);
      throw error;
    }
  }
  try {
    const current = () => join(repositoryRoot(io.cwd), DEFAULT_DOCUMENT);
    const sources = withRev ? [`git:${values.rev}`, positionals[0] ?? current()] : positionals;
    const [a, b] = sources.map((s) => loadDocument(s, { cwd: io.cwd })) as [LoadedDocument, LoadedDocument];
    const result = diffDocuments(a, b);
    io.out(json ? formatJson(result) : formatText(result, { old: a.label, new: b.label }));
    return result.version.ok ? EXIT_OK : EXIT_FAILED;
  } catch (error) {
    if (error instanceof DiffInputError) return fail(error.code, error.message);
    throw error;
  }
}

/** The API document (Markdown) as of `rev`, at the path `source` names (a file or `git:REV:PATH`). */
function previousRevision(rev: string, source: string, cwd: string): string {
  const git = /^git:[^:]*:(.+)$/.exec(source);
  if (git) return `git:${rev}:${git[1]}`;
  const path = relative(repositoryRoot(cwd), resolve(cwd, source));
  if (path.startsWith('..')) {
    throw new DiffInputError('DIFF_USAGE', `--rev: ${source} is outside the repository, so it has no version at ${rev}; name the old document instead`);
  }
  return `git:${rev}:${path.split(sep).join('/')}`;
}

function diffMarkdown(sources: string[], json: boolean, io: DiffIo): number {
  const [a, b] = sources.map((s) => loadApiDocument(s, io.cwd));
  const result = diffApiDocuments(a!, b!);
  io.out(json ? formatJson(result) : formatText(result, { old: a!.label, new: b!.label }));
  return result.version.ok ? EXIT_OK : EXIT_FAILED;
}
