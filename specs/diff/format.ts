// Output of a diff: JSON for machines (the DiffResult as is) and grouped text for people, where one
// change of a shared schema seen from several operations is printed once with every place it affects.
import type { Classification } from './classify.js';
import { unescapeToken } from './pointer.js';
import type { Change, DiffResult } from './types.js';

export function formatJson(result: DiffResult): string {
  return JSON.stringify({ changes: result.changes, version: result.version, breaking: result.breaking }, null, 2) + '\n';
}

const GROUPS: [Classification, string][] = [
  ['breaking', 'Breaking'],
  ['non-breaking', 'Non-breaking'],
  ['documentation', 'Documentation only'],
];

/** `/paths/~1a~1b/get/x` → `GET /a/b  x`: the operation first, then where inside it. */
export function readableLocation(location: string): string {
  const m = /^\/paths\/([^/]+)\/([a-z]+)(\/.*)?$/.exec(location);
  if (!m) return location === '' ? '(document root)' : location;
  return `${m[2]!.toUpperCase()} ${unescapeToken(m[1]!)}${m[3] ? `  ${m[3].slice(1)}` : ''}`;
}

export function formatText(result: DiffResult, labels: { old: string; new: string }): string {
  const { version } = result;
  const count = (c: Classification) => result.changes.filter((x) => x.classification === c).length;
  const lines = [
    `${labels.old} (${version.old}) -> ${labels.new} (${version.new})`,
    `${count('breaking')} breaking, ${count('non-breaking')} non-breaking, ${count('documentation')} documentation-only change(s)`,
    '',
  ];
  if (result.changes.length === 0) lines.push('No changes.', '');
  for (const [classification, title] of GROUPS) {
    const changes = result.changes.filter((c) => c.classification === classification);
    if (changes.length === 0) continue;
    const groups = groupByOrigin(changes);
    lines.push(`${title} (${changes.length} change${changes.length === 1 ? '' : 's'})`);
    for (const group of groups) {
      const first = group[0]!;
      lines.push(`  - [${first.kind}] ${first.message}`, `      at ${readableLocation(first.location)}`);
      if (group.length > 1) lines.push(`      also at ${group.length - 1} more place(s) in: ${operations(group.slice(1))}`);
      if (first.origin) lines.push(`      defined at ${first.origin}`);
      lines.push(`      rule: ${first.rule}`);
    }
    lines.push('');
  }
  const verdict = version.ok ? 'ok' : 'FAILED';
  lines.push(`Version: ${version.old} -> ${version.new}; required bump: ${version.required}; ${verdict}`);
  for (const p of version.problems) lines.push(`  x ${p.code}: ${p.message}`);
  for (const n of version.notes) lines.push(`  ! ${n.code}: ${n.message}`);
  return lines.join('\n') + '\n';
}

/** Changes of one node of a shared schema (same kind, message and origin) reached from several places. */
function groupByOrigin(changes: Change[]): Change[][] {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const key = change.origin ? `${change.kind}\u0000${change.message}\u0000${change.origin}` : `${groups.size}\u0000${change.location}\u0000${change.kind}\u0000${change.message}`;
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return [...groups.values()];
}

/** Distinct operations of some changes, with how many places each: `GET /a (2), PATCH /a`. */
function operations(changes: Change[]): string {
  const counts = new Map<string, number>();
  for (const c of changes) counts.set(c.operation ?? readableLocation(c.location), (counts.get(c.operation ?? readableLocation(c.location)) ?? 0) + 1);
  return [...counts].map(([op, n]) => (n > 1 ? `${op} (${n})` : op)).join(', ');
}
