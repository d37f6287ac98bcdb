// The mock's switchable non-conformances: `start({ fault })` turns on exactly one. Each names the
// requirement ids (specs/requirements.json) a conformance run must then report failed, and carries
// the hooks that make the reference behave so. Written ones by concern (written/), then the
// families generated over the operation table (families.ts).
import { type FamilyFaultName, familyFaults } from './families.js';
import type { Fault } from './fault.js';
import { type ModeFaultName, modeFaults } from './modes/index.js';
import { authFaults } from './written/auth.js';
import { concurrencyFaults } from './written/concurrency.js';
import { errorFaults } from './written/errors.js';
import { idempotencyFaults } from './written/idempotency.js';
import { inputFaults } from './written/inputs.js';
import { intakeFaults } from './written/intake.js';
import { isolationFaults } from './written/isolation.js';
import { paginationFaults } from './written/pagination.js';
import { responseFaults } from './written/responses.js';
import { shapeFaults } from './written/shapes.js';
import { stateFaults } from './written/state.js';
import { uploadFaults } from './written/uploads.js';
import { versioningFaults } from './written/versioning.js';

export type { Fault, FaultHooks } from './fault.js';
export { CATEGORIES, type Category, type ModeFault, modeFaults } from './modes/index.js';

const written = [
  ...paginationFaults,
  ...isolationFaults,
  ...idempotencyFaults,
  ...uploadFaults,
  ...shapeFaults,
  ...errorFaults,
  ...authFaults,
  ...stateFaults,
  ...intakeFaults,
  ...versioningFaults,
  ...responseFaults,
  ...inputFaults,
  ...concurrencyFaults,
] as const;

/** The hand-written faults, then the families generated over the endpoint table. */
export const faults: readonly Fault[] = [...written, ...familyFaults()];

/** The hand-written ones (faults.test.ts smokes each; the families are proven by the suites' self-test). */
export const writtenFaults: readonly Fault[] = written;

/** A fault's name: a written one, or one of a family's (typed by the family's name pattern). */
export type FaultName = (typeof written)[number]['name'] | FamilyFaultName | ModeFaultName;

export class UnknownFault extends Error {}

/** The fault of that name, or an error naming the known ones. */
export function faultNamed(name: string): Fault {
  const found = faults.find((x) => x.name === name) ?? (name.startsWith('mode:') ? modeFaults().find((x) => x.name === name) : undefined);
  if (!found) {
    throw new UnknownFault(`Unknown fault "${name}". Known faults: ${faults.map((x) => x.name).join(', ')}, and the failure modes (mode:…, --list-faults)`);
  }
  return found;
}
