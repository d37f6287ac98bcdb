// The catalog of failure modes, and the faults it generates: every mode over every element of its
// kind (elements.ts), named `mode:<category>:<mode>:<element>`. They are faults as any other
// (`start({ fault })`, `npm run mock -- --fault <name>`), kept apart from the faults the self-test
// proves detected: a failure mode is a sample of how deployed stacks fail, and whether the suite
// catches it is what bench/failure-modes.ts measures.
import type { Fault } from '../fault.js';
import { concurrencyModes, idempotencyModes } from './concurrency.js';
import { type Element, elementsOf } from './elements.js';
import { listModes } from './lists.js';
import type { Category, Mode } from './mode.js';
import { accessModes, requestModes } from './protocol.js';
import { readModes } from './reads.js';
import { keyModes, serializationModes, storageModes } from './storage.js';
import { writeModes } from './writes.js';

export { CATEGORIES, type Category } from './mode.js';

/** Every failure mode of the catalog. */
export const MODES: readonly Mode[] = [
  ...storageModes,
  ...serializationModes,
  ...keyModes,
  ...writeModes,
  ...readModes,
  ...requestModes,
  ...accessModes,
  ...listModes,
  ...concurrencyModes,
  ...idempotencyModes,
];

export type ModeFaultName = `mode:${Category}:${string}:${string}`;

/** A fault a failure mode generated: the mode, and the element it breaks. */
export interface ModeFault extends Fault {
  name: ModeFaultName;
  category: Category;
  mode: string;
  element: string;
  elementKind: Element['kind'];
}

export const modeFaultName = (m: Pick<Mode, 'category' | 'mode'>, e: Pick<Element, 'name'>): ModeFaultName => `mode:${m.category}:${m.mode}:${e.name}`;

let generated: ModeFault[] | undefined;

/** The product of the failure modes and their elements, in a stable order. */
export function modeFaults(): readonly ModeFault[] {
  generated ??= MODES.flatMap((m) =>
    elementsOf(m.kind).filter((e) => m.applies?.(e as never) ?? true).map((e): ModeFault => ({
      name: modeFaultName(m, e),
      category: m.category,
      mode: m.mode,
      element: e.name,
      elementKind: e.kind,
      requirements: [...new Set(m.requirements(e as never))],
      description: m.words(e as never),
      shape: 'full',
      hooks: (ctx) => m.hooks(e as never, ctx),
    }))
  );
  return generated;
}
