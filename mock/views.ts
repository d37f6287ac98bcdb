// Response views: how a stored row is shown, per resource and shape (§2, §7), with
// the response-shape faults applied as explicit transforms. Employees, assignments,
// organizations, attachments and files are shown in the fullest shape their specs/
// schema gives (mock/full-shape.ts), so every record of a kind carries the same fields.
// Serialized JSON is cached per entry object (entries are replaced on every change, so
// the cache never goes stale).
import type { Faults } from './faults.js';
import { fullShape } from './full-shape.js';
import { formatTimestamp, type ReadingValue } from './readings.js';
import type { Entry, Store } from './store.js';

export type Shape = 'full' | 'legacy';
type Obj = Record<string, unknown>;

const PROJECT_FULL_ONLY = ['close_reason', 'close_reason_category', 'closed_at', 'contacts', 'last_activity_at', 'stage_changed_at'];
const LEGACY_REFS = ['client_org_id', 'end_client_org_id', 'recruiter_org_id'];

export class Views {
  private readonly cache = new Map<string, WeakMap<Entry, string>>();
  private readonly assignments = new WeakMap<Entry, { emp: Entry | undefined; json: string; }>();
  private mixedCounter = 0;

  constructor(
    private readonly store: Store,
    /** Per resource (reading organization-shape): projects and organizations each in their fuller or older shape. */
    readonly shapes: { project: Shape; organization: Shape; },
    private readonly faults: Faults,
    private readonly extraFields = false,
    private readonly timestamps: ReadingValue<'timestamp-format'> = 'rfc3339-z',
  ) {}

  private cached(kind: string, e: Entry, build: () => Obj): string {
    let m = this.cache.get(kind);
    if (!m) this.cache.set(kind, m = new WeakMap());
    let s = m.get(e);
    if (s === undefined) {
      s = JSON.stringify(this.extra(this.withoutRequired(kind.replace(/-(full|legacy)$/, ''), build())));
      m.set(e, s);
    }
    return s;
  }

  /** The required-missing family: a field the kind's schema requires, left out. */
  private withoutRequired(kind: string, o: Obj): Obj {
    const active = this.faults.active;
    if (!active?.startsWith(`required-missing:${kind}.`)) return o;
    const { [active.slice(`required-missing:${kind}.`.length)]: _dropped, ...rest } = o;
    return rest;
  }

  /** The "extra fields" mode adds unknown fields, which clients must ignore (§9); reading timestamp-format rewrites *_at. */
  private extra(o: Obj): Obj {
    const stamped = this.timestamps === 'rfc3339-z' ? o : restamp(o, this.timestamps);
    return this.extraFields ? { ...stamped, x_unknown_field: 'clients ignore this', x_unknown_object: { nested: true } } : stamped;
  }

  project(e: Entry): string {
    let shape = this.shapes.project;
    if (this.faults.on('shape-mixed') && this.mixedCounter++ % 2 === 1) shape = shape === 'full' ? 'legacy' : 'full';
    // A literal kind: a string built per call would be hashed again at every lookup.
    return this.cached(shape === 'full' ? 'project-full' : 'project-legacy', e, () => this.projectObj(e, shape));
  }

  private projectObj(e: Entry, shape: Shape): Obj {
    const o: Obj = { ...e.row };
    if (shape === 'legacy') {
      for (const k of PROJECT_FULL_ONLY) delete o[k];
      for (const k of LEGACY_REFS) if (typeof e.extra[k] === 'string') o[k] = e.extra[k];
      if (this.faults.on('legacy-refs-mistyped')) o.client_org_id = 42;
    }
    if (this.faults.on('required-field-missing')) delete o.id;
    if (this.faults.on('field-mistyped')) o.title = 12345;
    if (this.faults.on('null-where-not-nullable')) o.description = null;
    if (this.faults.on('status-mistyped')) o.status = 1;
    if (this.faults.on('stage-mistyped') && o.stage) o.stage = { ...(o.stage as Obj), hidden: 'false', sort: '10' };
    return o;
  }

