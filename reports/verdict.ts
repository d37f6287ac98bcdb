import type { Report, ReportRequirement } from './types.js';

// The verdict of a run in words, the first thing both first screens (the terminal summary and
// index.html) say, and what `conformance run` and `report diff` decide on: a run that did not
// finish is no verdict on the target, whatever its counts say; one that finished conforms when no
// must or implied requirement failed or is blocked (blocked counts as not passed).

export type VerdictKind = 'conforms' | 'does-not-conform' | 'incomplete';

export interface Verdict {
  kind: VerdictKind;
  /** One line: the verdict, then why. */
  text: string;
}

/** A must or implied requirement failed or was blocked (could not be checked): the run does not conform. */
export const blockingFailures = (report: Report): ReportRequirement[] =>
  report.requirements.filter((r) => (r.status === 'failed' || r.status === 'blocked') && (r.level === 'must' || r.level === 'implied'));

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why the run is no verdict on its target (it stopped, or broke), or undefined when it ran to the end. */
export function incompleteBecause(report: Report): string | undefined {
  if (report.stopped) return report.stopped.message;
  const error = report.errors[0];
  if (error) {
    return `${error.source}: ${(error.message.split('\n')[0] ?? '').trim()}${
      report.errors.length > 1 ? ` (and ${report.errors.length - 1} more run errors)` : ''
    }`;
  }
  return undefined;
}

export function verdictOf(report: Report): Verdict {
  const blocking = blockingFailures(report);
  const failed = blocking.filter((r) => r.status === 'failed').length;
  const blocked = blocking.length - failed;
  const findings = [failed ? `${plural(failed, 'must or implied requirement')} failed` : '', blocked ? `${blocked} blocked` : ''].filter(Boolean).join(', ');
  const why = incompleteBecause(report);
  if (why) {
    const lead = report.stopped?.cause === 'interrupted' ? 'run incomplete (interrupted)' : 'run incomplete';
    return { kind: 'incomplete', text: `${lead}: ${why}${findings ? `; so far ${findings}` : ''}` };
  }
  if (blocking.length > 0) return { kind: 'does-not-conform', text: `does not conform: ${findings}` };
  const s = report.summary;
  return {
    kind: 'conforms',
    text: `conforms: every must and implied requirement checked passed (${s.passed} passed${s.skipped ? `, ${s.skipped} not checked` : ''})`,
  };
}
