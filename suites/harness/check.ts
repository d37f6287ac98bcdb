// check(): a vitest test tagged with requirement ids from the catalog (C5). It honours
// CONFORMANCE_ONLY and CONFORMANCE_READ_ONLY, skips with a reason when a setting is missing,
// and leaves CheckMeta (failure evidence and what it concerns, readings, warnings, request
// count) on the task. A failure in shared setup (setup.ts) that is not the check's own subject
// marks the check blocked rather than failed.
import { pathToFileURL } from 'node:url';
import { afterAll, test, type TestContext, TestRunner } from 'vitest';
import { type CheckMeta, concernOf } from '../../contract/check.js';
import { excludes, selects } from '../../contract/selection.js';
import { type KeyName, keyNeeds, keySettingNames, pathNeeds, type PathSetting, pathSettingNames, type Settings } from '../../contract/settings.js';
import { isKnownRequirement } from '../../specs/requirements.js';
import { CheckFailure } from './judge/assert.js';
import { Unreadable } from './judge/problems.js';
import { resolveReferences } from './judge/references.js';
import type { Ledger } from './ledger.js';
import { cellOutcomes, type CellPlan } from './plan/cells.js';
import { beginCheck, type CheckState, endCheck, recordReading, recordWarning } from './run/current.js';
import { type ProvidedTarget, target } from './run/target.js';
import { api, closeSession, installInspectors, notRun, onCheckAborted, stoppedBy, theLedger } from './session.js';
import { SetupFailure } from './setup.js';
import { stateBehind } from './state-trail.js';
import type { ApiClient } from './transport/client.js';

export interface CheckOptions {
  /** The check creates, changes or deletes records: skipped under CONFORMANCE_READ_ONLY=1. */
  mutates?: boolean;
  /** Path settings the check needs; missing → skipped naming the setting. */
  needs?: PathSetting[];
  /** Keys the check needs besides the team's; missing → skipped. */
  keys?: KeyName[];
  timeout?: number;
  /** The coverage cells the check records (suites/harness/table.ts cellsOf), each with its outcome (C5 `cells`). */
  cells?: (settings: Settings) => readonly CellPlan[];
}

export interface CheckContext {
  api: ApiClient;
  target: ProvidedTarget;
  settings: ProvidedTarget['settings'];
  ledger: Ledger;
  /** Which of the conforming readings the target chose (report: "Readings observed"). */
  reading(name: string, value: string): void;
  /** A reading that deserves attention — the document allows it, but it is arguable. Never fails the run. */
  warn(name: string, message: string): void;
  skip(reason: string): never;
}

/** A check as declared: what the fault sweep (suites/self/sweep.ts) runs without vitest. */
export interface CheckDefinition {
  requirements: string[];
  /** The test name: title and requirement ids. */
  name: string;
  fn: (c: CheckContext) => Promise<void>;
  options: CheckOptions;
  /** The concern: the suite file's name without .check.ts. */
  concern: string;
}

// Suite files may share one worker (isolate: false): each file gets its own cleanup hook.
const hookedFiles = new WeakSet<object>();

/** Where check() records definitions instead of declaring tests: owned by collectChecks, set only while it loads a file. */
let collecting: { concern: string; checks: CheckDefinition[]; } | undefined;

/**
 * The checks the suite files declare, as definitions rather than vitest tests, in file order: what
 * the fault sweep (suites/self/sweep.ts) runs without vitest. Each file is imported once.
 */
export async function collectChecks(files: readonly string[]): Promise<CheckDefinition[]> {
  const checks: CheckDefinition[] = [];
  try {
    for (const file of files) {
      collecting = { concern: concernOf(file), checks };
      await import(/* @vite-ignore */ pathToFileURL(file).href);
    }
  } finally {
    collecting = undefined;
  }
  return checks;
}

