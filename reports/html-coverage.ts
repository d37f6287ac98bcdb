import type { Dimension } from '../contract/check.js';
import { coverageGrid, type GridTable } from './coverage-grid.js';
import { COUNTED_OUTCOMES } from './coverage.js';
import type { CoverageCounts, CoverageOutcome, Report } from './types.js';

// The coverage of index.html: collapsed behind one line of counts, then one table per dimension
// (its counts in its heading), each cell a symbol whose tooltip says what it is, what became of
// it and why, then the reasons of the cells not checked, grouped, to read without hovering. The
// skeleton is written here; the inline script fills the tables from the embedded grid.

const SYMBOL: Readonly<Record<CoverageOutcome, string>> = { checked: '✓', failed: '✗', skipped: '↷', 'not-applicable': '–', 'not-run': '○' };

/** Each outcome's word and symbol, for the legend and the script. */
export const OUTCOME_VIEW = Object.fromEntries(COUNTED_OUTCOMES.map((o) => [o.outcome, { word: o.word, symbol: SYMBOL[o.outcome] }])) as Readonly<
  Record<CoverageOutcome, { word: string; symbol: string; }>
>;

/** What each table crosses, in words. */
export const DIMENSION_TITLES: Readonly<Record<Dimension, string>> = {
  fields: 'Fields: each mutating operation × each request field × each kind of value sent',
  refusals: 'Refusals: each mutating operation × each way a request is refused, leaving no trace',
  views: 'Views: each mutating operation × each view that shows its records',
  retries: "Retries: each mutating operation sent again with the same idempotency key, and with the other team's",
  walks: 'Walks: each list and filter × each sort × each order, and records tied on the sort',
  cursors: 'Cursors: the sort and order a cursor was issued for × the sort and order it is then sent with',
};

const number = (n: number) => n.toLocaleString('en-US');

/** The counts in words, `lead` before the first one's word; a count of zero in no outcome's colour. */
export function coverageCountsHtml(c: CoverageCounts, lead = ''): string {
  return COUNTED_OUTCOMES.map(({ outcome, key, word }, i) => {
    const n = c[key];
    return `<span class="cov-count o-${outcome}${n === 0 ? ' zero' : ''}">${number(n)} ${i === 0 ? lead : ''}${word}</span>`;
  }).join(', ');
}

/** The coverage section, collapsed; empty for a report without one (written before it existed). */
export function coverageHtml(report: Report, escape: (s: string) => string): string {
  if (!report.coverage) return '';
  const c = report.coverage.counts;
  const legend = Object.entries(OUTCOME_VIEW).map(([o, v]) => `<span class="cov o-${o}">${v.symbol}</span> ${v.word}`).join(' · ');
  const tables = coverageGrid(report.coverage).map((t) =>
    `<details class="cov-dim" open data-dimension="${escape(t.name)}"><summary><strong>${
      escape(DIMENSION_TITLES[t.name as Dimension] ?? t.name)
    }</strong> <span class="counts">${number(t.counts.total)} cells: ${coverageCountsHtml(t.counts)}</span></summary><div class="cov-grid"></div></details>`
  ).join('');
  return `<section class="extra" id="coverage"><details id="coverage-table"><summary><strong>Coverage</strong>: ${
    coverageCountsHtml(c, `of ${number(c.total)} cells `)
  } <span class="counts">— what the run tried on this target</span></summary><p class="cov-legend">${legend}; hover a symbol for the cell, its check and why it was not checked.</p>${tables}</details></section>`;
}

/** What the inline script needs to fill the tables. */
export function coverageData(report: Report): { grid: GridTable[]; outcomes: typeof OUTCOME_VIEW; } | undefined {
  return report.coverage ? { grid: coverageGrid(report.coverage), outcomes: OUTCOME_VIEW } : undefined;
}
