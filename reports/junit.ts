import type { Report, ReportCheck, ReportFailure } from './types.js';

// JUnit XML for CI dashboards: one <testsuite> per concern, one <testcase> per check
// (its name carries the requirement ids), failures with the message and the curl. A check
// blocked by a failed setup step is an <error> (it could not run), not a <failure>.

// XML 1.0 forbids most control characters even when escaped.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML, '\uFFFD')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

interface Row {
  check: ReportCheck;
  failure?: ReportFailure;
  requirements: string[];
}

/** A check covering several requirements appears once, with all its failures merged. */
function rowsByConcern(report: Report): Map<string, Row[]> {
  const rows = new Map<string, Row>();
  for (const r of report.requirements) {
    for (const check of r.checks) {
      const key = `${check.concern}\u0000${check.name}`;
      const row = rows.get(key) ?? { check, requirements: [] };
      row.requirements.push(r.id);
      row.failure ??= r.failures.find((f) => f.check === check.name) ?? causeFailure(report, check);
      rows.set(key, row);
    }
  }
  const byConcern = new Map<string, Row[]>();
  for (const row of rows.values()) byConcern.set(row.check.concern, [...(byConcern.get(row.check.concern) ?? []), row]);
  return new Map([...byConcern.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/** A blocked check's evidence is its root cause's (its requirements list no failure of their own). */
function causeFailure(report: Report, check: ReportCheck): ReportFailure | undefined {
  if (check.status !== 'blocked' || !check.cause) return undefined;
  const cause = report.causes?.find((c) => c.id === check.cause);
  return cause ? { ...cause.failure, check: check.name, ...(cause.setup.length ? { setup: cause.setup } : {}) } : undefined;
}

function failureText(f: ReportFailure): string {
  const parts = [f.message];
  if (f.setup?.length) parts.push(`in setup: ${f.setup.join(' › ')}`);
  if (f.curl) parts.push(`reproduce:\n${f.curl}`);
  if (f.replay) parts.push(`run again:\n${f.replay}`);
  if (f.request) parts.push(`request: ${f.request.method} ${f.request.url}`);
  if (f.response) parts.push(`response: ${f.response.status}${f.response.body ? `\n${f.response.body.slice(0, 2000)}` : ''}`);
  if (f.seed !== null) parts.push(`fast-check seed: ${f.seed}${f.path ? `, path: ${f.path}` : ''}`);
  if (f.counterexample !== undefined) parts.push(`counterexample: ${JSON.stringify(f.counterexample)}`);
  return parts.join('\n\n');
}

/**
 * Whether a check the stop kept from running is an error: when the target stopped answering or the
 * deadline passed, the run could not do what it was asked. An interrupted run was stopped on
 * purpose: its unfinished checks are skipped, as conformance.json, index.html and the terminal
 * count them (the run's own error says it was interrupted).
 */
const notRunIsError = (report: Report) => report.stopped?.cause !== 'interrupted';

function testcase(row: Row, report: Report): string {
  const { check } = row;
  const head = `    <testcase name="${xmlEscape(check.name)}" classname="${xmlEscape(check.concern)}" time="${(check.durationMs / 1000).toFixed(3)}"`;
  if (check.status === 'passed') return `${head}/>`;
  // Could not run (the run stopped): an error of the run, not a failure of the target.
  if (check.notRun && notRunIsError(report)) {
    return `${head}>\n      <error message="${xmlEscape(`not run: ${check.notRun}`)}" type="NotRun"/>\n    </testcase>`;
  }
  if (check.status === 'skipped') return `${head}>\n      <skipped message="${xmlEscape(check.reason ?? 'skipped')}"/>\n    </testcase>`;
  const f = row.failure;
  const message = f?.message.split('\n')[0] ?? 'check failed';
  const body = f ? xmlEscape(failureText(f)) : '';
  if (check.status === 'blocked') {
    const blocked = `blocked${f?.setup?.length ? ` by setup step "${f.setup.at(-1)}"` : ''}: ${message}`;
    return `${head}>\n      <error message="${xmlEscape(blocked)}" type="ConformanceBlocked">${body}</error>\n    </testcase>`;
  }
  return `${head}>\n      <failure message="${xmlEscape(message)}" type="ConformanceFailure">${body}</failure>\n    </testcase>`;
}

export function renderJunit(report: Report): string {
  const suites = [...rowsByConcern(report).entries()].map(([concern, rows]) => {
    const notRun = notRunIsError(report) ? rows.filter((r) => r.check.notRun).length : 0;
    const count = (s: string) => rows.filter((r) => r.check.status === s && !(r.check.notRun && notRunIsError(report))).length;
    const time = rows.reduce((t, r) => t + r.check.durationMs, 0) / 1000;
    const attrs = `name="${xmlEscape(concern)}" tests="${rows.length}" failures="${count('failed')}" errors="${count('blocked') + notRun}" skipped="${
      count('skipped')
    }" time="${time.toFixed(3)}"`;
    return `  <testsuite ${attrs}>\n${rows.map((r) => testcase(r, report)).join('\n')}\n  </testsuite>`;
  });
  const all = [...rowsByConcern(report).values()].flat();
  const failures = all.filter((r) => r.check.status === 'failed').length;
  const skipped = all.filter((r) => r.check.status === 'skipped' && !(r.check.notRun && notRunIsError(report))).length;
  const blocked = all.filter((r) => r.check.status === 'blocked').length;
  const notRun = notRunIsError(report) ? all.filter((r) => r.check.notRun).length : 0;
  // Problems of the run itself (a target that did not start, a run that stopped, a suite that did
  // not load) are <error> test cases too, so that a dashboard never shows such a run as green.
  const runErrors = report.errors.map((e, i) =>
    `    <testcase name="${xmlEscape(`${e.source} #${i + 1}`)}" classname="run" time="0.000">\n      <error message="${
      xmlEscape(e.message.split('\n')[0] ?? '')
    }" type="RunError">${xmlEscape(e.message)}</error>\n    </testcase>`
  );
  if (runErrors.length > 0) {
    suites.unshift(
      `  <testsuite name="run" tests="${runErrors.length}" failures="0" errors="${runErrors.length}" skipped="0" time="0.000">\n${
        runErrors.join('\n')
      }\n  </testsuite>`,
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance" tests="${all.length + runErrors.length}" failures="${failures}" errors="${
      report.errors.length + blocked + notRun
    }" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}" timestamp="${xmlEscape(report.startedAt)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
