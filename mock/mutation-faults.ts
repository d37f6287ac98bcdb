// The families of a write that answers or stores the wrong thing (mock/fault-families.ts),
// applied around any create or PATCH handler, whatever the resource: the PATCH that answers the
// record as it was, the PATCH that replaces the record with the fields it names, the create
// that answers what was sent but stores only what its schema requires.
import { schema, type SchemaName } from '../specs/index.js';
import type { AppContext } from './context.js';
import type { Input, Result } from './exchange.js';
import { createStoresLess, patchAnswersOld, patchDropsUnnamed } from './fault-families.js';
import type { Entry, ResourceName, Row, TeamId } from './store.js';

interface Target {
  col: ResourceName;
  schema: SchemaName;
  view(ctx: AppContext, e: Entry): string;
}

const target = (col: ResourceName, name: SchemaName, view: Target['view']): Target => ({ col, schema: name, view });

/** Where each write keeps its record and how the record is shown. */
const TARGETS: Record<string, Target> = {
  updateProject: target('projects', 'project', (ctx, e) => ctx.views.project(e)),
  updateAssignment: target('assignments', 'assignment', (ctx, e) => ctx.views.assignment(e)),
  createAssignment: target('assignments', 'assignment', (ctx, e) => ctx.views.assignment(e)),
  updateEmployee: target('employees', 'employee', (ctx, e) => ctx.views.employee(e)),
  createEmployee: target('employees', 'employee', (ctx, e) => ctx.views.employee(e)),
  updateOrganization: target('organizations', 'organization', (ctx, e) => ctx.views.organization(e)),
  createOrganization: target('organizations', 'organization', (ctx, e) => ctx.views.organization(e)),
  uploadAttachment: target('attachments', 'attachment', (ctx, e) => ctx.views.attachment(e)),
  uploadFile: target('files', 'file', (ctx, e) => ctx.views.file(e)),
};

/** Fields every record keeps, whatever a write does to it. */
const SERVER_FIELDS = ['id', 'created_at', 'updated_at'];

const entryOf = (ctx: AppContext, t: Target, team: TeamId, id: unknown) => (typeof id === 'string' ? ctx.store.collections[t.col].get(team, id) : undefined);

/** The create stored only its schema's required fields and the server's own. */
export function storeLess(ctx: AppContext, op: string, team: TeamId, json: string | Buffer): void {
  const t = TARGETS[op];
  if (!t || !ctx.faults.on(createStoresLess(op))) return;
  const e = entryOf(ctx, t, team, (JSON.parse(String(json)) as Row).id);
  if (!e) return;
  const keep = new Set([...SERVER_FIELDS, ...((schema(t.schema) as { required?: string[]; }).required ?? [])]);
  ctx.store.collections[t.col].replace(e, Object.fromEntries(Object.entries(e.row).filter(([k]) => keep.has(k))) as Row);
}

/** Runs a JSON create or PATCH handler under the families above (only the active one costs anything). */
export async function withMutationFaults(ctx: AppContext, op: string, input: Input, run: () => Promise<Result>): Promise<Result> {
  const t = TARGETS[op];
  if (!t || !ctx.faults.active?.endsWith(`:${op}`)) return run();
  const team = input.principal.team;
  const col = ctx.store.collections[t.col];
  if (ctx.faults.on(patchAnswersOld(op))) {
    const before = entryOf(ctx, t, team, input.params.id);
    const old = before && t.view(ctx, before);
    const result = await run();
    return old !== undefined && result.status < 300 ? { status: result.status, json: old } : result;
  }
  if (ctx.faults.on(patchDropsUnnamed(op))) {
    const result = await run();
    const e = entryOf(ctx, t, team, input.params.id);
    if (!e || result.status >= 300) return result;
    const kept = Object.fromEntries(Object.entries(e.row).filter(([k]) => SERVER_FIELDS.includes(k) || k in input.body)) as Row;
    return { status: result.status, json: t.view(ctx, col.replace(e, kept)) };
  }
  const result = await run();
  if (result.status < 300) storeLess(ctx, op, team, result.json);
  return result;
}
