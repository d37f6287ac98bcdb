import type { ReportCheck, ReportFailure, RootCause } from './types.js';

// Root causes: one bug usually fails or blocks many checks with the same message (the same
// mistyped field seen on pages of 5, 3 and 1 items). Failures are grouped by their message with
// the parts that vary between occurrences folded away; the groups that touch the most
// requirements come first, because fixing them clears the most.

const TRAILING_EXCHANGE = / \((?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \S+ → \d{3}\)$/;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const POINTER_INDEX = /\/\d+(?=[/\s;,]|$)/g;

/** The first line of a failure message without the `(METHOD url → status)` the evidence shows anyway. */
export function headline(message: string): string {
  return (message.split('\n')[0] ?? '').trim().replace(TRAILING_EXCHANGE, '');
}

/** The headline with item indices and ids folded, and a problem repeated per item listed once. */
export function causeMessage(message: string): string {
  const folded = headline(message).replace(POINTER_INDEX, '/*').replace(UUID, '<id>');
  const colon = folded.indexOf(': ');
  const head = colon >= 0 ? folded.slice(0, colon + 2) : '';
  const parts = (colon >= 0 ? folded.slice(colon + 2) : folded).split('; ');
  return head + [...new Set(parts)].join('; ');
}

/** One failed or blocked check: its evidence, and the requirements it failed and blocked. */
export interface Outcome {
  check: ReportCheck;
  failure: ReportFailure;
  failed: string[];
  blocked: string[];
  /** For an audit finding: its words, where it was met and how often (the cause takes them). */
  finding?: { message: string; seenIn: string[]; responses: number; };
}

/**
 * What groups outcomes into one cause: the audit's finding they are or were blocked by (the rule and
 * the pointer, whichever check or resource met it), else their message with what varies folded.
 */
const groupKey = (o: Outcome) => (o.failure.finding !== undefined ? `finding ${o.failure.finding}` : causeMessage(o.failure.message));

const addAll = (into: string[], ids: readonly string[]) => {
  for (const id of ids) if (!into.includes(id)) into.push(id);
};

/**
 * Groups outcomes into root causes (most requirements first) and stamps each check and failure
 * with its cause id. A cause lists as blocked only requirements that ended up blocked: one failed
 * by another cause is that cause's.
 */
export interface CauseOptions {
  /** Whether a requirement's final status is blocked (default: yes). */
  endedBlocked?: (id: string) => boolean;
  /** Position of a requirement in the catalog: ids are listed in document order. */
  rank?: (id: string) => number;
}

/**
 * The evidence shown for a cause: the failure of the check about the most fundamental
 * requirement (the earliest in the document, e.g. a resource's shape before a list rule), not
 * whichever check happened to run first.
 */
function representative(members: readonly Outcome[], rank: (id: string) => number): Outcome {
  const first = (o: Outcome) => (o.failed.length ? Math.min(...o.failed.map(rank)) : Number.MAX_SAFE_INTEGER);
  return [...members].sort((a, b) => first(a) - first(b) || a.failed.length + a.blocked.length - (b.failed.length + b.blocked.length))[0]!;
}

export function rootCauses(outcomes: readonly Outcome[], options: CauseOptions = {}): RootCause[] {
  const endedBlocked = options.endedBlocked ?? (() => true);
  const rank = options.rank ?? (() => 0);
  const groups = new Map<string, Group>();
  for (const o of outcomes) {
    const key = groupKey(o);
    const message = o.finding?.message ?? (o.failure.finding !== undefined ? headline(o.failure.message) : causeMessage(o.failure.message));
    const g = groups.get(key) ?? { key, message, setup: [], failed: [], blocked: [], checks: { failed: [], blocked: [] }, failure: o.failure, members: [] };
    if (o.finding) Object.assign(g, { message: o.finding.message, seenIn: o.finding.seenIn, responses: o.finding.responses });
    const step = o.failure.setup?.at(-1);
    if (step) addAll(g.setup, [step]);
    addAll(g.failed, o.failed);
    addAll(g.blocked, o.blocked);
    addAll(o.check.status === 'blocked' ? g.checks.blocked : g.checks.failed, [o.check.name]);
    g.members.push(o);
    groups.set(key, g);
  }
  mergeBareProblems(groups);
  const byRank = (x: string, y: string) => rank(x) - rank(y);
  for (const g of groups.values()) {
    g.blocked = g.blocked.filter((r) => !g.failed.includes(r) && endedBlocked(r)).sort(byRank);
    g.failed.sort(byRank);
    // A finding's own evidence (its first response, centred on what is wrong) speaks for it.
    g.failure = (g.members.find((m) => m.finding) ?? representative(g.members, rank)).failure;
  }
  const sorted = [...groups.values()].sort((a, b) => size(b) - size(a) || b.members.length - a.members.length);
  return sorted.map(({ members, key: _key, ...g }, i) => {
    const id = `C${i + 1}`;
    for (const m of members) {
      m.check.cause = id;
      m.failure.cause = id;
    }
    return { id, ...g };
  });
}

type Group = Omit<RootCause, 'id'> & { key: string; members: Outcome[]; };

// "X must be boolean" (a check naming only the problem) and "page of organization does not match
// the page envelope: X must be boolean" (a step saying where it met it) are one cause.
function mergeBareProblems(groups: Map<string, Group>): void {
  for (const [key, g] of groups) {
    if (key.startsWith('finding ')) continue;
    const host = [...groups.values()].find((h) => h !== g && !h.key.startsWith('finding ') && h.message.endsWith(`: ${g.message}`));
    if (!host) continue;
    addAll(host.setup, g.setup);
    addAll(host.failed, g.failed);
    addAll(host.blocked, g.blocked);
    addAll(host.checks.failed, g.checks.failed);
    addAll(host.checks.blocked, g.checks.blocked);
    host.members.push(...g.members);
    groups.delete(key);
  }
}

const size = (g: { failed: string[]; blocked: string[]; }) => new Set([...g.failed, ...g.blocked]).size;
