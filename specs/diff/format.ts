// Output of a diff: JSON for machines (the DiffResult as is, every entry with all its consequences)
// and grouped text for people, one entry per edit with the operations it affects on one line.
import { type Classification, stricter } from './classify.js';
import { unescapeToken } from './pointer.js';
import type { Change, DiffResult } from './types.js';

export function formatJson(result: DiffResult): string {
  return JSON.stringify({ changes: result.changes, version: result.version, breaking: result.breaking }, null, 2) + '\n';
}

const GROUPS: [Classification, string][] = [
  ['unknown', 'Behaviour changed, direction unknown'],
  ['breaking', 'Breaking'],
  ['non-breaking', 'Non-breaking'],
  ['documentation', 'Documentation only'],
];

const METHOD = /^(get|put|post|delete|options|head|patch|trace)$/;

/** `/paths/~1a~1b/get/x` → `GET /a/b  x`: the operation (or path item) first, then where inside it. */
export function readableLocation(location: string): string {
  const m = /^\/paths\/([^/]+)(?:\/(.*))?$/.exec(location);
  if (!m) return location === '' ? '(document root)' : location;
  const [first = '', ...rest] = (m[2] ?? '').split('/');
  const path = unescapeToken(m[1]!);
  if (METHOD.test(first)) return `${first.toUpperCase()} ${path}${rest.length > 0 ? `  ${rest.join('/')}` : ''}`;
  return m[2] ? `${path}  ${m[2]}` : path;
}

export function formatText(result: DiffResult, labels: { old: string; new: string; }): string {
  const { version } = result;
  const count = (c: Classification) => result.changes.filter((x) => x.classification === c).length;
  const lines = [
    `${labels.old} (${version.old}) -> ${labels.new} (${version.new})`,
    `${count('breaking')} breaking, ${count('non-breaking')} non-breaking, ${count('documentation')} documentation-only change(s)${
      count('unknown') > 0 ? `, ${count('unknown')} behaviour change(s) of unknown direction` : ''
    }`,
    '',
  ];
  if (result.changes.length === 0) lines.push('No changes.', '');
  for (const [classification, title] of GROUPS) {
    const changes = result.changes.filter((c) => c.classification === classification);
    if (changes.length === 0) continue;
    lines.push(`${title} (${changes.length} change${changes.length === 1 ? '' : 's'})`);
    for (const change of changes) {
      lines.push(`  - [${change.kind}] ${change.message}`, `      at ${readableLocation(change.location)}`);
      if (change.origin) lines.push(`      defined at ${change.origin}`);
      if (change.affects) lines.push(`      affects ${affected(change)}`);
      lines.push(`      rule: ${change.rule}`);
    }
    lines.push('');
  }
  const verdict = version.ok ? 'ok' : 'FAILED';
  lines.push(`Version: ${version.old} -> ${version.new}; required bump: ${version.required}; ${verdict}`);
  for (const p of version.problems) lines.push(`  x ${p.code}: ${p.message}`);
  for (const n of version.notes) lines.push(`  ! ${n.code}: ${n.message}`);
  return lines.join('\n') + '\n';
}

/**
 * `3 operations: GET /a, POST /a, GET /b` — each place once, with its strictest consequence; split by
 * classification when the edit means different things in different places (a request and a response).
 */
function affected(change: Change): string {
  const worst = new Map<string, Classification>();
  for (const effect of change.affects ?? []) {
    const where = effect.operation ?? readableLocation(effect.location);
    const seen = worst.get(where);
    if (!seen || stricter(effect.classification, seen)) worst.set(where, effect.classification);
  }
  const noun = (change.affects ?? []).every((e) => e.operation) ? 'operation' : 'place';
  const head = `${worst.size} ${noun}${worst.size === 1 ? '' : 's'}: `;
  const classes = GROUPS.map(([c]) => c).filter((c) => [...worst.values()].includes(c));
  const list = (c?: Classification) => [...worst].filter(([, k]) => c === undefined || k === c).map(([w]) => w).join(', ');
  return head + (classes.length === 1 ? list() : classes.map((c) => `${c} in ${list(c)}`).join('; '));
}
