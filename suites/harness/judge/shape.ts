// Which shape of projects, and which of organizations, the deployment serves. The document gives
// each resource its older shape separately ("A second, older shape of the project also appears";
// "An older organization shape also appears"), so each is read on its own. With CONFORMANCE_SHAPE=auto
// a resource's shape is read from the first of its records that shows it and then held for the
// whole worker. A record shows its shape only by fields one shape has and the other lacks, present:
// a listed field may be left out of any record (RES-INHERENT-FIELDS), so an absence proves nothing,
// except that an organization showing none of the fuller shape's fields is taken as the older one
// until one shows them.
import type { Rec } from '../../../contract/json.js';
import type { Shape } from '../../../contract/settings.js';
import { schema, type SchemaName } from '../../../specs/index.js';
import { recordReading } from '../run/current.js';
import { target } from '../run/target.js';

export type ShapedKind = 'project' | 'organization';

/** Properties of schema `a` that schema `b` does not have. */
const only = (a: SchemaName, b: SchemaName): string[] => {
  const props = (n: SchemaName) => Object.keys((schema(n) as { properties?: object; }).properties ?? {});
  const other = new Set(props(b));
  return props(a).filter((p) => !other.has(p));
};

const FIELDS = {
  project: { full: only('project', 'project-legacy'), legacy: only('project-legacy', 'project') },
  organization: { full: only('organization', 'organization-legacy'), legacy: only('organization-legacy', 'organization') },
  address: { full: only('address', 'address-legacy') },
};

/** The shape the record shows by a field only that shape has, or undefined when it shows neither. */
export function shapeOfRecord(kind: ShapedKind, record: Rec): Shape | undefined {
  if (FIELDS[kind].legacy.some((f) => f in record)) return 'legacy';
  if (FIELDS[kind].full.some((f) => f in record)) return 'full';
  if (kind === 'organization' && Array.isArray(record.addresses)) {
    if (record.addresses.some((a) => a && typeof a === 'object' && FIELDS.address.full.some((f) => f in (a as Rec)))) return 'full';
  }
  return undefined;
}

/**
 * Per resource: the shape seen, from which record, and whether a record showed it (not only lacked
 * the other's fields). Per-worker state, owned here (the fault sweep forgets it per fault).
 */
const detected = new Map<ShapedKind, { shape: Shape; from: string; shown: boolean; }>();

export function servedShape(kind: ShapedKind, record: unknown): Shape {
  const configured = target().settings.shape;
  if (configured !== 'auto') return configured;
  if (record && typeof record === 'object') {
    const r = record as Rec;
    const shown = shapeOfRecord(kind, r);
    const held = detected.get(kind);
    if (shown && (!held || !held.shown)) detected.set(kind, { shape: shown, from: `${kind} ${String(r.id)}`, shown: true });
    else if (!held && kind === 'organization') {
      detected.set(kind, { shape: 'legacy', from: `${kind} ${String(r.id)}, no field of the fuller shape`, shown: false });
    }
  }
  const held = detected.get(kind);
  recordReading(`shape.${kind}`, held ? `${held.shape} (detected from ${held.from})` : 'full (nothing seen yet)');
  return held?.shape ?? 'full';
}

export function detectedShape(kind: ShapedKind): Shape | undefined {
  return target().settings.shape === 'auto' ? detected.get(kind)?.shape : (target().settings.shape as Shape);
}

/** Forgets the detected shapes: the fault sweep runs one process against many targets. */
export function forgetDetectedShape(): void {
  detected.clear();
}