export function check(requirements: string[], title: string, fn: (c: CheckContext) => Promise<void>, options: CheckOptions = {}): void {
  const unknown = requirements.filter((id) => !isKnownRequirement(id));
  if (requirements.length === 0 || unknown.length) throw new Error(`check "${title}": unknown requirement id(s) ${unknown.join(', ') || '(none given)'}`);
  const name = `${title} [${requirements.join(', ')}]`;
  if (collecting) {
    collecting.checks.push({ requirements, name, fn, options, concern: collecting.concern });
    return;
  }
  const suite = TestRunner.getCurrentSuite();
  const file = (suite.file ?? suite) as { name: string; };
  if (!hookedFiles.has(file)) {
    hookedFiles.add(file);
    afterAll(() => closeSession(file.name), 120_000);
  }
  // The ids travel as task meta from the declaration on, so a check that never runs still names them.
  const concern = concernOf(file.name);
  test(name, { timeout: options.timeout ?? 60_000, meta: { conformance: { requirements, concern } } }, async (ctx) => {
    const meta: CheckMeta = (ctx.task.meta.conformance ??= { requirements, concern });
    // Once traffic stopped (signal, deadline, silent target) a check cannot run: an error, not a failure.
    ctx.signal.addEventListener('abort', () => onCheckAborted(ctx.signal.reason));
    await runCheck({ requirements, name, fn, options, concern: meta.concern }, meta, (reason) => ctx.skip(reason));
  });
}

/**
 * The body of a check, for vitest and for the fault sweep alike: skip reasons, the check itself,
 * and its evidence, readings, warnings and request count left on `meta`. A failure is rethrown;
 * `skip` must throw (vitest's ctx.skip does).
 */
export async function runCheck(def: CheckDefinition, meta: CheckMeta, skip: (reason: string) => never): Promise<void> {
  const cells = () => def.options.cells?.(target().settings);
  const skipFor = (reason: string): never => {
    meta.skipReason = reason;
    const skipped = cellOutcomes(undefined, cells(), reason);
    if (skipped) meta.cells = skipped;
    return skip(reason);
  };
  const cannotRun = (why: string): never => {
    meta.notRun = why;
    return skipFor(`not run: ${why}`);
  };
  if (notRun()) cannotRun(notRun()!);
  const t = target();
  const reason = skipReasonFor(t, def.requirements, def.options) ?? otherCheck(def.name);
  if (reason) skipFor(reason);
  await installInspectors();
  const state = beginCheck(def.requirements);
  try {
    await def.fn({ api: api(), target: t, settings: t.settings, ledger: theLedger(), reading: recordReading, warn: recordWarning, skip: skipFor });
    if (state.inspections.length) throw new Error(`response inspection failed: ${state.inspections.join('\n')}`);
  } catch (e) {
    if (!meta.skipReason && stoppedBy(e)) cannotRun(notRun()!);
    if (!meta.skipReason) meta.failure = { ...evidence(e, state), ...concerns(e, def.requirements) };
    throw e;
  } finally {
    // The references the check's responses named, resolved within the run's budget: their
    // findings are the check's responses' too (references.ts).
    if (!notRun()) await resolveReferences(api(), t.settings.walkPages).catch(() => undefined);
    if (Object.keys(state.readings).length) meta.readings = state.readings;
    if (state.warnings.length) meta.warnings = state.warnings;
    const outcomes = cellOutcomes(state, cells(), meta.skipReason);
    if (outcomes) meta.cells = outcomes;
    if (state.findings.size) meta.findings = [...state.findings.values()];
    if (Object.keys(state.judged).length) meta.judged = state.judged;
    meta.requests = state.requests;
    endCheck();
  }
}

/** `conformance run --check <name>` (a replay): every other check is left out. */
function otherCheck(name: string): string | undefined {
  const only = process.env.CONFORMANCE_CHECK?.trim();
  return only && only !== name ? 'not selected by --check' : undefined;
}

