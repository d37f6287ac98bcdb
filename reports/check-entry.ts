import type { CheckMeta, CheckResult, ReportCheck, ReportFailure } from './types.js';

// A check's contribution to the report: its status line (with the reason of a skip)
// and the evidence of its failure; and the readings all checks observed.

export const NOT_SELECTED = 'not selected';

export interface Entry { check: ReportCheck; failure?: ReportFailure }

/** One check's line in the report, and its failure evidence when it failed. */
export function toEntry(result: CheckResult, meta: CheckMeta, isSelected: (id: string) => boolean): Entry {
  const status = result.state === 'pending' ? 'skipped' : result.state;
  const check: ReportCheck = { name: result.name, status, concern: meta.concern, durationMs: Math.round(result.durationMs) };
  if (status === 'skipped') {
    const unselected = meta.requirements.length > 0 && meta.requirements.every((id) => !isSelected(id));
    check.reason = unselected ? NOT_SELECTED
      : result.state === 'pending' ? 'not run (the run ended before this check finished)'
      : (meta.skipReason ?? result.note ?? 'skipped');
  }
  if (status !== 'failed') return { check };
  const f = meta.failure;
  const message = f?.message ?? (result.errors.length > 0 ? result.errors.join('\n') : 'check failed');
  const failure: ReportFailure = {
    check: result.name, message,
    request: f?.request ?? null, response: f?.response ?? null, curl: f?.curl ?? null,
    seed: f?.seed ?? null, path: f?.path ?? null,
  };
  if (f?.counterexample !== undefined) failure.counterexample = f.counterexample;
  return { check, failure };
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
