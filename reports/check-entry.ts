import type { CheckMeta, CheckResult, ReportCheck, ReportFailure, ReportWarning } from './types.js';

// A check's contribution to the report: its status line (with the reason of a skip), the
// evidence of its failure and which of its requirements that failure concerns; and the
// readings and warnings all checks observed.

export const NOT_SELECTED = 'not selected';

export interface Entry {
  check: ReportCheck;
  failure?: ReportFailure;
  /** For a failed check, the requirements its failure concerns (the others were not reached); empty when blocked. */
  failed: string[];
}

/** One check's line in the report, and its failure evidence when it failed or was blocked. */
export function toEntry(result: CheckResult, meta: CheckMeta, isSelected: (id: string) => boolean): Entry {
  const f = meta.failure;
  // Stopped by a shared step's failure, or by what the audit found wrong in a response it needed.
  const blocked = result.state === 'failed' && (f?.setup !== undefined || f?.finding !== undefined) && (f.requirements ?? []).length === 0;
  const status = result.state === 'pending' ? 'skipped' : blocked ? 'blocked' : result.state;
  const check: ReportCheck = { name: result.name, status, concern: meta.concern, durationMs: Math.round(result.durationMs) };
  if (status === 'skipped') {
    const unselected = meta.requirements.length > 0 && meta.requirements.every((id) => !isSelected(id));
    check.reason = unselected
      ? NOT_SELECTED
      : result.state === 'pending'
      ? 'not run (the run ended before this check finished)'
      : (meta.skipReason ?? result.note ?? 'skipped');
  }
  if (status !== 'failed' && status !== 'blocked') return { check, failed: [] };
  const message = f?.message ?? (result.errors.length > 0 ? result.errors.join('\n') : 'check failed');
  const failure: ReportFailure = {
    check: result.name,
    message,
    request: f?.request ?? null,
    response: f?.response ?? null,
    curl: f?.curl ?? null,
    seed: f?.seed ?? null,
    path: f?.path ?? null,
  };
  if (f?.counterexample !== undefined) failure.counterexample = f.counterexample;
  if (f?.setup?.length) failure.setup = [...f.setup];
  if (f?.excerpt !== undefined) failure.excerpt = f.excerpt;
  if (f?.finding !== undefined) failure.finding = f.finding;
  if (f?.differences?.length) failure.differences = f.differences.map((d) => ({ ...d }));
  if (f?.state?.length) failure.state = f.state.map((s) => ({ ...s }));
  const concerned = f?.requirements?.filter((id) => meta.requirements.includes(id)) ?? [];
  const failed = blocked ? [] : concerned.length > 0 ? concerned : [...meta.requirements];
  return { check, failure, failed };
}

/** Merges every check's readings; a key observed with different values keeps all of them. */
export function mergeReadings(metas: readonly CheckMeta[]): Record<string, string> {
  const seen = new Map<string, string[]>();
  for (const m of metas) {
    for (const [k, v] of Object.entries(m.readings ?? {})) {
      const values = seen.get(k) ?? [];
      if (!values.includes(v)) values.push(v);
      seen.set(k, values);
    }
  }
  return Object.fromEntries([...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.join(' | ')]));
}

/** Every warning once, with the checks (and their requirements) that raised it. */
export function mergeWarnings(checks: readonly { name: string; meta: CheckMeta; }[]): ReportWarning[] {
  const merged = new Map<string, ReportWarning>();
  for (const { name, meta } of checks) {
    for (const w of meta.warnings ?? []) {
      const key = `${w.name}\u0000${w.message}`;
      const entry = merged.get(key) ?? { name: w.name, message: w.message, checks: [], requirements: [] };
      if (!entry.checks.includes(name)) entry.checks.push(name);
      for (const id of meta.requirements) if (!entry.requirements.includes(id)) entry.requirements.push(id);
      merged.set(key, entry);
    }
  }
  return [...merged.values()].sort((a, b) => a.name.localeCompare(b.name));
}
