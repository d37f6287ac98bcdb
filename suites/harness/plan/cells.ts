// The coverage cells of the table-driven checks (the table itself: table.ts) and their outcome on
// a run. A cell is one row and column of a dimension — an operation and a field sent null, a
// list and a sort and order, a mutating operation and a view — and names the check that runs it
// (by title: the checks register under these titles) or the reason it is not run. A check marks
// each cell it exercises; check() leaves every planned cell's outcome on the task (C5 `cells`,
// contract/check.ts), where the reporter reads it.
import { type Cell, cellId, type CellMeta, type CellPlan, type CellReason, type Dimension, reasonedOutcome } from '../../../contract/check.js';
import { type Refusal, REFUSALS } from '../../../specs/registry.js';
import { type CheckState, currentCheck } from '../run/current.js';

// The cell, its reason and its plan are the check contract's (C5): the reporter reads them too.
export { type Cell, cellId, type CellPlan, type CellReason, type Dimension };

// --- the checks that run cells, by title ------------------------------------------------------

/** The titles the table-driven checks register under. */
export const titles = {
  createFilled: (op: string) => `fields: ${op} with every field filled reads back the same in every view`,
  createRequired: (op: string) => `fields: ${op} with only its required fields reads back the same in every view`,
  patchEach: (op: string) => `fields: ${op} of each field alone changes that field, and every view shows it`,
  nulls: (op: string) => `fields: ${op} with each field sent as null is refused leaving no trace, or applied alike in every view`,
  wrongType: (op: string) => `fields: ${op} with each field of another type is refused leaving no trace, or applied alike in every view`,
  values: (op: string) => `fields: ${op} with each listed value of its enumerated fields reads back the same`,
  otherTeamReference: (op: string) =>
    `isolation: ${op} naming another team's record, or the team's own of another kind, in a reference is refused as a missing one, changing nothing`,
  refused: (name: string, refusal: Refusal) => `refused: ${name} ${REFUSAL_WORDS[refusal]} leaves no trace`,
  deleted: (op: string) => `views: ${op} leaves the record gone from every view, its siblings shown`,
  retry: (op: string) => `retries: ${op} sent again with the same idempotency key replays the first answer and changes nothing more`,
  otherTeamKey: (op: string) => `retries: ${op} with an idempotency key the other team used is processed as the caller's own`,
  walks: 'walks: every list and filter in every sort and order visits each record once, in order, holding the filter',
  ties: 'walks: records sharing a sort value are each walked once, in both orders',
  cursors: 'cursors: a cursor issued for one sort and order (the defaults included) is refused with any other, or continues the same walk',
  /** The capture intake's own check (intake.check.ts): it records the intake's cells. */
  intake: 'a repeat capture of the same thread answers 200 with the same item',
  /** The capture intake's refusals (intake.check.ts): a refused capture made no item. */
  intakeRefused: 'a refused capture (read-only key, no key, a field of another type, a reused idempotency key) leaves no item behind',
} as const;

/** Why a mutation is refused (the registry's refusals): each must leave no trace. */
export { type Refusal, REFUSALS };

export const REFUSAL_WORDS: Record<Refusal, string> = {
  'cross-team': "aimed at another team's record",
  'read-only': 'sent with the read-only key',
  'no-key': 'sent without Authorization',
  'invalid-body': 'with a field of the wrong type',
  'reused-key': 'repeating an idempotency key with another request',
};

// --- outcomes on a run -------------------------------------------------------------------------

const marks = new WeakMap<CheckState, Map<string, { outcome: CellMeta['outcome']; reason?: string; }>>();

function mark(cell: Cell, outcome: CellMeta['outcome'], reason?: string): void {
  const state = currentCheck();
  if (!state) return;
  let m = marks.get(state);
  if (!m) marks.set(state, m = new Map());
  const id = cellId(cell);
  // a cell checked once stays checked; a skip never hides a check
  if (m.get(id)?.outcome === 'checked') return;
  m.set(id, { outcome, ...(reason ? { reason } : {}) });
}

/** The running check exercises the cell (it then passes or fails with the check). */
export const exercised = (cell: Cell): void => mark(cell, 'checked');
/** The running check could not run the cell on this target (a record, a key or a page budget it needed). */
export const skippedCell = (cell: Cell, reason: string): void => mark(cell, 'skipped', reason);

/**
 * The outcome of each planned cell: what the check marked; for a reasoned cell, its reason (a
 * missing setting is a skip, the rest not applicable); for a cell the check never reached, not
 * reached (or the check's own skip reason): the reporter tells which from how the check ended.
 */
export function cellOutcomes(state: CheckState | undefined, plans: readonly CellPlan[] | undefined, skipReason?: string): CellMeta[] | undefined {
  if (!plans) return undefined;
  const m = state ? marks.get(state) : undefined;
  return plans.map((p): CellMeta => {
    const head = { dimension: p.dimension, subject: p.subject, aspect: p.aspect };
    if (p.reason) return { ...head, outcome: reasonedOutcome(p.reason), reason: p.reason.text };
    if (skipReason && !m?.size) return { ...head, outcome: 'skipped', reason: skipReason };
    const marked = m?.get(cellId(p));
    if (marked) return { ...head, ...marked };
    return skipReason ? { ...head, outcome: 'skipped', reason: skipReason } : { ...head, outcome: 'not-reached' };
  });
}
