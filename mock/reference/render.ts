// How a stored row is shown (§2, §7): a record of any kind in the fullest shape its specs/ schema
// gives (full-shape.ts), or the older shape where §2 shows two and the reading picks it, so every
// record of a kind carries the same fields. Projects (the older shape's organization references),
// assignments (the employee they embed, as it is now) and CVs (stored whole) have rules of their own.
// Serialized JSON is kept per entry object (entries are replaced on every change, so
// what is kept never goes stale).
import type { Rec } from '../../contract/json.js';
import { collectionOf, type RecordKind, resource } from '../../specs/registry.js';
import { fullShape } from './full-shape.js';
import { formatTimestamp, type ReadingValue } from './readings.js';
import type { Entry, Store } from './store.js';

export type Shape = 'full' | 'legacy';

const PROJECT_FULL_ONLY = ['close_reason', 'close_reason_category', 'closed_at', 'contacts', 'last_activity_at', 'stage_changed_at'];
const LEGACY_REFS = ['client_org_id', 'end_client_org_id', 'recruiter_org_id'];

export class Render {
  private readonly cache = new Map<string, WeakMap<Entry, string>>();
  private readonly assignments = new WeakMap<Entry, { emp: Entry | undefined; json: string; }>();

  constructor(
    private readonly store: Store,
    /** Per resource (reading organization-shape): projects and organizations each in their fuller or older shape. */
    readonly shapes: { project: Shape; organization: Shape; },
    private readonly extraFields = false,
    private readonly timestamps: ReadingValue<'timestamp-format'> = 'rfc3339-z',
  ) {}

  private cached(kind: string, e: Entry, build: () => Rec): string {
    let m = this.cache.get(kind);
    if (!m) this.cache.set(kind, m = new WeakMap());
    let s = m.get(e);
    if (s === undefined) {
      s = JSON.stringify(this.extra(build()));
      m.set(e, s);
    }
    return s;
  }

  /** The "extra fields" mode adds unknown fields, which clients must ignore (§9); reading timestamp-format rewrites *_at. */
  private extra(o: Rec): Rec {
    const stamped = this.timestamps === 'rfc3339-z' ? o : restamp(o, this.timestamps);
    return this.extraFields ? { ...stamped, x_unknown_field: 'clients ignore this', x_unknown_object: { nested: true } } : stamped;
  }

  /**
   * A record of any kind as shown: the fullest shape of its record schema (the older one where the
   * reading picks it). Projects and assignments have rules of their own (below).
   */
  show(kind: RecordKind, e: Entry): string {
    if (kind === 'project') return this.project(e);
    if (kind === 'assignment') return this.assignment(e);
    if (kind === 'cv') return this.cv(e);
    const { record, legacy } = resource(collectionOf(kind));
    if (!record) throw new Error(`no record schema shows a ${kind}`);
    const shape = legacy && (this.shapes as Record<string, Shape | undefined>)[kind] === 'legacy' ? legacy : record;
    return this.cached(kind, e, () => fullShape(shape, e.row));
  }

  project(e: Entry): string {
    return this.cached('project', e, () => projectIn(this.shapes.project, e));
  }

  employeeObj(e: Entry): Rec {
    return fullShape('employee', e.row);
  }

  assignment(e: Entry): string {
    // The embedded employee changes independently, so the cached JSON remembers which employee entry it embeds.
    const emp = this.embeddedEntry(e);
    const hit = this.assignments.get(e);
    if (hit && hit.emp === emp) return hit.json;
    const o = fullShape('assignment', emp ? { ...e.row, employee: this.employeeObj(emp) } : e.row);
    const json = JSON.stringify(this.extra(o));
    this.assignments.set(e, { emp, json });
    return json;
  }

  /** The employee an assignment embeds: the one its employee_id names now. */
  private embeddedEntry(e: Entry): Entry | undefined {
    return this.store.collections.employees.get(e.team, String(e.row.employee_id));
  }

  cv(e: Entry): string {
    return this.cached('cv', e, () => e.row);
  }
}

/** A project in the fuller shape or the older one (§2: without the fuller shape's fields, with the organization references). */
export function projectIn(shape: Shape, e: Entry): Rec {
  const o: Rec = { ...e.row };
  if (shape === 'legacy') {
    for (const k of PROJECT_FULL_ONLY) delete o[k];
    for (const k of LEGACY_REFS) if (typeof e.extra[k] === 'string') o[k] = e.extra[k];
  }
  return o;
}

/** Every string `*_at` field (nested objects included) in the chosen timestamp format. */
function restamp(o: Rec, format: ReadingValue<'timestamp-format'>): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string' && k.endsWith('_at')) out[k] = formatTimestamp(v, format);
    else if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = restamp(v as Rec, format);
    else out[k] = v;
  }
  return out;
}
