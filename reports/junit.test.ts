import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { fakeInput } from './fake-run.js';
import { renderJunit, xmlEscape } from './junit.js';

/** A small well-formedness check: balanced elements, quoted attributes, no raw `<` or bare `&` in text. */
function assertWellFormed(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = token.exec(body)) !== null) {
    consumed = token.lastIndex;
    const [, close, name, , selfClose, text] = m;
    if (text !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(text)) throw new Error(`bare & in text: ${text.slice(0, 40)}`);
      if (stack.length === 0 && text.trim()) throw new Error('text outside the root element');
    } else if (close) {
      if (stack.pop() !== name) throw new Error(`unbalanced </${name}>`);
    } else if (!selfClose) stack.push(name!);
  }
  if (consumed !== body.length) throw new Error(`not XML at offset ${consumed}: ${body.slice(consumed, consumed + 60)}`);
  if (stack.length) throw new Error(`unclosed <${stack.join('>, <')}>`);
}

describe('junit.xml', () => {
  const report = buildReport(fakeInput());
  const xml = renderJunit(report);

  it('is well-formed although bodies carry markup', () => {
    expect(() => assertWellFormed(xml)).not.toThrow();
    expect(() => assertWellFormed('<a><b></a>')).toThrow(); // the checker can fail
  });

  it('has one testcase per check, named with its requirement ids, classname the concern', () => {
    const cases = [...xml.matchAll(/<testcase name="([^"]*)" classname="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    expect(cases).toHaveLength(10); // a check covering two requirements appears once
    expect(cases).toContainEqual(['undecodable cursor answers 400 [LIST-CURSOR-UNDECODABLE, VER-CURSOR-400]', 'cursors']);
    expect(cases).toContainEqual(['GET of another team&apos;s project is 404 [ISO-GET-OTHER-TEAM-404]', 'isolation']);
  });

  it('gives failures their message and the curl, and skips their reason', () => {
    expect(xml).toMatch(/<failure message="expected status 400, got 200;[^"]*" type="ConformanceFailure">/);
    expect(xml).toContain('curl -sS -H &apos;Authorization: Bearer $CONFORMANCE_API_KEY&apos;');
    expect(xml).toContain('<skipped message="needs CONFORMANCE_API_KEY_READ_ONLY"/>');
    expect(xml).toMatch(/<testsuites name="conformance" tests="10" failures="4" errors="1" skipped="1"/);
  });

  it("reports a check blocked by a setup step as an error carrying its root cause's evidence", () => {
    expect(xml).toMatch(
      /<testcase name="limit bounds every page \[LIST-LIMIT\]"[^>]*>\s*<error message="blocked by setup step &quot;a project of team A&quot;: page of project does not match/,
    );
    expect(xml).toContain('in setup: a project of team A');
  });

  it('escapes markup and drops characters XML cannot carry', () => {
    expect(xmlEscape('<a href="x">&\u0001')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;\uFFFD');
  });

  it('counts the checks an interruption kept from running as skipped, as the other reports do; a stop of the target as errors', () => {
    const notRun = (report: ReturnType<typeof buildReport>, cause: 'interrupted' | 'deadline') => {
      const checks = report.requirements.flatMap((r) => r.checks);
      const first = checks.find((c) => c.status === 'skipped')!;
      first.notRun = cause === 'interrupted' ? 'interrupted by SIGINT' : 'the deadline passed';
      return renderJunit({ ...report, stopped: { cause, message: first.notRun } });
    };
    const interrupted = notRun(buildReport(fakeInput()), 'interrupted');
    expect(interrupted).toMatch(/<testsuites name="conformance" tests="10" failures="4" errors="1" skipped="1"/);
    expect(interrupted).toContain('<skipped message="needs CONFORMANCE_API_KEY_READ_ONLY"/>');
    const deadline = notRun(buildReport(fakeInput()), 'deadline');
    expect(deadline).toMatch(/<testsuites name="conformance" tests="10" failures="4" errors="2" skipped="0"/);
    expect(deadline).toContain('type="NotRun"');
  });
});
