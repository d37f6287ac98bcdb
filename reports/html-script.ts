// The inline script of index.html: renders the root causes and the requirement matrix from the
// embedded report, and wires the filters (status pills and select, level, id text). It only ever
// sets textContent: report data (response bodies included) is never parsed as HTML.

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
  function statusText(s) { return s === 'not-testable' ? 'not testable' : s; }
  function statusBadge(status) { return el('span', { className: 'status s-' + status, text: statusText(status) }); }
  function headers(h) { return Object.keys(h || {}).map(function (k) { return k + ': ' + h[k]; }).join('\\n'); }
  function transcriptRequest(r) { return r.method + ' ' + r.url + '\\n' + headers(r.headers) + (r.body !== undefined ? '\\n\\n' + r.body : ''); }
  function transcriptResponse(r) { return 'HTTP ' + r.status + '\\n' + headers(r.headers) + (r.body !== undefined ? '\\n\\n' + r.body : ''); }
  function block(label, text, cls) { return el('div', { className: cls || '' }, [el('div', { className: 'label', text: label }), el('pre', { text: text })]); }
  function differenceText(d) { return (d.path || '(the value)') + ': ' + (d.got === undefined ? 'missing' : 'got ' + d.got) + ', ' + (d.expected === undefined ? 'not expected' : 'expected ' + d.expected); }
  function differences(f) { return f.differences && f.differences.length ? block('what differs', f.differences.map(differenceText).join('\\n'), 'differences') : null; }
  function stateSteps(f) { return f.state && f.state.length ? block('after these requests (the state the failing request read)', f.state.map(function (s) { return s.summary; }).join('\\n'), 'state') : null; }
  function reproduceBlock(f) { return f.reproduce ? block('reproduce on the same target: the state, then the failing request (cleans up after itself)', 'sh ' + f.reproduce, 'reproduce-script') : null; }
  function evidence(f) {
    var parts = [block('message', f.message, 'message'), differences(f), stateSteps(f)].filter(Boolean);
    if (f.setup && f.setup.length) parts.push(block('in setup', f.setup.join(' › '), 'setup'));
    if (f.curl) parts.push(block('reproduce with curl (export CONFORMANCE_API_KEY first)', f.curl, 'curl'));
    if (f.request) parts.push(block('request', transcriptRequest(f.request), 'request'));
    if (f.excerpt !== undefined) parts.push(block('around what is wrong', f.excerpt, 'excerpt'));
    if (f.response) parts.push(block('response', transcriptResponse(f.response), 'response'));
    if (f.seed !== null || f.path !== null) parts.push(block('fast-check', 'seed: ' + f.seed + (f.path !== null ? '\\npath: ' + f.path : ''), 'seed'));
    if (f.counterexample !== undefined) parts.push(block('shrunk counterexample', JSON.stringify(f.counterexample, null, 2), 'counterexample'));
    if (f.reproduce) parts.push(reproduceBlock(f));
    if (f.replay) parts.push(block('run the check again', f.replay, 'replay'));
    return parts;
  }
  function firstLine(text) { var l = text.split('\\n')[0]; return l.length > 160 ? l.slice(0, 159) + '…' : l; }
  function failureView(f, open) {
    var attrs = { className: 'failure' };
    if (open) attrs.open = '';
    return el('details', attrs, [el('summary', { text: f.check + ' — ' + firstLine(f.message) })].concat(evidence(f)));
  }
  // A cause shows the exchange in brief (request line, status, start of the body) and its commands;
  // the full transcript is one click away.
  function compact(f) {
    var parts = [differences(f), stateSteps(f)].filter(Boolean);
    if (f.request) {
      // The part of the body around what is wrong, when the failure says where; else its start.
      var body = f.excerpt !== undefined ? f.excerpt : f.response && f.response.body !== undefined ? f.response.body : '';
      var brief = f.request.method + ' ' + f.request.url + (f.response ? '\\n→ ' + f.response.status + (body ? ' ' + (body.length > 300 ? body.slice(0, 299) + '…' : body) : '') : '');
      parts.push(block('request → response', brief, 'exchange'));
    }
    if (f.curl) parts.push(block('reproduce with curl (export CONFORMANCE_API_KEY first)', f.curl, 'curl'));
    if (f.reproduce) parts.push(reproduceBlock(f));
    if (f.replay) parts.push(block('run the check again', f.replay, 'replay'));
    parts.push(el('details', { className: 'full' }, [el('summary', { text: 'full evidence: ' + f.check })].concat(evidence(f))));
    return parts;
  }
  // A long list shows its first ids; the matrix below lists the rest (status filter).
  function idLinks(ids) {
    var links = ids.slice(0, 12).map(function (id) { return el('a', { href: '#req-' + id, text: id }); });
    if (ids.length > 12) links.push(el('span', { className: 'more', title: ids.slice(12).join(', '), text: 'and ' + (ids.length - 12) + ' more' }));
    return links;
  }
  function fact(key, children) { return el('div', {}, [el('span', { className: 'k', text: key })].concat(children)); }
  var causeNumber = {};
  (report.causes || []).forEach(function (c, i) {
    causeNumber[c.id] = i + 1;
    var facts = [];
    if (c.failed.length) facts.push(fact('failed', idLinks(c.failed)));
    if (c.seenIn && c.seenIn.length) facts.push(fact('seen in', [el('span', { text: (c.responses || 1) + ' response' + (c.responses === 1 ? '' : 's') + ' of ' + c.seenIn.join(', ') })]));
    if (c.blocked.length) facts.push(fact('blocked', [el('span', { text: c.blocked.length + ' requirement' + (c.blocked.length === 1 ? '' : 's') + (c.checks.blocked.length ? ' (' + c.checks.blocked.length + ' check' + (c.checks.blocked.length === 1 ? '' : 's') + ')' : '') + (c.setup.length ? ' — setup step ' + c.setup.map(function (s) { return '"' + s + '"'; }).join(', ') + ' failed' : '') + ': ' })].concat(idLinks(c.blocked))));
    var summary = el('summary', {}, [el('span', { className: 'n', text: (i + 1) + '.' }), el('span', { className: 'msg', text: c.message })]);
    var box = el('details', { className: 'cause' + (c.failed.length ? '' : ' only-blocked'), id: 'cause-' + c.id, open: '' }, [summary, el('div', { className: 'facts' }, facts)].concat(compact(c.failure)));
    document.getElementById('causes-list').appendChild(box);
  });
  function checksText(r) {
    var passed = r.checks.filter(function (c) { return c.status === 'passed'; }).length;
    return r.checks.length === 0 ? '—' : passed + '/' + r.checks.length + ' passed';
  }
  function causeLinks(r) {
    return (r.causes || []).map(function (id) { return el('a', { href: '#cause-' + id, className: 'cause-link', text: 'root cause ' + (causeNumber[id] || id) }); });
  }
  function row(r) {
    var idCell = el('td', { className: 'id' }, [el('div', { text: r.id }), r.quote ? el('div', { className: 'quote', text: r.quote }) : null]);
    var detail = el('td', { className: 'detail' }, [r.reason ? el('div', { className: 'reason', text: r.reason }) : null]
      .concat(r.status === 'blocked' ? causeLinks(r) : [])
      .concat(r.failures.map(function (f) { return failureView(f, r.status === 'failed'); })));
    return el('tr', { className: 'req', id: 'req-' + r.id, 'data-id': r.id, 'data-level': r.level, 'data-status': r.status },
      [idCell, el('td', { className: 'section', text: data.labels[r.id] || r.section }), el('td', { text: r.level }), el('td', { className: 'st' }, [statusBadge(r.status)]),
       el('td', { className: 'checks', title: r.checks.map(function (c) { return c.status + ': ' + c.name; }).join('\\n'), text: checksText(r) }), detail]);
  }
  var STATUSES = ['failed', 'blocked', 'passed', 'skipped', 'not-testable'];
  function counts(reqs) {
    return el('span', { className: 'counts', text: STATUSES.map(function (s) { return reqs.filter(function (r) { return r.status === s; }).length + ' ' + statusText(s); }).join(' · ') });
  }
  var byId = {};
  report.requirements.forEach(function (r) { byId[r.id] = r; });
  var main = document.getElementById('matrix');
  data.groups.forEach(function (g) {
    var reqs = g.ids.map(function (id) { return byId[id]; });
    var cols = el('colgroup', {}, ['id', 'section', 'level', 'status', 'checks', 'detail'].map(function (c) { return el('col', { className: 'c-' + c }); }));
    var head = el('tr', {}, ['Requirement', 'Section', 'Level', 'Status', 'Checks', 'Details'].map(function (h) { return el('th', { text: h }); }));
    var table = el('table', {}, [cols, el('thead', {}, [head]), el('tbody', {}, reqs.map(row))]);
    main.appendChild(el('section', { className: 'group', 'data-section': g.key }, [el('h2', {}, [el('span', { text: g.title }), counts(reqs)]), table]));
  });
  // The coverage: one table per dimension, rows subjects (and a field, sort or cursor source), columns aspects.
  if (data.coverage) {
    var cells = report.coverage.cells, outcomes = data.coverage.outcomes;
    var tip = function (c) {
      return c.subject + ' · ' + c.aspect + ': ' + outcomes[c.outcome].word + (c.reason ? ' — ' + c.reason.text : '') + (c.check ? '\\ncheck: ' + c.check : '');
    };
    var symbol = function (i) {
      var c = cells[i];
      return el('span', { className: 'cov o-' + c.outcome, title: tip(c), 'data-outcome': c.outcome, 'aria-label': tip(c), text: outcomes[c.outcome].symbol });
    };
    var reasons = function (t) {
      var seen = {}, order = [];
      t.rows.forEach(function (r) { r.cells.forEach(function (ids) { ids.forEach(function (i) {
        var c = cells[i];
        if (!c.reason) return;
        var key = c.outcome + '\\u0000' + c.reason.text;
        if (!seen[key]) { seen[key] = { cell: c, n: 0 }; order.push(key); }
        seen[key].n++;
      }); }); });
      if (!order.length) return null;
      // what the run could not do first, then what the target's settings kept out, then what does not apply
      var rank = ['failed', 'not-run', 'skipped', 'not-applicable'];
      order = order.map(function (k, i) { return [k, i]; }).sort(function (a, b) {
        return rank.indexOf(seen[a[0]].cell.outcome) - rank.indexOf(seen[b[0]].cell.outcome) || a[1] - b[1];
      }).map(function (x) { return x[0]; });
      return el('ul', { className: 'cov-reasons' }, order.map(function (k) {
        var g = seen[k];
        return el('li', {}, [el('span', { className: 'cov o-' + g.cell.outcome, text: outcomes[g.cell.outcome].symbol }),
          el('span', { text: ' ' + g.n + ' ' + outcomes[g.cell.outcome].word + ': ' + g.cell.reason.text })]);
      }));
    };
    var hosts = document.querySelectorAll('#coverage details.cov-dim .cov-grid');
    data.coverage.grid.forEach(function (t, n) {
      var host = hosts[n];
      if (!host) return;
      var parts = t.rows.some(function (r) { return r.part; });
      var head = el('tr', {}, [el('th', { className: 'cov-subject' })].concat(parts ? [el('th', { className: 'cov-part' })] : [])
        .concat(t.columns.map(function (c) { return el('th', { className: 'cov-col', title: c }, [el('span', { text: c })]); })));
      var last = null;
      var rows = t.rows.map(function (r) {
        var first = r.subject !== last;
        last = r.subject;
        return el('tr', { className: first ? 'cov-first' : '' }, [el('th', { className: 'cov-subject', scope: 'row', text: first ? r.subject : '' })]
          .concat(parts ? [el('th', { className: 'cov-part', scope: 'row', text: r.part })] : [])
          .concat(r.cells.map(function (ids) { return el('td', {}, ids.map(symbol)); })));
      });
      host.appendChild(el('div', { className: 'cov-scroll' }, [el('table', { className: 'cov-table' }, [el('thead', {}, [head]), el('tbody', {}, rows)])]));
      var why = reasons(t);
      if (why) host.appendChild(why);
    });
  }
  var status = document.getElementById('f-status'), level = document.getElementById('f-level'), idText = document.getElementById('f-id');
  var pills = document.querySelectorAll('.chips .chip');
  function apply() {
    var text = idText.value.trim().toUpperCase(), shown = 0;
    pills.forEach(function (p) { p.setAttribute('aria-pressed', String(p.dataset.status === status.value)); });
    document.querySelectorAll('section.group').forEach(function (section) {
      var visible = 0;
      section.querySelectorAll('tr.req').forEach(function (tr) {
        var ok = (!status.value || tr.dataset.status === status.value) && (!level.value || tr.dataset.level === level.value) && (!text || tr.dataset.id.indexOf(text) >= 0);
        tr.hidden = !ok; if (ok) visible++;
      });
      section.hidden = visible === 0; shown += visible;
    });
    document.getElementById('f-count').textContent = 'showing ' + shown + ' of ' + report.requirements.length;
  }
  pills.forEach(function (p) {
    p.addEventListener('click', function () {
      status.value = status.value === p.dataset.status ? '' : p.dataset.status;
      apply();
      if (status.value) document.getElementById('filters').scrollIntoView({ block: 'start' });
    });
  });
  [status, level, idText].forEach(function (c) { c.addEventListener('input', apply); c.addEventListener('change', apply); });
  apply();
})();
`;
