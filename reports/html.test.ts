import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { fakeInput } from './fake-run.js';
import { embedJson } from './html.js';
import { secretsFrom } from './redact.js';
import { writeReport } from './write.js';

// The page is checked in a real browser: rendering, grouping, filters and escaping.
// The callbacks below run in Chromium; the project compiles without the DOM lib, hence these.
interface El { dataset: Record<string, string | undefined>; offsetParent: unknown; textContent: string | null; querySelector(s: string): El | null; querySelectorAll(s: string): Iterable<El> }
declare const getComputedStyle: (e: unknown) => { backgroundColor: string };
declare const DOMParser: new () => { parseFromString(text: string, type: string): { querySelector(s: string): El | null; querySelectorAll(s: string): { length: number } } };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe('embedJson', () => {
  it('leaves nothing that could close the script element', () => {
    const text = embedJson({ a: '</script><!-- & \u2028' });
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual({ a: '</script><!-- & \u2028' });
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
      throw new Error(`Chromium not found at ${CHROMIUM}: install the Debian package (apt-get install -y chromium) or set CHROMIUM_PATH. CI installs it in .ci/run.`);
    }
    dir = await mkdtemp(join(tmpdir(), 'conformance-html-'));
    const input = fakeInput();
    const paths = await writeReport(dir, buildReport(input), secretsFrom(input.context?.settings));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
    page.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
    await page.goto(pathToFileURL(paths.html).href);
    await page.waitForSelector('tr.req');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('renders one row per requirement, grouped by section in document order', async () => {
    const groups = await page.$$eval('section.group', (sections) => sections.map((s) => ({
      key: (s as El).dataset.section,
      title: s.querySelector('h2 span')?.textContent,
      ids: [...s.querySelectorAll('tr.req')].map((r) => (r as El).dataset.id),
    })));
    expect(groups.map((g) => g.key)).toEqual(['2', '4', '5', '6', '8', '9']);
    expect(groups.find((g) => g.key === '9')).toEqual({ key: '9', title: '§9 Versioning', ids: ['VER-CURSOR-400', 'VER-BREAKING-ENVELOPES'] });
    expect(groups.flatMap((g) => g.ids).sort()).toEqual(fakeInput().catalog.map((r) => r.id).sort());
    expect(await page.textContent('section.group[data-section="4"] .counts')).toBe('0 passed · 2 failed · 0 skipped · 0 not testable');
    expect(await page.textContent('#count-failed')).toBe('3 failed');
  });

  it('shows status as colour and text', async () => {
    const badge = page.locator('tr.req[data-id="LIST-PAGE-ENVELOPE"] .status');
    expect(await badge.textContent()).toBe('passed');
    expect(await badge.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(26, 127, 55)');
  });

  it('keeps a response body with </script> and markup as text', async () => {
    expect(pageErrors).toEqual([]);
    expect(requests).toEqual([]);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.$$('#matrix b')).toHaveLength(0);
    const response = await page.textContent('tr.req[data-id="LIST-CURSOR-UNDECODABLE"] .response pre');
    expect(response).toContain('</script><script>window.__pwned=1</script><b>bold</b>');
    expect(response).toContain('$CONFORMANCE_API_KEY');
  });

  it('shows the curl, the fast-check seed and path, and the shrunk counterexample of a failure', async () => {
    const row = 'tr.req[data-id="LIST-CURSOR-UNDECODABLE"]';
    expect(await page.textContent(`${row} .curl pre`)).toContain("Authorization: Bearer $CONFORMANCE_API_KEY");
    expect(await page.textContent(`${row} .seed pre`)).toBe('seed: 42\npath: 3:1:0');
    expect(await page.textContent(`${row} .counterexample pre`)).toContain('<!-- not a comment -->');
  });

  it('filters to failed requirements only', async () => {
    expect(await visibleIds()).toHaveLength(8);
    await page.check('#f-failed');
    expect((await visibleIds()).sort()).toEqual(['ISO-GET-OTHER-TEAM-404', 'LIST-CURSOR-UNDECODABLE', 'VER-CURSOR-400']);
    expect(await page.isVisible('section.group[data-section="6"]')).toBe(false);
    await page.uncheck('#f-failed');
    expect(await visibleIds()).toHaveLength(8);
  });

  it('filters by level and by id text', async () => {
    await page.selectOption('#f-level', 'implied');
    expect(await visibleIds()).toEqual(['ISO-GET-OTHER-TEAM-404']);
    await page.selectOption('#f-level', 'not-testable');
    expect(await visibleIds()).toEqual(['EVENTS-NOT-SHOWN']);
    await page.selectOption('#f-level', '');
    await page.fill('#f-id', 'list');
    expect((await visibleIds()).sort()).toEqual(['LIST-CURSOR-UNDECODABLE', 'LIST-PAGE-ENVELOPE']);
    expect(await page.textContent('#f-count')).toBe('showing 2 of 8');
    await page.fill('#f-id', '');
  });

  it('writes a junit.xml the browser parses as XML', async () => {
    const xml = await readFile(join(dir, 'junit.xml'), 'utf8');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return { error: doc.querySelector('parsererror')?.textContent ?? null, cases: doc.querySelectorAll('testcase').length };
    }, xml);
    expect(parsed).toEqual({ error: null, cases: 6 });
  });
});
