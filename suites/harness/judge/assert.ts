// Failures that carry their evidence: the exchange that shows the problem, and — where a check
// covering several requirements says so — the requirement the failing assertion is about.
import { currentCheck, type Exchange } from '../run/current.js';
import type { ApiResponse } from '../transport/client.js';
import { type Difference, differencesText } from './differences.js';

export interface Concerning {
  /**
   * The requirement(s) this assertion checks, among the check's own ids. A failure then fails
   * only these; the check's other requirements are reported blocked (not reached). Default: all.
   */
  requirement?: string | readonly string[];
  /** The key of the audit's finding this failure is (a check of that rule): reported as that finding's cause. */
  finding?: string;
}

export class CheckFailure extends Error {
  requirements?: readonly string[];
  readonly finding?: string;
  /** For a comparison: the values that differ, by path (the failure's evidence leads with them). */
  differences?: readonly Difference[];

  constructor(message: string, readonly exchange?: Exchange, concerning: Concerning = {}) {
    super(message);
    this.name = 'CheckFailure';
    const r = concerning.requirement;
    if (r !== undefined) this.requirements = typeof r === 'string' ? [r] : [...r];
    if (concerning.finding !== undefined) this.finding = concerning.finding;
  }
}

/**
 * Runs one step of a check that checks one rule: a failure inside it that names no requirement of
 * its own fails the step's requirement(s) alone. A check's ids are what it may fail; each step
 * says which of them its failure fails. Setup failures and the audit's findings keep their own
 * attribution (they are not the step's failure).
 */
export async function step<T>(requirement: string | readonly string[], fn: () => Promise<T>): Promise<T> {
  const ids = typeof requirement === 'string' ? [requirement] : [...requirement];
  const running = currentCheck();
  running?.steps.push(ids);
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CheckFailure && e.requirements === undefined && e.finding === undefined) e.requirements = ids;
    throw e;
  } finally {
    running?.steps.pop();
  }
}

export function fail(message: string, res?: ApiResponse, concerning?: Concerning): never {
  throw new CheckFailure(res ? `${message} (${res.exchange.request.method} ${res.exchange.request.url} → ${res.status})` : message, res?.exchange, concerning);
}

/**
 * A comparison failed: the message leads with what differs, by path (`what: employee.first_name:
 * got "A" expected "B"`), and the failure carries every difference for the reports.
 */
export function failDiffering(what: string, differences: readonly Difference[], res?: ApiResponse, concerning?: Concerning): never {
  const message = differences.length ? `${what}: ${differencesText(differences)}` : what;
  const failure = new CheckFailure(res ? `${message} (${res.exchange.request.method} ${res.exchange.request.url} → ${res.status})` : message, res?.exchange,
    concerning);
  if (differences.length) failure.differences = differences;
  throw failure;
}

export function ensure(condition: unknown, message: string, res?: ApiResponse, concerning?: Concerning): asserts condition {
  if (!condition) fail(message, res, concerning);
}

export type StatusRule = number | readonly number[] | '2xx' | '4xx';

const matches = (status: number, rule: StatusRule) =>
  rule === '2xx'
    ? status >= 200 && status < 300
    : rule === '4xx'
    ? status >= 400 && status < 500
    : typeof rule === 'number'
    ? status === rule
    : rule.includes(status);

export function expectStatus(res: ApiResponse, rule: StatusRule, what: string, concerning?: Concerning): void {
  if (!matches(res.status, rule)) {
    const excerpt = res.text.length > 300 ? `${res.text.slice(0, 300)}…` : res.text;
    fail(`${what}: expected ${Array.isArray(rule) ? rule.join('|') : rule}, got ${res.status} ${excerpt}`, res, concerning);
  }
}

export const is2xx = (res: ApiResponse) => res.status >= 200 && res.status < 300;
