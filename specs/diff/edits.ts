// One entry per edit. The walkers meet an edited node once per place that reaches it — each
// operation a shared schema, parameter or response is used in, each direction — and record a finding
// each time; the findings that share a node (and part of it) are one edit. The entry sits at that
// node, takes the kind of its strictest finding (breaking wins, per classify.ts) and lists every
// finding under `affects`, so nothing a finding said is lost.
import { classify, stricter } from './classify.js';
import type { Change, Effect } from './types.js';

/**
 * What the edit changed: the node's own keywords (`node`), or its membership in the parent
 * (`member`: a property's presence and requiredness, which live in the parent schema).
 */
export type Part = 'node' | 'member';

/** One sighting of an edit: the walker meets a shared node once per place that reaches it. */
export interface Finding extends Effect {
  at: string;
  part: Part;
}

export function foldEdits(findings: Finding[]): Change[] {
  const edits = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = `${finding.at}\u0000${finding.part}`;
    edits.set(key, [...(edits.get(key) ?? []), finding]);
  }
  return [...edits.values()].map(entryOf);
}

function entryOf(findings: Finding[]): Change {
  const main = findings.reduce((best, f) => (stricter(f.classification, best.classification) ? f : best));
  // A node in another file has no pointer in this document: the entry stays where the document reaches it.
  const inDocument = main.at.startsWith('#');
  const location = inDocument ? main.at.slice(1) : main.location;
  const change: Change = { kind: main.kind, classification: main.classification, location, rule: classify(main.kind).rule, message: messageOf(main, findings) };
  const operations = unique(findings.map((f) => f.operation ?? ''));
  if (operations.length === 1 && operations[0] !== '') change.operation = operations[0];
  if (!inDocument) change.origin = main.at;
  const effects = unique(findings.map(effectOf).map((e) => JSON.stringify(e))).map((e) => JSON.parse(e) as Effect);
  if (effects.length > 1 || effects[0]!.location !== location) change.affects = effects;
  return change;
}

/** The strictest finding's message, then what else the same edit changed (a type change drops its format). */
function messageOf(main: Finding, findings: Finding[]): string {
  const others = unique(findings.map((f) => f.message)).filter((m) => m !== main.message);
  return others.length === 0 ? main.message : `${main.message} (also: ${others.join('; ')})`;
}

function effectOf(f: Finding): Effect {
  const effect: Effect = { kind: f.kind, classification: f.classification, location: f.location, message: f.message };
  if (f.operation) effect.operation = f.operation;
  return effect;
}

const unique = <T>(list: T[]): T[] => [...new Set(list)];