function skipReasonFor(t: ProvidedTarget, requirements: string[], options: CheckOptions): string | undefined {
  if (!selects(t.settings.selection.only, requirements)) return 'not selected by CONFORMANCE_ONLY';
  if (excludes(t.settings.selection.exclude, requirements)) return 'excluded by CONFORMANCE_EXCLUDE';
  if (options.mutates && t.settings.readOnly) return 'CONFORMANCE_READ_ONLY=1: the check would change records';
  for (const need of options.needs ?? []) if (!t.settings.paths[need]) return `not checked: needs ${pathNeeds[need]} (set ${pathSettingNames[need]})`;
  for (const key of options.keys ?? []) if (!t.settings.keys[key]) return `not checked: needs ${keyNeeds[key]} (set ${keySettingNames[key]})`;
  return undefined;
}

/**
 * What a failure is about: its setup steps, the audit's finding it is or that blocked it, and the
 * check's requirements it concerns (absent: all). A check stopped by a finding fails only on the
 * requirements the finding violates (a check of that rule), and is blocked on the others.
 */
function concerns(e: unknown, requirements: readonly string[]): Pick<NonNullable<CheckMeta['failure']>, 'requirements' | 'setup' | 'finding' | 'strays'> {
  const own = (ids: readonly string[]) => requirements.filter((id) => ids.includes(id));
  const unreadable = e instanceof Unreadable ? e : e instanceof SetupFailure && e.origin instanceof Unreadable ? e.origin : undefined;
  const finding = unreadable ? { finding: unreadable.violation.key } : {};
  // A step stopped by a finding is about that finding, whatever the step itself exercises.
  if (e instanceof SetupFailure) return { setup: [...e.steps], requirements: own(unreadable ? unreadable.violation.requirements : e.subject), ...finding };
  if (unreadable) return { requirements: own(unreadable.violation.requirements), ...finding };
  if (e instanceof CheckFailure && e.finding !== undefined) return { ...(e.requirements ? { requirements: own(e.requirements) } : {}), finding: e.finding };
  const tagged = (e as { requirements?: readonly string[]; } | null)?.requirements;
  if (!Array.isArray(tagged)) return {};
  // An id the check is not tagged with is a defect of the check, reported as a run error; the
  // failure then concerns the ids it names that are the check's, or all of them.
  const strays = tagged.filter((id) => !requirements.includes(id));
  return { ...(own(tagged).length > 0 ? { requirements: own(tagged) } : {}), ...(strays.length ? { strays } : {}) };
}

function evidence(e: unknown, running: CheckState): NonNullable<CheckMeta['failure']> {
  const error = e as { message?: string; exchange?: CheckState['transcript'][number]; };
  const exchange = error.exchange ?? (e instanceof SetupFailure ? undefined : running.transcript.at(-1));
  const unreadable = e instanceof Unreadable ? e : e instanceof SetupFailure && e.origin instanceof Unreadable ? e.origin : undefined;
  const key = unreadable?.violation.key ?? (e instanceof CheckFailure ? e.finding : undefined);
  const excerpt = key === undefined ? undefined : running.findings.get(key)?.excerpt;
  // within a property, what the failing run itself sent (the writes of other runs built nothing it read)
  const writes = running.runFrom === undefined ? running.writes : running.writes.filter((w) => (running.order.get(w) ?? 0) > running.runFrom!);
  const state = exchange ? stateBehind(writes, exchange, running.order) : [];
  const differences = (e as { differences?: CheckFailure['differences']; } | null)?.differences;
  return {
    message: String(error.message ?? e),
    ...(exchange ? { request: exchange.request, curl: exchange.curl } : {}),
    ...(state.length ? { state } : {}),
    ...(differences?.length ? { differences: [...differences] } : {}),
    ...(exchange?.response ? { response: exchange.response } : {}),
    ...(excerpt ? { excerpt } : {}),
    ...(running.property ? { seed: running.property.seed, path: running.property.path, counterexample: running.property.counterexample } : {}),
  };
}

export type { TestContext };
