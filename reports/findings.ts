import type { Entry } from './check-entry.js';
import type { CheckMeta, Finding, ReportCheck, ReportFailure } from './types.js';

// What the audit of every response found (contract C5: each check's `findings` and `judged`),
// folded over the whole run: one finding per key, whichever checks' responses showed it, reported
// under its own requirements by one entry per requirement, "every response the run received".
// A requirement the audit judged responses for and found nothing against passes there.

/** The concern of the audit's entries: not a suite file's, the run's responses'. */
export const AUDIT_CONCERN = 'responses';

export const auditCheckName = (id: string): string => `every response the run received [${id}]`;

/** Every finding of the run once (requirements not selected left out), and how many responses each requirement was judged on. */
export function foldFindings(metas: readonly CheckMeta[], isSelected: (id: string) => boolean): { findings: Finding[]; judged: Map<string, number>; } {
  const byKey = new Map<string, Finding>();
  const judged = new Map<string, number>();
  for (const meta of metas) {
    for (const [id, n] of Object.entries(meta.judged ?? {})) if (isSelected(id)) judged.set(id, (judged.get(id) ?? 0) + n);
    for (const f of meta.findings ?? []) {
      const requirements = f.requirements.filter(isSelected);
      if (requirements.length === 0) continue;
      const known = byKey.get(f.key);
      if (!known) {
        byKey.set(f.key, { ...f, requirements, seenIn: [...f.seenIn] });
        continue;
      }
      known.count += f.count;
      for (const op of f.seenIn) if (!known.seenIn.includes(op)) known.seenIn.push(op);
      for (const id of requirements) if (!known.requirements.includes(id)) known.requirements.push(id);
    }
  }
  for (const f of byKey.values()) for (const id of f.requirements) judged.set(id, Math.max(judged.get(id) ?? 0, 1));
  return { findings: [...byKey.values()], judged };
}

/** The failure a finding stands for in the report: its first response, centred on what is wrong. */
export function findingFailure(f: Finding, requirement: string): ReportFailure {
  return {
    check: auditCheckName(requirement),
    message: f.message,
    request: f.request,
    response: f.response ?? null,
    curl: f.curl || null,
    seed: null,
    path: null,
    ...(f.excerpt !== undefined ? { excerpt: f.excerpt } : {}),
    finding: f.key,
  };
}

/** The audit's entry for one requirement: failed on its first finding, or passed. */
export function auditEntry(id: string, findings: readonly Finding[]): Entry {
  const against = findings.filter((f) => f.requirements.includes(id));
  const check: ReportCheck = { name: auditCheckName(id), status: against.length ? 'failed' : 'passed', concern: AUDIT_CONCERN, durationMs: 0 };
  return against[0] ? { check, failure: findingFailure(against[0], id), failed: [id] } : { check, failed: [] };
}
