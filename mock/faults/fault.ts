// A switchable non-conformance of the mock: the requirement ids (specs/requirements.json) a
// conformance run must then report failed, and the hooks (mock/reference/hooks.ts) that make the
// reference behave so. Faults are written one by one (written/) or generated in families over the
// operation table (families.ts).
import type { FaultSummary } from '../options.js';
import type { AppContext } from '../reference/context.js';
import type { Hooks } from '../reference/hooks.js';
import type { RoutesEdit } from '../reference/pipeline.js';

/** A fault's hooks, and the edit of the served routes it makes at start. */
export type FaultHooks = Hooks & { routes?: RoutesEdit; };

export interface Fault extends FaultSummary {
  /** The hooks of one mock with this fault on. */
  hooks(ctx: AppContext): FaultHooks;
}

/** A written fault (`shape: 'legacy'` when it shows only in the older project/organization shape). */
export const fault = <const N extends string>(
  name: N,
  requirements: readonly string[],
  description: string,
  hooks: (ctx: AppContext) => FaultHooks,
  shape: Fault['shape'] = 'full',
) => ({ name, requirements, description, shape, hooks }) satisfies Fault;

/** Hooks that apply only to the operation `op` (the rest of the request goes as the reference has it). */
export const only = (ops: string | readonly string[]) => {
  const set = new Set(typeof ops === 'string' ? [ops] : ops);
  return (operationId: string | undefined): boolean => operationId !== undefined && set.has(operationId);
};
