import { css } from './html-assets.js';
import { coverageData, coverageHtml } from './html-coverage.js';
import { script } from './html-script.js';
import { STATUS_ORDER, statusText, summarySvg } from './html-summary.js';
import { sectionGroup, sectionLabel, sectionTitles } from './sections.js';
import type { Report } from './types.js';
import { type Verdict, verdictOf } from './verdict.js';

// index.html: one self-contained page. What a person needs first comes first: the verdict in
// words (conforms, does not conform, run incomplete and why: also in the title and the badges),
// the counts (each a filter; a count of zero in no status colour), a picture of every section,
// the root causes of what failed, expanded, with their evidence; then warnings, the run's account
// (records left behind collapsed behind their count), run errors and readings; the coverage table
// collapsed behind its counts; then every requirement by section. The report travels as JSON inside a <script type="application/json">
// and is rendered by the inline script, which only ever sets text.

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** JSON that cannot end its <script> element or open a comment: every <, > and & is \u-escaped. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export interface SectionGroup {
  key: string;
  title: string;
  ids: string[];
}

/** Requirements grouped by the document's top-level section, in document order. */
export function groupBySection(report: Report): SectionGroup[] {
  const groups = new Map<string, SectionGroup>();
  for (const r of report.requirements) {
    const key = sectionGroup(r.section);
    const title = sectionTitles[key] ? `§${key} ${sectionTitles[key]}` : /^\d+$/.test(key) ? `§${key}` : key;
    const group = groups.get(key) ?? { key, title, ids: [] };
    group.ids.push(r.id);
    groups.set(key, group);
  }
  const rank = (k: string) => (/^\d+$/.test(k) ? Number(k) : Number.MAX_SAFE_INTEGER);
  return [...groups.values()].sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
}

function headerHtml(report: Report, groups: readonly SectionGroup[]): string {
  const t = report.target;
  const meta = [
    `API document ${report.specVersion}`,
    `target ${t.kind}${t.baseUrl ? ` at ${t.baseUrl}` : ''}`,
    t.shape ? `shape ${t.shape}` : '',
    t.viaPrism ? 'via Prism' : '',
    t.mockFault ? `mock fault ${t.mockFault}` : '',
    `seed ${report.seed ?? 'n/a'}`,
    `started ${report.startedAt}`,
    `${(report.durationMs / 1000).toFixed(1)} s`,
    report.only ? `only ${report.only.join(', ')}` : '',
  ].filter(Boolean).map(escapeHtml).join(' · ');
  const count = (s: string) => report.requirements.filter((r) => r.status === s).length;
  const pills = STATUS_ORDER.map((s) =>
    `<button type="button" class="chip s-${s}${count(s) === 0 ? ' zero' : ''}" id="count-${s}" data-status="${s}" aria-pressed="false" title="show only ${
      statusText(s)
    } requirements">${count(s)} ${statusText(s)}</button>`
  ).join('');
  const verdict = verdictOf(report);
  const incomplete = verdict.kind === 'incomplete'
    ? `<span class="chip s-incomplete" id="run-incomplete" title="${escapeHtml(verdict.text)}">${escapeHtml(verdictWord(report, verdict))}</span>`
    : '';
  return `<header><h1>Conformance report</h1>${verdictHtml(verdict)}<p class="meta">${meta}</p><div class="chips">${incomplete}${pills}</div>${
    summarySvg(report, groups)
  }</header>`;
}

/** The verdict in a word or two: the title's and the badge's. */
function verdictWord(report: Report, v: Verdict): string {
  if (v.kind === 'conforms') return 'conforms';
  if (v.kind === 'does-not-conform') return 'does not conform';
  return report.stopped?.cause === 'interrupted' ? 'run interrupted' : 'run incomplete';
}

/** The verdict in words, first on the page: what it is and why. */
function verdictHtml(v: Verdict): string {
  const [word, ...why] = v.text.split(': ');
  return `<p class="verdict v-${v.kind}" id="verdict"><strong>${escapeHtml(word!.charAt(0).toUpperCase() + word!.slice(1))}</strong>: ${
    escapeHtml(why.join(': '))
  }</p>`;
}

function causesHtml(report: Report): string {
  const causes = report.causes ?? [];
  if (causes.length === 0) return '';
  const mock = report.reproduce
    ? `<div class="reproduce"><div class="label">The mock of this run is gone; start the same one (seed, port, options) to use the curl commands:</div><pre>${
      escapeHtml(report.reproduce.mock.join('\n'))
    }</pre></div>`
    : '';
  return `<section class="extra" id="causes"><h2>Root causes <span class="counts">${causes.length}, most requirements first — fix these first</span></h2><div id="causes-list"></div>${mock}</section>`;
}

