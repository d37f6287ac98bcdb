// Written faults of response shapes (§2 resources and their fields, §2 conventions).
import type { Rec } from '../../../contract/json.js';
import { projectIn } from '../../reference/render.js';
import { fault } from '../fault.js';
import { editBody, editRecords, operationsOf } from '../records.js';

/** The record with `field` set to `value` when it has the field (or always, with `always`). */
const set = (field: string, value: (o: Rec) => unknown, always = true) => (o: Rec): Rec => (always || field in o ? { ...o, [field]: value(o) } : o);

export const shapeFaults = [
  fault('required-field-missing', ['RES-PROJECT-SHAPE', 'RES-PAGE-ENVELOPE'], 'projects are served without id', () => ({
    respond: editRecords('project', ({ id: _id, ...rest }) => rest),
  })),
  fault('field-mistyped', ['RES-PROJECT-SHAPE', 'RES-PAGE-ENVELOPE'], 'project title is served as a number', () => ({
    respond: editRecords('project', set('title', () => 12345)),
  })),
  fault('null-where-not-nullable', ['RES-NON-NULL-FIELDS', 'RES-PROJECT-SHAPE'], 'project description is served as null', () => ({
    respond: editRecords('project', set('description', () => null)),
  })),
  fault('nullable-mistyped', ['RES-NULLABLE-FIELDS', 'RES-TIMESTAMPS-DATES-STRINGS', 'RES-ORGANIZATION-SHAPE'],
    'organization last_activity_at is served as false instead of a string or null',
    () => ({ respond: editRecords('organization', set('last_activity_at', () => false)) })),
  fault('timestamps-not-strings', ['RES-TIMESTAMPS-DATES-STRINGS', 'RES-EMPLOYEE-SHAPE'], 'employee created_at is served as epoch milliseconds', () => ({
    respond: editRecords('employee', set('created_at', (o) => Date.parse(String(o.created_at)))),
  })),
  fault('stage-mistyped', ['STATE-STAGE-HIDDEN-SORT', 'RES-PROJECT-SHAPE'], 'stage hidden is served as a string and sort as a string', () => ({
    respond: editRecords('project', (o) => (o.stage ? { ...o, stage: { ...(o.stage as Rec), hidden: 'false', sort: '10' } } : o)),
  })),
  fault('status-mistyped', ['STATE-PROJECT-STATUS-STAGE', 'RES-PROJECT-SHAPE'], 'project status is served as a number', () => ({
    respond: editRecords('project', set('status', () => 1)),
  })),
  fault('legacy-refs-mistyped', ['RES-PROJECT-LEGACY-SHAPE'], 'in the legacy shape, client_org_id is served as a number', () => ({
    respond: editRecords('project', set('client_org_id', () => 42, false)),
  }), 'legacy'),
  fault('shape-mixed', ['RES-SHAPE-CONSISTENT'], 'every other project response uses the other shape', (ctx) => {
    let shown = 0;
    return {
      respond: editRecords('project', (o) => {
        const e = typeof o.id === 'string' ? ctx.store.collections.projects.find(o.id) : undefined;
        return shown++ % 2 === 1 && e ? projectIn(ctx.render.shapes.project === 'full' ? 'legacy' : 'full', e) : o;
      }),
    };
  }),
  fault('employee-mistyped', ['RES-EMPLOYEE-SHAPE'], 'employee is_active is served as a string', () => ({
    respond: editRecords('employee', set('is_active', (o) => String(o.is_active))),
  })),
  fault('assignment-employee-missing', ['RES-ASSIGNMENT-SHAPE'], 'assignments are served without the embedded employee', () => ({
    respond: editRecords('assignment', ({ employee: _employee, ...rest }) => rest),
  })),
  fault('embedded-employee-stale', ['RES-ASSIGNMENT-EMBEDDED-CURRENT'],
    "an assignment embeds its employee as it was when the assignment was first shown, not after the employee's PATCH", () => {
    const first = new Map<string, unknown>();
    return {
      respond: editRecords('assignment', (o) => {
        const id = String(o.id);
        if (!first.has(id)) first.set(id, o.employee);
        return o.employee === undefined ? o : { ...o, employee: first.get(id) };
      }),
    };
  }),
  fault('embedded-employee-follows-old-id', ['RES-ASSIGNMENT-EMBEDDED-CURRENT'],
    'an assignment keeps embedding its first employee after its employee_id changes', (ctx) => {
    const firstEmployee = new Map<string, string>();
    return {
      respond: editRecords('assignment', (o) => {
        const id = String(o.id);
        if (!firstEmployee.has(id)) firstEmployee.set(id, String(o.employee_id));
        const emp = ctx.store.collections.employees.find(firstEmployee.get(id)!);
        return emp ? { ...o, employee: ctx.render.employeeObj(emp) } : o;
      }),
    };
  }),
  fault('embedded-employee-defaults', ['EP-CREATE-PERSISTS', 'RES-ASSIGNMENT-EMBEDDED-CURRENT'],
    'the embedded employee shows is_active true and no skills, whatever the employee holds', () => ({
      respond: editRecords('assignment', (o) => (o.employee ? { ...o, employee: { ...(o.employee as Rec), is_active: true, skills: [] } } : o)),
    })),
  fault('organization-mistyped', ['RES-ORGANIZATION-SHAPE', 'RES-ORGANIZATION-LEGACY-SHAPE'], 'organization address is_default is served as a string', () => ({
    respond: editRecords('organization', (o) => ({ ...o, addresses: ((o.addresses as Rec[] | undefined) ?? []).map((a) => ({ ...a, is_default: 'yes' })) })),
  }), 'legacy'),
  fault('attachment-entity-type-wrong', ['RES-ATTACHMENT-SHAPE'], 'attachment entity_type is served capitalized (outside the closed set)', () => ({
    respond: editRecords('attachment', set('entity_type', (o) => String(o.entity_type).charAt(0).toUpperCase() + String(o.entity_type).slice(1))),
  })),
  fault('file-mistyped', ['RES-FILE-SHAPE'], 'file size is served as a string', () => ({ respond: editRecords('file', set('size', (o) => String(o.size))) })),
  fault('cv-hidden-wrong', ['RES-CV-DATA-HIDDEN', 'RES-CV-SHAPE'], 'CV section items carry hidden as a string', () => ({
    respond: editRecords('cv', (o) => {
      const data = { ...(o.data as Rec) };
      for (const [k, v] of Object.entries(data)) if (Array.isArray(v)) data[k] = v.map((item: Rec) => ({ ...item, hidden: 'no' }));
      return { ...o, data };
    }),
  })),
  fault('delete-result-wrong', ['RES-DELETE-RESULT', 'EP-ASSIGNMENTS-DELETE', 'EP-ATTACHMENTS-DELETE'],
    'DELETE answers { deleted: true } instead of { success: true }', () => ({
      respond: editBody(operationsOf('delete'), () => ({ deleted: true })),
    })),
  fault('id-not-uuid', ['RES-ID-UUID', 'ID-PATH-PATTERN'], 'records created through the API get ids like emp_0123abcd', () => ({
    newId: (next) => `rec_${next().replace(/-/g, '').slice(0, 12)}`,
  })),
  fault('id-version-0', ['ID-PATH-PATTERN'], 'records created through the API get UUIDs with version nibble 0', () => ({
    newId: (next) => {
      const id = next();
      return `${id.slice(0, 14)}0${id.slice(15)}`;
    },
  })),
  fault('non-json-content-type', ['GEN-JSON-BODIES'], 'GET /projects/{id} answers with content-type text/plain', () => ({
    respond: (ex, answer) => (ex?.operationId === 'getProject' && !answer.error ? { ...answer, contentType: 'text/plain' } : answer),
  })),
] as const;
