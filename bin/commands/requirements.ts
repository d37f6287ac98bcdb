import { fileURLToPath } from 'node:url';
import { type Registration, suiteRegistrations } from '../../suites/harness/registration/registrations.js';
import { err, EXIT_FAILED, EXIT_OK, out, parseFlags, unknownValue, usageError } from '../args.js';
import { requirementsCheckHelp, runRequirementsCheck } from './requirements-check.js';

const suitesDir = fileURLToPath(new URL('../../suites', import.meta.url));

export const requirementsHelp = `Usage: conformance requirements [<id or glob>...] [--level must|implied|not-testable] [--uncovered] [--json]

Lists the requirement catalog (specs/requirements.json): each requirement's id, level,
section and the checks (suites/*.check.ts) that cover it.

Arguments:
  <id or glob>  only these requirements, e.g. LIST-* or AUTH-BEARER-REQUIRED (case-insensitive)

Options:
  --level <l>   only requirements of this level: must, implied or not-testable
  --uncovered   only the testable (must/implied) requirements on the server that no check covers
  --json        print JSON: { specVersion, requirements: [{ id, section, level, subject, quote, checks }], uncovered, unknown }
  -h, --help    show this help

Exit codes: 0 listed; 1 a check names an id the catalog does not know; 2 usage error
(an unknown flag or level, a glob that matches no requirement).

${requirementsCheckHelp}`;

const flags = { json: { type: 'boolean' }, uncovered: { type: 'boolean' }, level: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
const LEVELS = ['must', 'implied', 'not-testable'] as const;

/**
 * A registration's title for a person: a part only the running suite knows (a table's row, in a
 * loop) shows as `<each …>`, one check per row.
 */
const shownTitle = (title: string) => title.replace(/\$\{([^}]*)\}/g, (_, expr: string) => `<each ${expr.trim()}>`);

export async function runRequirements(argv: string[]): Promise<number> {
  if (argv[0] === 'check') return runRequirementsCheck(argv.slice(1));
  const parsed = parseFlags(argv, flags);
  if (!parsed.ok) return usageError('requirements', parsed.message);
  const { values } = parsed;
  if (values.level !== undefined && !(LEVELS as readonly string[]).includes(values.level)) {
    return usageError('requirements', unknownValue('level', values.level, LEVELS));
  }
  const catalog = await import('../../specs/requirements.js');
  const patterns = parsed.positionals.map((p) => p.toUpperCase());
  const unmatched = catalog.unmatchedPatterns(patterns);
  if (unmatched.length > 0) {
    return usageError('requirements', unknownValue('requirement', unmatched[0]!, catalog.requirements.map((r) =>
      r.id
    )).replace(/^unknown requirement/, 'no requirement matches'));
  }
  const checks = await suiteRegistrations(suitesDir);
  const byId = new Map<string, Registration[]>();
  for (const c of checks) for (const id of c.requirements) byId.set(id, [...(byId.get(id) ?? []), c]);
  const { unknown, uncovered } = catalog.coverage(byId.keys(), { subjects: ['server'] });
  const uncoveredSet = new Set(uncovered);
  const matched = new Set(patterns.length ? catalog.matchRequirementIds(patterns) : catalog.requirements.map((r) => r.id));
  const listed = catalog.requirements.filter((r) =>
    matched.has(r.id) && (!values.level || r.level === values.level) && (!values.uncovered || uncoveredSet.has(r.id))
  );
  if (values.json) {
    const requirements = listed.map((r) => ({
      id: r.id,
      section: r.section,
      level: r.level,
      subject: r.subject,
      quote: r.quote,
      checks: (byId.get(r.id) ?? []).map(({ title, concern, file, line }) => ({ title, concern, file, line })),
    }));
    out(
      JSON.stringify({ specVersion: catalog.specVersion, requirements, uncovered: uncovered.filter((id) => listed.some((r) => r.id === id)), unknown }, null,
        2),
    );
  } else {
    for (const r of listed) {
      const covering = byId.get(r.id) ?? [];
      const note = covering.length > 0
        ? `${covering.length} check${covering.length > 1 ? 's' : ''}`
        : r.level === 'not-testable'
        ? 'not testable'
        : r.subject !== 'server'
        ? `no check (${r.subject} rule)`
        : 'UNCOVERED';
      out(`${r.id}  [${r.level}] §${r.section} — ${note}`);
      for (const c of covering) out(`    ${c.concern}: ${shownTitle(c.title)}  (${c.file}:${c.line})`);
    }
    const filtered = listed.length < catalog.requirements.length ? `${listed.length} of ` : '';
    // The checks of the requirements listed, not of the whole catalog.
    const covering = new Set(listed.flatMap((r) => byId.get(r.id) ?? []));
    out(
      `\n${filtered}${catalog.requirements.length} requirements, covered by ${covering.size} check${
        covering.size === 1 ? '' : 's'
      }; ${uncovered.length} testable server requirements uncovered.`,
    );
  }
  if (unknown.length > 0) {
    err(`conformance requirements: checks name ids the catalog does not know: ${unknown.join(', ')}`);
    return EXIT_FAILED;
  }
  return EXIT_OK;
}