function extrasHtml(report: Report): string {
  const warnings = report.target.warnings ?? [];
  const warningItems = warnings.map((w) =>
    `<li><strong>${escapeHtml(w.name)}</strong>: ${escapeHtml(w.message)} <span class="reason">(${escapeHtml(w.requirements.join(', '))})</span></li>`
  ).join('');
  const readings = Object.entries(report.target.readings);
  const readingRows = readings.map(([k, v]) => `<tr><td class="id">${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('');
  const errors = report.errors.map((e) => `<li><strong>${escapeHtml(e.source)}</strong>: <pre>${escapeHtml(e.message)}</pre></li>`).join('');
  return [
    warnings.length
      ? `<section class="extra" id="warnings"><h2>Warnings <span class="counts">${warnings.length} — allowed by the document, worth a look; they never fail a run</span></h2><ul>${warningItems}</ul></section>`
      : '',
    runAccountHtml(report),
    errors ? `<section class="extra" id="run-errors"><h2>Run errors</h2><ul>${errors}</ul></section>` : '',
    readings.length ? `<section class="extra" id="readings"><h2>Readings observed</h2><table><tbody>${readingRows}</tbody></table></section>` : '',
  ].join('');
}

/** One block: run id, read-only, why the run stopped, records left behind, pre-existing records touched. */
function runAccountHtml(report: Report): string {
  const lines: string[] = [];
  if (report.stopped) lines.push(`<strong>Stopped early (${escapeHtml(report.stopped.cause)})</strong>: ${escapeHtml(report.stopped.message)}`);
  if (report.runId) {
    lines.push(
      `Run id <code>${escapeHtml(report.runId)}</code>${report.readOnly ? ' · read-only (no mutating request sent)' : ''}${
        report.requests !== undefined ? ` · ${report.requests} requests` : ''
      }`,
    );
  }
  const left = Object.entries(report.leftovers ?? {}).filter(([, v]) => v.count > 0);
  if (left.length) {
    // The count first; the ids (dozens of UUIDs) one click away.
    const total = left.reduce((n, [, v]) => n + v.count, 0);
    const counts = left.map(([k, v]) => `${escapeHtml(k)} ${v.count}`).join(', ');
    const ids = left.map(([k, v]) =>
      `<div><strong>${escapeHtml(k)}</strong> (${escapeHtml(v.why.join('; '))}):<ul>${
        v.ids.map((id) => `<li><code>${escapeHtml(id)}</code>${v.names?.[id] !== undefined ? ` ${escapeHtml(v.names[id])}` : ''}</li>`).join('')
      }</ul></div>`
    )
      .join('');
    lines.push(
      `<details id="leftovers"><summary>Left on the target: ${total} record${total === 1 ? '' : 's'} (${counts})${
        report.runId ? `, named with run id <code>${escapeHtml(report.runId)}</code>` : ''
      }</summary>${ids}</details>`,
    );
  }
  const touched = report.touched ?? [];
  if (touched.length) {
    const notBack = touched.filter((t) => t.restored !== true);
    lines.push(
      `Pre-existing records changed and restored: ${touched.length - notBack.length} of ${touched.length} back as found${
        notBack.length
          ? `; not back: ${
            notBack.map((t) =>
              `${escapeHtml(t.resource)} <code>${escapeHtml(t.id)}</code>${t.scratch ? ' (scratch)' : ''} ${
                escapeHtml(t.differences.join(', ') || 'restore did not run')
              }`
            ).join('; ')
          }`
          : ''
      }`,
    );
  }
  return lines.length ? `<section class="extra" id="run-account"><h2>Run</h2><ul>${lines.map((l) => `<li>${l}</li>`).join('')}</ul></section>` : '';
}

const filtersHtml = `<div class="filters" id="filters">
<label>status <select id="f-status"><option value="">all</option>${
  STATUS_ORDER.map((s) => `<option value="${s}">${statusText(s)}</option>`).join('')
}</select></label>
<label>level <select id="f-level"><option value="">all</option><option value="must">must</option><option value="implied">implied</option><option value="not-testable">not-testable</option></select></label>
<label>id <input type="search" id="f-id" placeholder="e.g. LIST-CURSOR"></label>
<span id="f-count" class="counts"></span>
</div>`;

export function renderHtml(report: Report): string {
  const groups = groupBySection(report);
  const labels = Object.fromEntries(report.requirements.map((r) => [r.id, sectionLabel(r.section)]));
  const coverage = coverageData(report);
  const data = embedJson({ report, groups, labels, ...(coverage ? { coverage } : {}) });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>Conformance report — ${escapeHtml(verdictWord(report, verdictOf(report)))} — ${escapeHtml(report.target.baseUrl ?? report.target.kind)}</title>
<style>${css}</style>
</head>
<body>
${headerHtml(report, groups)}
${causesHtml(report)}
${extrasHtml(report)}
${coverageHtml(report, escapeHtml)}
${filtersHtml}
<main id="matrix"></main>
<script type="application/json" id="report-data">${data}</script>
<script>${script}</script>
</body>
</html>
`;
}
