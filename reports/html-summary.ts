import type { Report, RequirementStatus } from './types.js';

// The picture at the top of index.html: one stacked bar per section of the API document, one
// segment per status, all bars on one scale so a large section looks large. Inline SVG, no
// external asset; every segment carries a <title> (its tooltip) with the count in words.

export interface SummaryGroup {
  key: string;
  title: string;
  ids: string[];
}

export const STATUS_ORDER: readonly RequirementStatus[] = ['failed', 'blocked', 'passed', 'skipped', 'not-testable'];
export const STATUS_COLOUR: Readonly<Record<RequirementStatus, string>> = {
  passed: '#1a7f37',
  failed: '#cf222e',
  blocked: '#9a6700',
  skipped: '#6e7781',
  'not-testable': '#0969da',
};
export const statusText = (s: RequirementStatus) => (s === 'not-testable' ? 'not testable' : s);

const LABEL_W = 210;
const BAR_W = 460;
const ROW_H = 22;
const BAR_H = 14;

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function summarySvg(report: Report, groups: readonly SummaryGroup[]): string {
  const status = new Map(report.requirements.map((r) => [r.id, r.status]));
  const max = Math.max(1, ...groups.map((g) => g.ids.length));
  const rows = groups.map((g, i) => {
    const y = i * ROW_H;
    let x = LABEL_W;
    const segments = STATUS_ORDER.map((s) => {
      const n = g.ids.filter((id) => status.get(id) === s).length;
      if (n === 0) return '';
      const w = (n / max) * BAR_W;
      const rect = `<rect class="seg" data-status="${s}" x="${x.toFixed(1)}" y="${y + 4}" width="${w.toFixed(1)}" height="${BAR_H}" fill="${
        STATUS_COLOUR[s]
      }"><title>${xml(`${g.title}: ${n} ${statusText(s)}`)}</title></rect>`;
      x += w;
      return rect;
    }).join('');
    const label = `<text x="0" y="${y + 15}" class="label">${xml(g.title)}</text>`;
    const total = `<text x="${(x + 6).toFixed(1)}" y="${y + 15}" class="total">${g.ids.length}</text>`;
    return `<g class="bar" data-section="${xml(g.key)}">${label}${segments}${total}</g>`;
  });
  const legendY = groups.length * ROW_H + 8;
  const legend = STATUS_ORDER.map((s, i) => {
    const x = LABEL_W + i * 95;
    return `<rect x="${x}" y="${legendY}" width="10" height="10" fill="${STATUS_COLOUR[s]}"/><text x="${x + 14}" y="${legendY + 9}" class="legend">${
      statusText(s)
    }</text>`;
  }).join('');
  const height = legendY + 16;
  const width = LABEL_W + BAR_W + 40;
  const label = `Requirements per section of the API document: ${
    STATUS_ORDER.map((s) => `${report.requirements.filter((r) => r.status === s).length} ${statusText(s)}`).join(', ')
  }`;
  return `<svg id="summary-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${
    xml(label)
  }">${rows.join('')}${legend}</svg>`;
}
