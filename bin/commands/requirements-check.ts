import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MissingQuote, RequirementsCheck } from '../../specs/document/requirements-check.js';
import { err, EXIT_FAILED, EXIT_OK, EXIT_USAGE, out, parseFlags, usageError } from '../args.js';

// `conformance requirements check <document.md>`: which catalog entries and checks a change of the API
// document touches. Nothing heavy is imported until it runs, so `conformance requirements --help`
// (which prints this help) stays fast.

export const requirementsCheckHelp = `Usage: conformance requirements check <document.md> [--json] [--all]

Compares a changed API document with the requirement catalog and lists
  - each catalog entry whose quote no longer appears verbatim in the document (quotes are
    matched as the catalog test matches them: backticks and asterisks dropped, table pipes
    read as spaces, whitespace collapsed), with the nearest sentence of the new text, what
    the entry's check verifies and the suite checks that name it;
  - the normative sentences of the new text that no entry quotes: sentences of §1-§9 in the
    normative form (must, never, only, always, is, are, answers, returns, gives, takes, requires,
    may, can, at most, within, default, deprecated, not shown, ... or an HTTP status code; the
    same test 'conformance diff' uses), the rows of the endpoint tables (§4), of §5, of the known
    conditions (§7) and of the limits (§8), and the changelog rows (§9).
By default a sentence is listed only when it is not already in the document the catalog
names (specs/public-api-v1.md): the catalog does not quote every normative sentence of that
document, and a change should show what it adds. --all lists every unquoted normative sentence.

<document.md> is a file or git:REV:PATH (PATH relative to the repository root).

Options:
  --all    list every normative sentence no entry quotes, not only those new to the catalog's document
  --json   print JSON: { document, baseline, all, missing: [{ id, section, quote, check, nearest,
           checks }], unquoted: [{ section, line, text }], drift }

Exit codes: 0 the catalog fits the document; 1 drift (an entry lost its quote, or a normative
sentence is not quoted); 2 usage or input error, printed as "[CODE] message".
`;

const flags = { json: { type: 'boolean' }, all: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
const suitesDir = fileURLToPath(new URL('../../suites', import.meta.url));

export async function runRequirementsCheck(argv: string[]): Promise<number> {
  const parsed = parseFlags(argv, flags);
  if (!parsed.ok) return usageError('requirements', parsed.message, 'conformance requirements check');
  if (parsed.positionals.length !== 1) return usageError('requirements', 'give one document: check <document.md>', 'conformance requirements check');
  const { json = false, all = false } = parsed.values;
  const [{ checkRequirements }, { readDocumentSource }, { DocumentInputError }, catalog] = await Promise.all([
    import('../../specs/document/requirements-check.js'),
    import('../../specs/document/source.js'),
    import('../../specs/document/errors.js'),
    import('../../specs/requirements.js'),
  ]);
  try {
    const { text, label } = readDocumentSource(parsed.positionals[0]!);
    const baseline = { text: readFileSync(catalog.documentPath, 'utf8'), label: catalog.catalog.document };
    const result = checkRequirements({ requirements: catalog.requirements, text, label, baseline, all });
    const checks = await checksById();
    const missing = result.missing.map((m) => ({ ...m, checks: checks.get(m.id) ?? [] }));
    out(json ? JSON.stringify({ ...result, missing }, null, 2) : formatText({ ...result, missing }, catalog.requirements.length));
    return result.drift ? EXIT_FAILED : EXIT_OK;
  } catch (error) {
    if (!(error instanceof DocumentInputError)) throw error;
    if (json) out(JSON.stringify({ error: error.toJSON() }, null, 2));
    err(`conformance requirements check: [${error.code}] ${error.message}`);
    return EXIT_USAGE;
  }
}

type Check = { title: string; file: string; line: number; };

/** The suite checks registered for each id, read statically (no suite is run). */
async function checksById(): Promise<Map<string, Check[]>> {
  const { suiteRegistrations } = await import('../../suites/harness/registration/registrations.js');
  const byId = new Map<string, Check[]>();
  try {
    for (const { requirements, title, file, line } of await suiteRegistrations(suitesDir)) {
      for (const id of requirements) byId.set(id, [...(byId.get(id) ?? []), { title, file, line }]);
    }
  } catch {
    // Without the suites (an installed package) the catalog's own `check` text still says what is checked.
  }
  return byId;
}

type Result = RequirementsCheck & { missing: (MissingQuote & { checks: Check[]; })[]; };
const place = (section: string) => (/^\d/.test(section) ? `§${section}` : section);

function formatText(result: Result, entries: number): string {
  const lines = [`${result.document} against the requirement catalog (${entries} entries)`, ''];
  const byQuote = new Map<string, Result['missing']>();
  for (const m of result.missing) byQuote.set(m.quote, [...(byQuote.get(m.quote) ?? []), m]);
  lines.push(
    result.missing.length === 0
      ? 'Every quote of the catalog is in the document.'
      : `Quotes no longer in the document (${byQuote.size} quote(s), ${result.missing.length} entr${result.missing.length === 1 ? 'y' : 'ies'}):`,
  );
  for (const [quote, group] of byQuote) {
    lines.push(`  ${group.map((m) => m.id).join(', ')}  ${place(group[0]!.section)}`, `    quote:   "${quote}"`);
    const near = group[0]!.nearest;
    lines.push(near ? `    nearest: "${near.text}" (line ${near.line}, similarity ${near.similarity})` : '    nearest: (none)');
    for (const m of group) {
      lines.push(`    ${m.id} checks: ${m.check}`);
      for (const c of m.checks) lines.push(`      ${c.file}:${c.line}  ${c.title}`);
    }
  }
  lines.push('');
  const scope = result.all ? '' : `, new relative to ${result.baseline}`;
  lines.push(
    result.unquoted.length === 0
      ? `No normative sentence without a catalog entry${scope}.`
      : `Normative sentences no entry quotes (${result.unquoted.length}${scope}):`,
  );
  for (const u of result.unquoted) lines.push(`  line ${u.line}  ${place(u.section)}: ${u.text}`);
  lines.push('', result.drift ? 'Drift: update the catalog (specs/requirements.json) to the document.' : 'No drift.');
  return lines.join('\n') + '\n';
}
