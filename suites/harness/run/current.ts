// The state of the check that is running in this worker: its transcript, request count,
// readings and property-run evidence. Checks of one file run one at a time. Per-worker state,
// owned here: runCheck (check.ts) begins and ends it around each check.

import type { Exchange, Finding, Warning } from '../../../contract/check.js';

export type { Exchange, Finding, Warning } from '../../../contract/check.js';

export interface PropertyEvidence {
  seed: number;
  path?: string;
  /** The shrunk input, as generated (taken before the predicate could change it). */
  counterexample?: unknown;
}

export interface CheckState {
  transcript: Exchange[];
  /** The mutating requests the check sent, kept longer than the transcript: what built the state a failure read. */
  writes: Exchange[];
  /** The order in which the check sent its exchanges. */
  order: WeakMap<Exchange, number>;
  /** How many requests the check had sent when the failing property run began: other runs built none of its state. */
  runFrom?: number;
  requests: number;
  readings: Record<string, string>;
  warnings: Warning[];
  property?: PropertyEvidence;
  /** Messages of response inspectors; any one fails the check. */
  inspections: string[];
  /** What the responses violate of what the document says of every response, by finding key (audit.ts). */
  findings: Map<string, Finding>;
  /** Per requirement the audit judges: how many responses it judged. */
  judged: Record<string, number>;
  /** The requirements the check is tagged with: what its failures may fail. */
  requirements: readonly string[];
  /** The requirements of the steps running (judge/assert.ts step), innermost last. */
  steps: (readonly string[])[];
}

/** How many exchanges a check keeps (the latest ones). */
const TRANSCRIPT_LIMIT = 50;
/** How many mutating exchanges a check keeps (the latest ones). */
const WRITES_LIMIT = 400;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let current: CheckState | undefined;

export function beginCheck(requirements: readonly string[] = []): CheckState {
  current = {
    transcript: [],
    writes: [],
    order: new WeakMap(),
    requests: 0,
    readings: {},
    warnings: [],
    inspections: [],
    findings: new Map(),
    judged: {},
    requirements,
    steps: [],
  };
  return current;
}

export function endCheck(): void {
  current = undefined;
}

export function currentCheck(): CheckState | undefined {
  return current;
}

export function recordExchange(exchange: Exchange): void {
  if (!current) return;
  current.requests += 1;
  current.order.set(exchange, current.requests);
  current.transcript.push(exchange);
  if (MUTATING.has(exchange.request.method)) {
    current.writes.push(exchange);
    if (current.writes.length > WRITES_LIMIT) current.writes.shift();
  }
  if (current.transcript.length > TRANSCRIPT_LIMIT) current.transcript.shift();
}

/** An ambiguity reading the running check observed (also kept for the whole worker). */
export function recordReading(name: string, value: string): void {
  if (current) current.readings[name] = value;
}

/** A reading flagged as a warning: kept as a reading too, so the readings stay complete. */
export function recordWarning(name: string, message: string): void {
  if (!current) return;
  current.readings[name] = message;
  if (!current.warnings.some((w) => w.name === name && w.message === message)) current.warnings.push({ name, message });
}

/**
 * A violation one response showed: the first of its kind is kept with its evidence, later ones are
 * counted; a later one met under other requirements (the same field written by another endpoint) adds them.
 */
export function recordFinding(first: () => Finding, key: string, operation: string, requirements: readonly string[] = []): void {
  if (!current) return;
  const known = current.findings.get(key);
  if (!known) return void current.findings.set(key, first());
  known.count += 1;
  if (!known.seenIn.includes(operation)) known.seenIn.push(operation);
  for (const id of requirements) if (!known.requirements.includes(id)) known.requirements.push(id);
}

/** Requirements the audit judged one response for. */
export function recordJudged(requirements: readonly string[], times = 1): void {
  if (!current) return;
  for (const id of requirements) current.judged[id] = (current.judged[id] ?? 0) + times;
}

/** What a failure now would be about: the innermost running step's requirements, else the check's. */
export function activeRequirements(): readonly string[] {
  return current ? (current.steps.at(-1) ?? current.requirements) : [];
}
