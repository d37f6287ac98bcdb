// The inline stylesheet of index.html. The page must work from a file:// URL with no network,
// so nothing is loaded from elsewhere (the script is in html-script.ts).

export const css = `
:root { --pass:#1a7f37; --fail:#cf222e; --block:#9a6700; --skip:#6e7781; --nt:#0969da; --bg:#fff; --fg:#1f2328; --muted:#57606a; --line:#d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: var(--fg); background: var(--bg); }
header, .filters, main, .extra { padding: 0 24px; }
h1 { font-size: 22px; margin: 16px 0 4px; }
h2 { font-size: 17px; margin: 20px 0 8px; display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
.meta { color: var(--muted); margin: 0 0 8px; }
.chips { display: flex; gap: 8px; flex-wrap: wrap; margin: 8px 0; }
.chip, .status { display: inline-block; border-radius: 12px; padding: 1px 10px; font-weight: 600; color: #fff; white-space: nowrap; border: 0; }
.chip { font: inherit; font-weight: 600; cursor: pointer; outline-offset: 2px; }
.chip[aria-pressed="true"] { outline: 3px solid var(--fg); }
.chip.zero { background: #eaeef2; color: var(--muted); }
.chip.s-incomplete { background: #fff8c5; color: #7d4e00; border: 2px solid var(--block); cursor: default; }
.verdict { font-size: 17px; margin: 4px 0 8px; padding: 6px 12px; border-left: 6px solid var(--muted); background: #f6f8fa; }
.verdict.v-conforms { border-left-color: var(--pass); } .verdict.v-does-not-conform { border-left-color: var(--fail); } .verdict.v-incomplete { border-left-color: var(--block); background: #fff8c5; }
#leftovers summary { cursor: pointer; }
.status { font-size: 12px; }
.s-passed { background: var(--pass); } .s-failed { background: var(--fail); } .s-blocked { background: var(--block); } .s-skipped { background: var(--skip); } .s-not-testable { background: var(--nt); }
#summary-chart { display: block; max-width: 100%; height: auto; margin: 4px 0 8px; }
#summary-chart .label, #summary-chart .total, #summary-chart .legend { font: 12px system-ui, sans-serif; fill: var(--fg); }
#summary-chart .total, #summary-chart .legend { fill: var(--muted); }
.counts { font-size: 13px; font-weight: normal; color: var(--muted); }
.filters { position: sticky; top: 0; background: #f6f8fa; border-bottom: 1px solid var(--line); border-top: 1px solid var(--line); display: flex; gap: 16px; align-items: center; padding-top: 8px; padding-bottom: 8px; flex-wrap: wrap; margin-top: 16px; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
col.c-id { width: 26%; } col.c-section { width: 15%; } col.c-level { width: 6.5em; } col.c-status { width: 8.5em; } col.c-checks { width: 7.5em; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: 6px 8px; }
th { font-size: 12px; color: var(--muted); text-transform: uppercase; }
td.id { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
td.section { overflow-wrap: anywhere; }
.quote { color: var(--muted); font-size: 12px; font-family: system-ui, sans-serif; white-space: normal; max-width: 40em; }
pre { background: #f6f8fa; border: 1px solid var(--line); padding: 8px; overflow: auto; max-height: 24em; white-space: pre-wrap; word-break: break-all; margin: 4px 0; }
details.failure { margin: 6px 0; border-left: 3px solid var(--fail); padding-left: 8px; }
details.failure summary, details.cause summary { cursor: pointer; overflow-wrap: anywhere; }
details.cause { margin: 0 0 14px; border-left: 4px solid var(--fail); padding: 2px 0 2px 12px; }
details.cause.only-blocked { border-left-color: var(--block); }
details.cause summary { font-weight: 600; font-size: 15px; }
details.cause .n { margin-right: 6px; }
details.cause details.full summary { font-weight: normal; font-size: 13px; color: var(--muted); }
.facts { margin: 4px 0; }
.facts div { margin: 2px 0; }
.facts .k { display: inline-block; min-width: 5.5em; color: var(--muted); }
.facts a { font-family: ui-monospace, monospace; font-size: 13px; margin-right: 8px; white-space: nowrap; display: inline-block; }
.facts .more { color: var(--muted); }
td.detail { overflow-wrap: anywhere; }
.label { font-size: 12px; color: var(--muted); margin-top: 6px; }
.reason { color: var(--muted); }
#readings table td:first-child { width: 30%; }
tr.req:target { background: #fff8c5; }
#coverage > details > summary, details.cov-dim > summary { cursor: pointer; }
#coverage > details > summary { font-size: 15px; }
details.cov-dim { margin: 10px 0 14px; }
details.cov-dim > summary { margin-bottom: 4px; }
.cov-count.o-checked { color: var(--pass); } .cov-count.o-failed { color: var(--fail); } .cov-count.o-skipped { color: var(--fg); }
.cov-count.o-not-applicable { color: var(--nt); } .cov-count.o-not-run { color: var(--block); } .cov-count.zero { color: var(--muted); }
.cov { display: inline-block; min-width: 1.1em; text-align: center; font-weight: 700; cursor: help; }
.cov.o-checked { color: var(--pass); } .cov.o-failed { color: var(--fail); } .cov.o-skipped { color: var(--skip); } .cov.o-not-applicable { color: #8c959f; } .cov.o-not-run { color: var(--block); }
.cov-legend { color: var(--muted); margin: 6px 0; }
.cov-scroll { overflow: auto; max-height: 70vh; border: 1px solid var(--line); display: inline-block; max-width: 100%; }
table.cov-table { width: auto; table-layout: auto; font-size: 12px; }
table.cov-table th, table.cov-table td { padding: 1px 4px; border-bottom: 1px solid #eaeef2; text-transform: none; white-space: nowrap; }
table.cov-table thead th { position: sticky; top: 0; background: var(--bg); vertical-align: bottom; border-bottom: 1px solid var(--line); }
table.cov-table th.cov-col { font-weight: normal; color: var(--muted); }
table.cov-table th.cov-col span { writing-mode: vertical-rl; transform: rotate(180deg); display: inline-block; max-height: 18em; overflow: hidden; text-overflow: ellipsis; }
table.cov-table tbody th { font-weight: normal; color: var(--fg); font-size: 12px; font-family: ui-monospace, monospace; text-align: left; }
table.cov-table tr.cov-first th, table.cov-table tr.cov-first td { border-top: 1px solid var(--line); }
table.cov-table td { text-align: center; }
ul.cov-reasons { margin: 6px 0 0; padding-left: 18px; font-size: 13px; color: var(--muted); }
[hidden] { display: none !important; }
`;
