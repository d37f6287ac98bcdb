import { fileURLToPath } from 'node:url';
import { EXIT_FAILED, EXIT_OK, out, err, parseFlags, usageError } from '../args.js';
import { scanSuites, type RegisteredCheck } from './coverage-scan.js';

const suitesDir = fileURLToPath(new URL('../../suites', import.meta.url));

export const requirementsHelp = `Usage: conformance requirements [--json] [--uncovered]

Lists the requirement catalog (specs/requirements.json): each requirement's id, level,
section and the checks (suites/*.test.ts) that cover it.

Options:
  --json        print JSON: { specVersion, requirements: [{ id, section, level, subject, quote, checks }], uncovered, unknown }
  --uncovered   only the testable (must/implied) requirements on the server that no check covers
  -h, --help    show this help

Exit codes: 0 listed; 1 a check names an id the catalog does not know; 2 usage error.
`;

const flags = { json: { type: 'boolean' }, uncovered: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export async function runRequirements(argv: string[]): Promise<number> {
  const parsed = parseFlags(argv, flags);
  if (!parsed.ok) return usageError('requirements', parsed.message);
  if (parsed.positionals.length > 0) return usageError('requirements', `unexpected argument '${parsed.positionals[0]}'`);
  const catalog = await import('../../specs/requirements.js');
  const checks = scanSuites(suitesDir);
  const byId = new Map<string, RegisteredCheck[]>();
  for (const c of checks) for (const id of c.requirements) byId.set(id, [...(byId.get(id) ?? []), c]);
  const { unknown, uncovered } = catalog.coverage(byId.keys(), { subjects: ['server'] });
  const uncoveredSet = new Set(uncovered);
  const listed = catalog.requirements.filter((r) => !parsed.values.uncovered || uncoveredSet.has(r.id));
  if (parsed.values.json) {
    const requirements = listed.map((r) => ({
      id: r.id, section: r.section, level: r.level, subject: r.subject, quote: r.quote,
      checks: (byId.get(r.id) ?? []).map(({ title, concern, file, line }) => ({ title, concern, file, line })),
    }));
    out(JSON.stringify({ specVersion: catalog.specVersion, requirements, uncovered, unknown }, null, 2));
  } else {
    for (const r of listed) {
      const covering = byId.get(r.id) ?? [];
      const note = covering.length > 0 ? `${covering.length} check${covering.length > 1 ? 's' : ''}`
        : r.level === 'not-testable' ? 'not testable' : r.subject !== 'server' ? `no check (${r.subject} rule)` : 'UNCOVERED';
      out(`${r.id}  [${r.level}] §${r.section} — ${note}`);
      for (const c of covering) out(`    ${c.concern}: ${c.title}  (${c.file}:${c.line})`);
    }
    out(`\n${catalog.requirements.length} requirements, ${checks.length} checks; ${uncovered.length} testable server requirements uncovered.`);
  }
  if (unknown.length > 0) {
    err(`conformance requirements: checks name ids the catalog does not know: ${unknown.join(', ')}`);
    return EXIT_FAILED;
  }
  return EXIT_OK;
}
