import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { fakeCascade, fakeChecks, fakeInput } from './fake-run.js';
import { embedJson, renderHtml } from './html.js';
import { secretsFrom } from './redact.js';
import { writeReport } from './write.js';

// The page is checked in a real browser: rendering, grouping, filters and escaping.
// The callbacks below run in Chromium; the project compiles without the DOM lib, hence these.
interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
}
interface El {
  dataset: Record<string, string | undefined>;
  offsetParent: unknown;
  textContent: string | null;
  hasAttribute(a: string): boolean;
  getBoundingClientRect(): Rect;
  querySelector(s: string): El | null;
  querySelectorAll(s: string): Iterable<El>;
}
declare const document: {
  createRange(): { selectNodeContents(n: unknown): void; getBoundingClientRect(): Rect; };
  querySelector(s: string): El | null;
  querySelectorAll(s: string): Iterable<El>;
};
declare const getComputedStyle: (e: unknown) => { backgroundColor: string; color: string; };
declare const DOMParser: new() => {
  parseFromString(text: string, type: string): { querySelector(s: string): El | null; querySelectorAll(s: string): { length: number; }; };
};

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('embedJson', () => {
  it('leaves nothing that could close the script element', () => {
    const text = embedJson({ a: '</script><!-- & \u2028' });
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual({ a: '</script><!-- & \u2028' });
  });
});

describe('index.html of a report written before the coverage table existed', () => {
  it('has no coverage section and embeds no grid', () => {
    const { coverage: _coverage, ...older } = buildReport(fakeInput());
    const html = renderHtml(older);
    expect(html).not.toContain('id="coverage"');
    expect(html).not.toContain('"grid"');
    expect(renderHtml(buildReport(fakeInput()))).toContain('id="coverage"');
  });
});