  organization(e: Entry): string {
    return this.cached('organization', e, () => {
      // The legacy schema leaves out last_activity_at and the newer address fields.
      const o = fullShape(this.shapes.organization === 'legacy' ? 'organization-legacy' : 'organization', e.row);
      if (this.faults.on('organization-mistyped')) o.addresses = (o.addresses as Obj[]).map((a) => ({ ...a, is_default: 'yes' }));
      if (this.faults.on('nullable-mistyped')) o.last_activity_at = false;
      return o;
    });
  }

  employeeObj(e: Entry): Obj {
    const o = fullShape('employee', e.row);
    if (this.faults.on('timestamps-not-strings')) o.created_at = Date.parse(String(o.created_at));
    if (this.faults.on('employee-mistyped')) o.is_active = String(o.is_active);
    return o;
  }

  employee(e: Entry): string {
    return this.cached('employee', e, () => this.employeeObj(e));
  }

  assignment(e: Entry): string {
    // The embedded employee changes independently, so the cached JSON remembers which employee entry it embeds.
    const emp = this.embeddedEntry(e);
    const hit = this.assignments.get(e);
    if (hit && hit.emp === emp) return hit.json;
    const embed = emp && !this.faults.on('assignment-employee-missing');
    const o = fullShape('assignment', embed ? { ...e.row, employee: this.embeddedEmployee(emp) } : e.row);
    const json = JSON.stringify(this.extra(this.withoutRequired('assignment', o)));
    this.assignments.set(e, { emp, json });
    return json;
  }

  /** First embedded employee entry per assignment id, for the faults of a stale embedded copy. */
  private readonly firstEmbedded = new Map<string, Entry | undefined>();

  private embeddedEntry(e: Entry): Entry | undefined {
    const employees = this.store.collections.employees;
    const current = employees.get(e.team, String(e.row.employee_id), true);
    const stale = this.faults.on('embedded-employee-stale') || this.faults.on('embedded-employee-follows-old-id');
    if (!stale) return current;
    if (!this.firstEmbedded.has(e.row.id)) this.firstEmbedded.set(e.row.id, current);
    const first = this.firstEmbedded.get(e.row.id);
    // stale: the copy taken when the assignment was first shown; follows-old-id: the first employee, as it is now
    if (this.faults.on('embedded-employee-stale')) return first;
    return first && employees.get(first.team, first.row.id, true);
  }

  private embeddedEmployee(emp: Entry): Obj {
    const o = this.employeeObj(emp);
    return this.faults.on('embedded-employee-defaults') ? { ...o, is_active: true, skills: [] } : o;
  }

  cv(e: Entry): string {
    return this.cached('cv', e, () => {
      if (!this.faults.on('cv-hidden-wrong')) return e.row;
      const data = { ...(e.row.data as Obj) };
      for (const [k, v] of Object.entries(data)) if (Array.isArray(v)) data[k] = v.map((item: Obj) => ({ ...item, hidden: 'no' }));
      return { ...e.row, data };
    });
  }

  attachment(e: Entry): string {
    return this.cached('attachment', e, () => {
      const o = fullShape('attachment', e.row);
      if (!this.faults.on('attachment-entity-type-wrong')) return o;
      const t = String(o.entity_type);
      return { ...o, entity_type: t.charAt(0).toUpperCase() + t.slice(1) };
    });
  }

  file(e: Entry): string {
    return this.cached('file', e, () => {
      const o = fullShape('file', e.row);
      return this.faults.on('file-mistyped') ? { ...o, size: String(o.size) } : o;
    });
  }
}

/** Every string `*_at` field (nested objects included) in the chosen timestamp format. */
function restamp(o: Obj, format: ReadingValue<'timestamp-format'>): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string' && k.endsWith('_at')) out[k] = formatTimestamp(v, format);
    else if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = restamp(v as Obj, format);
    else out[k] = v;
  }
  return out;
}
