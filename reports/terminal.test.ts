import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { colourWanted, paint } from './colour.js';
import { fakeChecks, fakeInput } from './fake-run.js';
import { Progress } from './progress.js';
import { renderTerminalSummary } from './terminal.js';

const paths = { html: 'out/index.html', json: 'out/conformance.json', junit: 'out/junit.xml' };
const mock = { fault: 'field-mistyped', deprecate: ['listCvs'], readings: [] };
const report = buildReport(fakeInput({ mock }));
const text = renderTerminalSummary(report, { paint: paint(false), paths });
const lines = text.split('\n');

describe('the terminal summary', () => {
  it('opens with the verdict in words, then the target and one line of counts', () => {
    expect(lines[1]).toBe('✗ DOES NOT CONFORM: 5 must or implied requirements failed, 2 blocked');
    expect(lines[2]).toMatch(/^ {2}bundled-mock http:\/\/127\.0\.0\.1:4010/);
    expect(lines[3]).toBe(
      '  5 failed · 2 blocked · 3 passed · 2 skipped · 2 not testable — of 14 requirements, 11 with checks against the target (10 checks: 4 failed, 1 blocked, 4 passed, 1 skipped)',
    );
  });

  it('counts the coverage table in one line, its zeros in no colour, and has none for a report without one', () => {
    expect(lines[4]).toBe("  coverage: 4 of 14 cells checked · 1 failed · 4 skipped · 2 not applicable · 3 not run (why, cell by cell: the report's Coverage)");
    const { coverage: _coverage, ...older } = report;
    expect(renderTerminalSummary(older, { paint: paint(false) })).not.toContain('coverage:');
    const none = { ...report.coverage!, counts: { ...report.coverage!.counts, failed: 0, notRun: 0 } };
    const painted = renderTerminalSummary({ ...report, coverage: none }, { paint: paint(true) });
    expect(painted).toContain('\u001b[32m4 of 14 cells checked\u001b[39m · 0 failed · 4 skipped · 2 not applicable · 0 not run');
  });

  it('says a passing run conforms, and colours no count of zero', () => {
    const passing = buildReport(fakeInput({ checks: fakeChecks().map((c) => ({ ...c, state: c.state === 'failed' ? 'passed' as const : c.state })) }));
    const plain = renderTerminalSummary(passing, { paint: paint(false) }).split('\n');
    expect(plain[1]).toMatch(/^✓ CONFORMS: every must and implied requirement checked passed \(\d+ passed, \d+ not checked\)$/);
    const painted = renderTerminalSummary(passing, { paint: paint(true) });
    expect(painted).toContain(' 0 failed ·');
    expect(painted).not.toContain('\u001b[31m0 failed');
  });

  it('says an interrupted run is incomplete, and why, whatever its counts', () => {
    const interrupted = buildReport(fakeInput({
      checks: fakeChecks().map((c) => ({
        ...c,
        state: 'skipped' as const,
        errors: [],
        meta: { ...(c.meta as object), failure: undefined, notRun: 'interrupted by SIGINT' },
      })),
      context: { ...fakeInput().context, stopped: { cause: 'interrupted', message: 'interrupted by SIGINT' } },
    }));
    const out = renderTerminalSummary(interrupted, { paint: paint(false) }).split('\n');
    expect(out[1]).toBe('! RUN INCOMPLETE (INTERRUPTED): interrupted by SIGINT');
    expect(out[3]).toMatch(/skipped \(\d+ not run: the run stopped\)/);
  });

  it('puts the root cause a setup failure shares with a failing check first on the screen, with its evidence', () => {
    const cause = lines.findIndex((l) => l.includes('/data/*/title must be string'));
    expect(cause).toBeGreaterThan(0);
    expect(cause).toBeLessThan(25);
    const block = lines.slice(cause, cause + 8).join('\n');
    expect(block).toContain('failed   RES-PROJECT-SHAPE');
    expect(block).toContain('blocked  1 requirement (1 check) — setup step "a project of team A" failed');
    expect(block).toContain('request  GET http://127.0.0.1:4010/api/public/v1/projects?limit=1');
    expect(block).toMatch(/response 200 \{"data":\[\{"id":"[^"]+","title":4711/);
    expect(block).toContain(`curl     curl -sS -i -X GET 'http://127.0.0.1:4010/api/public/v1/projects?limit=1'`);
    expect(block).toMatch(/again {4}npm start -- --only RES-PROJECT-SHAPE --check '[^']+' --seed 7 --fault field-mistyped --deprecate listCvs/);
  });

  it('says how to start the same mock for the curl lines', () => {
    expect(text).toMatch(/npm run mock -- --port 4010 --seed 7 --fault field-mistyped --deprecate listCvs &/);
  });

  it('groups blocked and skipped requirements by reason, and lists warnings', () => {
    expect(text).toMatch(
      /Blocked \(2 requirements\):\n {2}1 {2}not reached: check "project_id and employee_id filters .*\n {2}1 {2}setup step "a project of team A" failed/,
    );
    expect(text).toMatch(/Skipped \(2 requirements\):\n {2}1 {2}checked on the API description/);
    expect(text).toContain(
      '1 warning (allowed by the document, worth a look):\n  list.last-page: hasMore true followed by an empty last page  (GEN-BASE-PATH)',
    );
  });

  it('prints the report paths once, and no stack trace unless given', () => {
    expect(text.split('Reports: out/index.html')).toHaveLength(2);
    expect(text).not.toMatch(/\n\s+at /);
    const verbose = renderTerminalSummary(report, { paint: paint(false), stacks: new Map([['x [A]', ['Error: boom\n    at thing (suites/x.test.ts:3:1)']]]) });
    expect(verbose).toContain('    at thing (suites/x.test.ts:3:1)');
  });

  it('uses colour only when painted', () => {
    expect(text).not.toContain('\u001b[');
    expect(renderTerminalSummary(report, { paint: paint(true) })).toContain('\u001b[31m');
  });
});

describe('colour', () => {
  it('is on for a terminal only, NO_COLOR turns it off and FORCE_COLOR decides over both', () => {
    expect(colourWanted({ isTTY: true }, {})).toBe(true);
    expect(colourWanted({ isTTY: false }, {})).toBe(false);
    expect(colourWanted({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourWanted({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourWanted({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourWanted({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});

describe('progress', () => {
  const expected = new Map([['A', 2], ['B', 1]]);
  it('prints one line per finished file when not on a terminal', () => {
    let out = '';
    const p = new Progress({
      write: (t: string) => {
        out += t;
      },
    }, paint(false), expected);
    p.checkFinished(['A', 'B'], 'blocked');
    p.fileFinished('suites/a.test.ts');
    p.checkFinished(['A'], 'failed');
    p.fileFinished('suites/b.test.ts');
    expect(out).toBe(
      'conformance 1/2 requirements checked · 2 blocked  (suites/a.test.ts finished)\nconformance 2/2 requirements checked · 1 failed · 1 blocked  (suites/b.test.ts finished)\n',
    );
  });

  it('stops where the run stopped, says so once, and counts nothing after', () => {
    let out = '';
    const p = new Progress({
      write: (t: string) => {
        out += t;
      },
    }, paint(false), expected);
    p.checkFinished(['B'], 'passed');
    p.stop('interrupted by SIGINT');
    p.checkFinished(['A', 'B'], 'skipped');
    p.checkFinished(['A'], 'skipped');
    p.fileFinished('suites/a.test.ts');
    p.stop('again');
    expect(out).toBe('conformance 1/2 requirements checked · stopped: interrupted by SIGINT\n');
  });

  it('rewrites one line in place on a terminal and clears it before the summary', () => {
    let out = '';
    const p = new Progress({
      write: (t: string) => {
        out += t;
      },
      isTTY: true,
    }, paint(false), expected);
    p.checkFinished(['B'], 'passed');
    p.fileFinished('suites/a.test.ts');
    p.clear();
    expect(out).toBe('\r\u001b[Kconformance 1/2 requirements checked\r\u001b[Kconformance 1/2 requirements checked\r\u001b[K');
  });

  it('leads a cause with what differs and the requests that built what it read, before the request; names its script', () => {
    const r = structuredClone(report);
    const f = r.causes![0]!.failure;
    f.differences = [{ path: 'employee.first_name', got: '"Ann"', expected: '"Anna"' }];
    const upload = {
      method: 'POST',
      url: 'http://127.0.0.1:4010/api/public/v1/attachments',
      headers: {},
      file: { name: 'Zoë 東京.bin', size: 65, contentType: 'application/octet-stream' },
    };
    f.state = [{
      summary: 'POST /attachments: upload "Zoë 東京.bin" (65 bytes, application/octet-stream) → 201',
      request: upload,
      status: 201,
      created: 'a1',
      curl: 'curl …',
    }];
    f.reproduce = 'reproduce-cfm-1-C1.sh';
    const block = renderTerminalSummary(r, { paint: paint(false), paths }).split(/\n(?=\d+\. )/)[1]!.split('\n');
    const at = (prefix: string) => block.findIndex((l) => l.trimStart().startsWith(prefix));
    expect(block[at('differs')]).toBe('   differs  employee.first_name: got "Ann", expected "Anna"');
    expect(block[at('after')]).toContain('upload "Zoë 東京.bin" (65 bytes');
    expect(at('differs')).toBeLessThan(at('after'));
    expect(at('after')).toBeLessThan(at('request'));
    expect(block[at('script')]).toContain('sh out/reproduce-cfm-1-C1.sh');
  });
});