describe('index.html in headless Chromium', () => {
  let browser: Browser | undefined;
  let page: Page;
  let dir = '';
  const pageErrors: string[] = [];
  const requests: string[] = [];
  const visibleIds = () => page.$$eval('tr.req', (rows) => rows.filter((r) => (r as El).offsetParent !== null).map((r) => (r as El).dataset.id));

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium not found at ${CHROMIUM}: install the Debian package (apt-get install -y chromium) or set CHROMIUM_PATH. CI installs it in .ci/run.`,
      );
    }
    dir = await mkdtemp(join(tmpdir(), 'conformance-html-'));
    const input = fakeInput({ mock: { fault: 'field-mistyped', deprecate: ['listCvs'], readings: [] } });
    const paths = await writeReport(dir, buildReport(input), secretsFrom(input.context?.settings));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(paths.html).href);
    await page.waitForSelector('tr.req');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('renders one row per requirement, grouped by section in document order', async () => {
    const groups = await page.$$eval('section.group', (sections) =>
      sections.map((s) => ({
        key: (s as El).dataset.section,
        title: s.querySelector('h2 span')?.textContent,
        ids: [...s.querySelectorAll('tr.req')].map((r) => (r as El).dataset.id),
      })));
    expect(groups.map((g) => g.key)).toEqual(['1', '2', '4', '5', '6', '8', '9']);
    expect(groups.find((g) => g.key === '9')).toEqual({ key: '9', title: '§9 Versioning', ids: ['VER-CURSOR-400', 'VER-BREAKING-ENVELOPES'] });
    expect(groups.flatMap((g) => g.ids).sort()).toEqual(fakeInput().catalog.map((r) => r.id).sort());
    expect(await page.textContent('section.group[data-section="4"] .counts')).toBe('3 failed · 2 blocked · 0 passed · 0 skipped · 0 not testable');
    expect(await page.textContent('#count-failed')).toBe('5 failed');
    expect(await page.textContent('#count-blocked')).toBe('2 blocked');
  });

  it('labels every section the same way: §N and a name', async () => {
    const labels = await page.$$eval('tr.req td.section', (cells) => cells.map((c) => c.textContent ?? ''));
    for (const label of labels) expect(label).toMatch(/^§\d+ \S/);
    expect(await page.textContent('tr.req[data-id="GEN-SERVICE-SCOPE"] td.section')).toBe('§1 What the service does');
    expect(await page.textContent('tr.req[data-id="GEN-BASE-PATH"] td.section')).toBe('§1 Base address');
    expect(await page.textContent('tr.req[data-id="VER-CURSOR-400"] td.section')).toBe('§9 Changelog 1.4.0');
  });

  it('shows status as colour and text, the "not testable" badge clear of the cell beside it', async () => {
    const badge = page.locator('tr.req[data-id="LIST-PAGE-ENVELOPE"] .status');
    expect(await badge.textContent()).toBe('passed');
    expect(await badge.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(26, 127, 55)');
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 800 });
      const gap = await page.$eval('tr.req[data-id="GEN-SERVICE-SCOPE"]', (tr) => {
        const pill = (tr as El).querySelector('.status')!.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents((tr as El).querySelector('td.checks'));
        return { text: (tr as El).querySelector('td.checks')!.textContent, gap: range.getBoundingClientRect().left - pill.right };
      });
      expect(gap.text).toBe('—');
      expect(gap.gap, `at ${width}px`).toBeGreaterThan(4);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('keeps a response body with </script> and markup as text', async () => {
    expect(pageErrors).toEqual([]);
    expect(requests).toEqual([]);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number; }).__pwned)).toBeUndefined();
    expect(await page.$$('#matrix b, #causes b')).toHaveLength(0);
    const response = await page.textContent('tr.req[data-id="LIST-CURSOR-UNDECODABLE"] .response pre');
    expect(response).toContain('</script><script>window.__pwned=1</script><b>bold</b>');
    expect(response).toContain('$CONFORMANCE_API_KEY');
  });

  it('shows the curl, the fast-check seed and path, the shrunk counterexample and the command that runs it again', async () => {
    const row = 'tr.req[data-id="LIST-CURSOR-UNDECODABLE"]';
    expect(await page.textContent(`${row} .curl pre`)).toContain('Authorization: Bearer $CONFORMANCE_API_KEY');
    expect(await page.textContent(`${row} .seed pre`)).toBe('seed: 42\npath: 3:1:0');
    expect(await page.textContent(`${row} .counterexample pre`)).toContain('<!-- not a comment -->');
    expect(await page.textContent(`${row} .replay pre`)).toBe(
      "npm start -- --only LIST-CURSOR-UNDECODABLE,VER-CURSOR-400 --check 'undecodable cursor answers 400 [LIST-CURSOR-UNDECODABLE, VER-CURSOR-400]' --seed 7 --path 3:1:0 --fault field-mistyped --deprecate listCvs",
    );
    expect(await page.$eval(`${row} details.failure`, (d) => (d as El).hasAttribute('open'))).toBe(true);
  });

  it('puts the root causes first, expanded, before the readings and the matrix', async () => {
    const order = await page.$$eval('#causes, #warnings, #readings, #filters, #matrix', (els) => els.map((e) => (e as unknown as { id: string; }).id));
    expect(order).toEqual(['causes', 'warnings', 'readings', 'filters', 'matrix']);
    const first = page.locator('#causes-list details.cause').first();
    expect(await first.getAttribute('open')).toBe('');
    expect(await first.locator(':scope > summary').textContent()).toBe('1.page of project does not match the page envelope: /data/*/title must be string');
    expect(await first.locator('.facts').textContent()).toMatch(
      /failedRES-PROJECT-SHAPE.*blocked1 requirement \(1 check\) — setup step "a project of team A" failed: LIST-LIMIT/,
    );
    expect(await first.locator('.exchange pre').textContent()).toMatch(
      /^GET http:\/\/127\.0\.0\.1:4010\/api\/public\/v1\/projects\?limit=1\n→ 200 \{"data":\[\{"id":"[^"]+","title":4711/,
    );
    expect(await page.textContent('#causes .reproduce pre')).toMatch(/npm run mock -- --port 4010 --seed 7 --fault field-mistyped --deprecate listCvs &/);
    expect(await page.textContent('tr.req[data-id="LIST-LIMIT"] a.cause-link')).toBe('root cause 1');
    expect(await page.textContent('#warnings li')).toBe('list.last-page: hasMore true followed by an empty last page (GEN-BASE-PATH)');
  });

  it('shows a failure on the first screen (1280×800)', async () => {
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void; }).scrollTo(0, 0));
    const shot = await page.screenshot();
    // PNG: width and height are the big-endian words at bytes 16 and 20 of the IHDR chunk.
    expect([shot.readUInt32BE(16), shot.readUInt32BE(20)]).toEqual([1280, 800]);
    expect(shot.length).toBeGreaterThan(20_000); // rendered content, not a blank page
    expect(shot.length).toBeLessThan(3_000_000);
    const box = await page.locator('#causes-list details.cause').first().locator('.exchange').boundingBox();
    expect(box && box.y + box.height).toBeLessThan(800);
  });

  it('draws one stacked bar per section, with no external asset', async () => {
    const bars = await page.$$eval('#summary-chart g.bar', (gs) =>
      gs.map((g) => ({
        section: (g as El).dataset.section,
        segments: [...g.querySelectorAll('rect.seg')].map((r) => (r as El).dataset.status),
      })));
    expect(bars.map((b) => b.section)).toEqual(['1', '2', '4', '5', '6', '8', '9']);
    expect(bars.find((b) => b.section === '4')?.segments).toEqual(['failed', 'blocked']);
    expect(bars.find((b) => b.section === '1')?.segments).toEqual(['passed', 'not-testable']);
    expect(await page.textContent('#summary-chart g.bar[data-section="4"] title')).toBe('§4 Endpoints: 3 failed');
    expect(requests).toEqual([]);
  });

  it('filters by status with the pills and the select', async () => {
    expect(await visibleIds()).toHaveLength(14);
    await page.click('#count-failed');
    expect((await visibleIds()).sort()).toEqual([
      'ISO-GET-OTHER-TEAM-404',
      'LIST-CURSOR-UNDECODABLE',
      'LIST-FILTER-PROJECT-ID',
      'RES-PROJECT-SHAPE',
      'VER-CURSOR-400',
    ]);
    expect(await page.getAttribute('#count-failed', 'aria-pressed')).toBe('true');
    expect(await page.isVisible('section.group[data-section="6"]')).toBe(false);
    await page.click('#count-blocked');
    expect((await visibleIds()).sort()).toEqual(['LIST-FILTER-EMPLOYEE-ID', 'LIST-LIMIT']);
    expect(await page.getAttribute('#count-failed', 'aria-pressed')).toBe('false');
    await page.click('#count-blocked');
    expect(await visibleIds()).toHaveLength(14);
    await page.selectOption('#f-status', 'not-testable');
    expect((await visibleIds()).sort()).toEqual(['EVENTS-NOT-SHOWN', 'GEN-SERVICE-SCOPE']);
    expect(await page.getAttribute('#count-not-testable', 'aria-pressed')).toBe('true');
    await page.selectOption('#f-status', '');
  });

  it('filters by level and by id text', async () => {
    await page.selectOption('#f-level', 'implied');
    expect(await visibleIds()).toEqual(['ISO-GET-OTHER-TEAM-404']);
    await page.selectOption('#f-level', '');
    await page.fill('#f-id', 'list-c');
    expect((await visibleIds()).sort()).toEqual(['LIST-CURSOR-UNDECODABLE']);
    expect(await page.textContent('#f-count')).toBe('showing 1 of 14');
    await page.fill('#f-id', '');
  });

  it('shows the coverage collapsed behind its counts, then one table per dimension, each cell a symbol with its outcome and why', async () => {
    expect(await page.$eval('#coverage-table', (d) => (d as El).hasAttribute('open'))).toBe(false);
    expect(await page.textContent('#coverage-table > summary')).toBe(
      'Coverage: 4 of 14 cells checked, 1 failed, 4 skipped, 2 not applicable, 3 not run — what the run tried on this target',
    );
    expect(await page.isVisible('details.cov-dim')).toBe(false);
    await page.click('#coverage-table > summary');
    const tables = await page.$$eval('details.cov-dim', (ds) =>
      ds.map((d) => ({
        dimension: (d as El).dataset.dimension,
        heading: d.querySelector('summary .counts')?.textContent,
        columns: [...d.querySelectorAll('th.cov-col')].map((t) => t.textContent),
        rows: [...d.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)),
      })));
    expect(tables.map((t) => t.dimension)).toEqual(['fields', 'refusals', 'walks', 'cursors']);
    const fields = tables[0]!;
    expect(fields.heading).toBe('5 cells: 2 checked, 0 failed, 2 skipped, 1 not applicable, 0 not run');
    // a field is a row, the kinds of value its columns; the listed values share one
    expect(fields.columns).toEqual(['filled', 'value']);
    expect(fields.rows).toEqual([
      ['createProject', 'title', '✓', '✓'],
      ['', 'billing_type', '', '↷'],
      ['', 'id', '–', ''],
      ['updateProject', 'stage', '↷', ''],
    ]);
    expect(tables[2]!.columns).toEqual(['order=asc', 'order=desc', 'ties', 'order=default']);
    expect(tables[2]!.rows).toEqual([['GET /projects', 'sort=default', '✓', '✓', '–', '○'], ['GET /cvs', 'sort=default', '↷', '', '', '']]);
    expect(tables[3]!.rows).toEqual([
      ['GET /projects', 'from sort=default order=asc', '✗', ''],
      ['', 'from sort=default order=desc', '', '○'],
    ]);
    // the tooltip: the cell, its outcome, why, and its check; markup in an aspect stays text
    const tips = await page.$$eval('#coverage span.cov[data-outcome]', (spans) => spans.map((s) => (s as unknown as { title: string; }).title));
    expect(tips).toHaveLength(14);
    expect(tips).toContain('createProject · id filled: not applicable — an id the server assigns');
    expect(tips.find((t) => t.startsWith('GET /projects · from sort=default order=asc'))).toMatch(
      /^GET \/projects · from sort=default order=asc to sort=default order=desc: failed — run; its check failed \(root cause C\d+\)\ncheck: undecodable cursor answers 400 \[/,
    );
    expect(tips).toContain('createProject · title value <b>x</b>: checked\ncheck: cursor of another sort answers 400 [LIST-CURSOR-UNDECODABLE]');
    expect(await page.$$('#coverage b')).toHaveLength(0);
    // the reasons of the cells not checked, readable without hovering: what the run could not do first
    expect(await page.$$eval('details.cov-dim[data-dimension="walks"] ul.cov-reasons li', (lis) => lis.map((l) => l.textContent))).toEqual([
      expect.stringMatching(/^○ 1 not run: its check was blocked: setup step "a project of team A" failed \(root cause C\d+\)$/),
      '↷ 1 skipped: GET /cvs has a single page',
      '– 1 not applicable: the default sort field is not shown',
    ]);
    // a count of zero in no outcome's colour
    const colour = (sel: string) => page.$eval(sel, (e) => getComputedStyle(e).color);
    expect(await colour('details.cov-dim[data-dimension="cursors"] .cov-count.o-failed')).toBe('rgb(207, 34, 46)');
    expect(await colour('details.cov-dim[data-dimension="fields"] .cov-count.o-failed')).toBe('rgb(87, 96, 106)');
    expect(pageErrors).toEqual([]);
    await page.click('#coverage-table > summary');
  });

  it('writes a junit.xml the browser parses as XML', async () => {
    const xml = await readFile(join(dir, 'junit.xml'), 'utf8');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return { error: doc.querySelector('parsererror')?.textContent ?? null, cases: doc.querySelectorAll('testcase').length };
    }, xml);
    expect(parsed).toEqual({ error: null, cases: 10 });
  });
});

describe('the first screen of index.html says the verdict in words', () => {
  let browser: Browser | undefined;
  let dir = '';
  const passing = () =>
    fakeInput({
      checks: [...fakeChecks(), ...fakeCascade()].map((c) => ({
        ...c,
        state: c.state === 'failed' ? 'passed' as const : c.state,
        meta: { ...(c.meta as object), failure: undefined },
      })),
    });
  const leftovers = {
    employees: {
      count: 60,
      ids: Array.from({ length: 60 }, (_, i) => `3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f${String(i).padStart(2, '0')}`),
      why: ['the API offers no way to delete it'],
    },
  };

  /** The report written and opened at 1280×800. */
  async function open(name: string, input: ReturnType<typeof fakeInput>, accounting?: Parameters<typeof buildReport>[0]['accounting']): Promise<Page> {
    const paths = await writeReport(join(dir, name), buildReport({ ...input, ...(accounting ? { accounting } : {}) }), []);
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(pathToFileURL(paths.html).href);
    await page.waitForSelector('tr.req');
    return page;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-verdict-'));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a failing run: "Does not conform", first, above the counts', async () => {
    const page = await open('failing', fakeInput());
    expect(await page.textContent('#verdict')).toBe('Does not conform: 5 must or implied requirements failed, 2 blocked');
    expect(await page.title()).toMatch(/^Conformance report — does not conform — /);
    const [verdict, chips] = await Promise.all([page.locator('#verdict').boundingBox(), page.locator('.chips').boundingBox()]);
    expect(verdict!.y).toBeLessThan(chips!.y);
  });

  it('a passing run: "Conforms", counts of zero in no status colour, the records left behind behind their count', async () => {
    const page = await open('passing', passing(), () => ({ leftovers, touched: [], requests: 10 }));
    expect(await page.textContent('#verdict')).toMatch(/^Conforms: every must and implied requirement checked passed/);
    expect(await page.title()).toMatch(/^Conformance report — conforms — /);
    const colour = (id: string) => page.$eval(id, (e) => getComputedStyle(e).backgroundColor);
    expect(await page.textContent('#count-failed')).toBe('0 failed');
    expect(await colour('#count-failed')).not.toBe('rgb(207, 34, 46)');
    expect(await colour('#count-blocked')).toBe(await colour('#count-failed'));
    expect(await colour('#count-passed')).toBe('rgb(26, 127, 55)');
    expect(await page.textContent('#leftovers summary')).toBe('Left on the target: 60 records (employees 60)');
    expect(await page.$eval('#leftovers', (d) => (d as El).hasAttribute('open'))).toBe(false);
    expect(await page.isVisible('#leftovers code')).toBe(false);
  });

  it('an interrupted run: the title, a badge and the verdict say so', async () => {
    const interrupted = fakeInput({
      checks: [...fakeChecks(), ...fakeCascade()].map((c) => ({
        ...c,
        state: 'skipped' as const,
        errors: [],
        meta: { ...(c.meta as object), failure: undefined },
      })),
      context: { ...fakeInput().context, stopped: { cause: 'interrupted', message: 'interrupted by SIGINT' } },
    });
    const page = await open('interrupted', interrupted);
    expect(await page.title()).toMatch(/^Conformance report — run interrupted — /);
    expect(await page.textContent('#run-incomplete')).toBe('run interrupted');
    expect(await page.textContent('#verdict')).toBe('Run incomplete (interrupted): interrupted by SIGINT');
    const [badge, verdict] = [await page.locator('#run-incomplete').boundingBox(), await page.locator('#verdict').boundingBox()];
    expect(badge!.y + badge!.height).toBeLessThan(800);
    expect(verdict!.y + verdict!.height).toBeLessThan(800);
  });
});
