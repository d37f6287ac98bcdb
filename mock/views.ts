// Response views: how a stored row is shown, per resource and shape (§2, §7), with
// the response-shape faults applied as explicit transforms. Serialized JSON is cached
// per entry object (entries are replaced on every change, so the cache never goes stale).
import type { Faults } from './faults.js';
import { formatTimestamp, type ReadingValue } from './readings.js';
import type { Entry, Store } from './store.js';

export type Shape = 'full' | 'legacy';
type Obj = Record<string, unknown>;

const PROJECT_FULL_ONLY = ['close_reason', 'close_reason_category', 'closed_at', 'contacts', 'last_activity_at', 'stage_changed_at'];
const LEGACY_REFS = ['client_org_id', 'end_client_org_id', 'recruiter_org_id'];
const ADDRESS_FULL_ONLY = ['buyer_identifier', 'buyer_identifier_scheme', 'electronic_address', 'electronic_address_scheme', 'establishment_country'];

export class Views {
  private readonly cache = new Map<string, WeakMap<Entry, string>>();
  private readonly assignments = new WeakMap<Entry, { emp: Entry | undefined; json: string }>();
  private mixedCounter = 0;

  constructor(
    private readonly store: Store,
    readonly shape: Shape,
    private readonly faults: Faults,
    private readonly extraFields = false,
    private readonly timestamps: ReadingValue<'timestamp-format'> = 'rfc3339-z',
  ) {}

  private cached(kind: string, e: Entry, build: () => Obj): string {
    let m = this.cache.get(kind);
    if (!m) this.cache.set(kind, (m = new WeakMap()));
    let s = m.get(e);
    if (s === undefined) {
      s = JSON.stringify(this.extra(build()));
      m.set(e, s);
    }
    return s;
  }

  /** The "extra fields" mode adds unknown fields, which clients must ignore (§9); reading timestamp-format rewrites *_at. */
  private extra(o: Obj): Obj {
    const stamped = this.timestamps === 'rfc3339-z' ? o : restamp(o, this.timestamps);
    return this.extraFields ? { ...stamped, x_unknown_field: 'clients ignore this', x_unknown_object: { nested: true } } : stamped;
  }

  project(e: Entry): string {
    let shape = this.shape;
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
      const o: Obj = { ...e.row };
      let addresses = (o.addresses as Obj[] | undefined) ?? [];
      if (this.shape === 'legacy') {
        delete o.last_activity_at;
        addresses = addresses.map((a) => {
          const c = { ...a };
          for (const k of ADDRESS_FULL_ONLY) delete c[k];
          return c;
        });
      }
      if (this.faults.on('organization-mistyped')) addresses = addresses.map((a) => ({ ...a, is_default: 'yes' }));
      if (this.faults.on('nullable-mistyped')) o.last_activity_at = false;
      o.addresses = addresses;
      return o;
    });
  }

  employeeObj(e: Entry): Obj {
    const o: Obj = { ...e.row };
    if (this.faults.on('timestamps-not-strings')) o.created_at = Date.parse(String(o.created_at));
    if (this.faults.on('employee-mistyped')) o.is_active = String(o.is_active);
    return o;
  }

  employee(e: Entry): string {
    return this.cached('employee', e, () => this.employeeObj(e));
  }

  assignment(e: Entry): string {
    // The embedded employee changes independently, so the cached JSON remembers which employee entry it embeds.
    const emp = this.store.collections.employees.get(e.team, String(e.row.employee_id), true);
    const hit = this.assignments.get(e);
    if (hit && hit.emp === emp) return hit.json;
    const o: Obj = { ...e.row };
    if (emp && !this.faults.on('assignment-employee-missing')) o.employee = this.employeeObj(emp);
    const json = JSON.stringify(this.extra(o));
    this.assignments.set(e, { emp, json });
    return json;
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
      if (!this.faults.on('attachment-entity-type-wrong')) return e.row;
      const t = String(e.row.entity_type);
      return { ...e.row, entity_type: t.charAt(0).toUpperCase() + t.slice(1) };
    });
  }

  file(e: Entry): string {
    return this.cached('file', e, () => (this.faults.on('file-mistyped') ? { ...e.row, size: String(e.row.size) } : e.row));
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
