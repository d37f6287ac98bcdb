// The inline stylesheet and script of index.html. The page must work from a file://
// URL with no network, so nothing is loaded from elsewhere. The script only ever
// sets textContent: report data (response bodies included) is never parsed as HTML.

export const css = `
:root { --pass:#1a7f37; --fail:#cf222e; --skip:#6e7781; --nt:#0969da; --bg:#fff; --fg:#1f2328; --muted:#57606a; --line:#d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: var(--fg); background: var(--bg); }
header, .filters, main, .extra { padding: 0 24px; }
h1 { font-size: 22px; margin: 16px 0 4px; }
h2 { font-size: 17px; margin: 24px 0 8px; display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
.meta { color: var(--muted); margin: 0 0 8px; }
.chips { display: flex; gap: 8px; flex-wrap: wrap; margin: 8px 0; }
.chip, .status { display: inline-block; border-radius: 12px; padding: 1px 10px; font-weight: 600; color: #fff; white-space: nowrap; }
.s-passed { background: var(--pass); } .s-failed { background: var(--fail); } .s-skipped { background: var(--skip); } .s-not-testable { background: var(--nt); }
.counts { font-size: 13px; font-weight: normal; color: var(--muted); }
.filters { position: sticky; top: 0; background: #f6f8fa; border-bottom: 1px solid var(--line); display: flex; gap: 16px; align-items: center; padding-top: 8px; padding-bottom: 8px; flex-wrap: wrap; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th:nth-child(1) { width: 26%; } th:nth-child(2) { width: 12%; } th:nth-child(3) { width: 7%; } th:nth-child(4) { width: 8%; } th:nth-child(5) { width: 8%; }
#readings th, #readings td { width: auto; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: 6px 8px; }
th { font-size: 12px; color: var(--muted); text-transform: uppercase; }
td.id { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
.quote { color: var(--muted); font-size: 12px; font-family: system-ui, sans-serif; white-space: normal; max-width: 40em; }
pre { background: #f6f8fa; border: 1px solid var(--line); padding: 8px; overflow: auto; max-height: 24em; white-space: pre-wrap; word-break: break-all; margin: 4px 0; }
details.failure { margin: 6px 0; border-left: 3px solid var(--fail); padding-left: 8px; }
details.failure summary { cursor: pointer; overflow-wrap: anywhere; }
td.detail { overflow-wrap: anywhere; }
.label { font-size: 12px; color: var(--muted); margin-top: 6px; }
.reason { color: var(--muted); }
[hidden] { display: none !important; }
`;

export const script = `
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var report = data.report;
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k]; else if (k === 'className') node.className = attrs[k]; else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }
  function statusBadge(status) { return el('span', { className: 'status s-' + status, text: status === 'not-testable' ? 'not testable' : status }); }
  function headers(h) { return Object.keys(h || {}).map(function (k) { return k + ': ' + h[k]; }).join('\\n'); }
  function transcriptRequest(r) { return r.method + ' ' + r.url + '\\n' + headers(r.headers) + (r.body !== undefined ? '\\n\\n' + r.body : ''); }
  function transcriptResponse(r) { return 'HTTP ' + r.status + '\\n' + headers(r.headers) + (r.body !== undefined ? '\\n\\n' + r.body : ''); }
  function block(label, text, cls) { return el('div', { className: cls || '' }, [el('div', { className: 'label', text: label }), el('pre', { text: text })]); }
  function failureView(f) {
    var parts = [block('message', f.message)];
    if (f.curl) parts.push(block('reproduce with curl (export CONFORMANCE_API_KEY first)', f.curl, 'curl'));
    if (f.request) parts.push(block('request', transcriptRequest(f.request), 'request'));
    if (f.response) parts.push(block('response', transcriptResponse(f.response), 'response'));
    if (f.seed !== null || f.path !== null) parts.push(block('fast-check', 'seed: ' + f.seed + (f.path !== null ? '\\npath: ' + f.path : ''), 'seed'));
    if (f.counterexample !== undefined) parts.push(block('shrunk counterexample', JSON.stringify(f.counterexample, null, 2), 'counterexample'));
    var first = f.message.split('\\n')[0];
    if (first.length > 160) first = first.slice(0, 159) + '…';
    return el('details', { className: 'failure' }, [el('summary', { text: f.check + ' — ' + first })].concat(parts));
  }
  function checksText(r) {
    var passed = r.checks.filter(function (c) { return c.status === 'passed'; }).length;
    return r.checks.length === 0 ? '—' : passed + '/' + r.checks.length + ' passed';
  }
  function row(r) {
    var idCell = el('td', { className: 'id' }, [el('div', { text: r.id }), r.quote ? el('div', { className: 'quote', text: r.quote }) : null]);
    var detail = el('td', { className: 'detail' }, [r.reason ? el('div', { className: 'reason', text: r.reason }) : null].concat(r.failures.map(failureView)));
    var tr = el('tr', { className: 'req', 'data-id': r.id, 'data-level': r.level, 'data-status': r.status },
      [idCell, el('td', { text: r.section }), el('td', { text: r.level }), el('td', {}, [statusBadge(r.status)]),
       el('td', { title: r.checks.map(function (c) { return c.status + ': ' + c.name; }).join('\\n'), text: checksText(r) }), detail]);
    return tr;
  }
  var STATUSES = ['passed', 'failed', 'skipped', 'not-testable'];
  function counts(reqs) {
    var span = el('span', { className: 'counts' });
    span.textContent = STATUSES.map(function (s) { return reqs.filter(function (r) { return r.status === s; }).length + ' ' + (s === 'not-testable' ? 'not testable' : s); }).join(' · ');
    return span;
  }
  var byId = {};
  report.requirements.forEach(function (r) { byId[r.id] = r; });
  var main = document.getElementById('matrix');
  data.groups.forEach(function (g) {
    var reqs = g.ids.map(function (id) { return byId[id]; });
    var head = el('tr', {}, ['Requirement', 'Section', 'Level', 'Status', 'Checks', 'Details'].map(function (h) { return el('th', { text: h }); }));
    var table = el('table', {}, [el('thead', {}, [head]), el('tbody', {}, reqs.map(row))]);
    main.appendChild(el('section', { className: 'group', 'data-section': g.key }, [el('h2', {}, [el('span', { text: g.title }), counts(reqs)]), table]));
  });
  var failedOnly = document.getElementById('f-failed'), level = document.getElementById('f-level'), idText = document.getElementById('f-id');
  function apply() {
    var text = idText.value.trim().toUpperCase(), shown = 0;
    document.querySelectorAll('section.group').forEach(function (section) {
      var visible = 0;
      section.querySelectorAll('tr.req').forEach(function (tr) {
        var ok = (!failedOnly.checked || tr.dataset.status === 'failed') && (!level.value || tr.dataset.level === level.value) && (!text || tr.dataset.id.indexOf(text) >= 0);
        tr.hidden = !ok; if (ok) visible++;
      });
      section.hidden = visible === 0; shown += visible;
    });
    document.getElementById('f-count').textContent = 'showing ' + shown + ' of ' + report.requirements.length;
  }
  [failedOnly, level, idText].forEach(function (c) { c.addEventListener('input', apply); c.addEventListener('change', apply); });
  apply();
})();
`;
