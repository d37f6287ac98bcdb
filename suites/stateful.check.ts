// Model-based runs over what §4 offers: random sequences of creates, patches, reads, lists and
// deletes; after every step the target agrees with a model (what was deleted is gone, what was
// patched reads back, lists agree).
import fc from 'fast-check';
import type { Rec } from '../contract/json.js';
import { assignmentPatch, employeePatch } from '../specs/arbitraries.js';
import { ensure, expectStatus } from './harness/assert.js';
import { check, type CheckContext } from './harness/check.js';
import { expectResource } from './harness/problems.js';
import { property } from './harness/property.js';
import { aProject, createAssignment, createEmployee, createOrganization, testFile, uploadFile } from './harness/records.js';
import { disagreements, newestFirst } from './harness/views.js';
import { lists, walk, walkWithin } from './harness/walk.js';

interface Model {
  employees: string[];
  assignments: Map<string, { role: unknown; employee_id: string; }>;
  orgs: Map<string, unknown>;
  files: Set<string>;
}
interface Real {
  c: CheckContext;
  project: Rec;
}
type Cmd = fc.AsyncCommand<Model, Real>;

const pick = <T>(items: T[], n: number) => items[n % items.length]!;

class CreateEmployee implements Cmd {
  constructor(readonly body: Rec) {}
  check = () => true;
  async run(m: Model, r: Real) {
    m.employees.push(String((await createEmployee(r.c, this.body)).id));
  }
  toString = () => `createEmployee(${JSON.stringify(this.body)})`;
}

class PatchEmployee implements Cmd {
  constructor(readonly n: number, readonly body: Rec) {}
  check = (m: Readonly<Model>) => m.employees.length > 0;
  async run(m: Model, r: Real) {
    const res = await r.c.api.send({ method: 'PATCH', path: `/employees/${pick(m.employees, this.n)}`, json: this.body });
    expectStatus(res, '2xx', 'PATCH /employees/{id}');
    const e = expectResource(res, 'employee', { reads: Object.keys(this.body) });
    // Compared as every view is (keys in any order, dates as instants); a field the answer leaves out is a reading (RES-INHERENT-FIELDS).
    for (const k of Object.keys(this.body).filter((f) => !(f in e))) r.c.reading('fields.absent.employee', k);
    const wrong = disagreements(this.body, e);
    ensure(wrong.length === 0, `PATCH /employees answered ${wrong.map((k) => `${k}=${JSON.stringify(e[k])}, sent ${JSON.stringify(this.body[k])}`).join('; ')}`,
      res);
  }
  toString = () => `patchEmployee(${this.n}, ${JSON.stringify(this.body)})`;
}

class CreateAssignment implements Cmd {
  constructor(readonly n: number, readonly role: string) {}
  check = (m: Readonly<Model>) => m.employees.length > 0;
  async run(m: Model, r: Real) {
    const employee_id = pick(m.employees, this.n);
    const a = await createAssignment(r.c, { employee_id, project_id: r.project.id, role: this.role });
    m.assignments.set(String(a.id), { role: this.role, employee_id });
  }
  toString = () => `createAssignment(${this.n}, ${JSON.stringify(this.role)})`;
}

class PatchAssignment implements Cmd {
  constructor(readonly n: number, readonly body: Rec) {}
  check = (m: Readonly<Model>) => m.assignments.size > 0;
  async run(m: Model, r: Real) {
    const id = pick([...m.assignments.keys()], this.n);
    const res = await r.c.api.send({ method: 'PATCH', path: `/assignments/${id}`, json: this.body });
    expectStatus(res, '2xx', 'PATCH /assignments/{id}');
    if ('role' in this.body) m.assignments.get(id)!.role = this.body.role;
    const read = await r.c.api.send({ method: 'GET', path: `/assignments/${id}` });
    const a = expectResource(read, 'assignment', { reads: Object.keys(this.body) });
    for (const k of Object.keys(this.body).filter((f) => !(f in a))) r.c.reading('fields.absent.assignment', k);
    const wrong = disagreements(this.body, a);
    ensure(wrong.length === 0, `after PATCH, ${wrong.map((k) => `${k} reads ${JSON.stringify(a[k])}, sent ${JSON.stringify(this.body[k])}`).join('; ')}`, read);
  }
  toString = () => `patchAssignment(${this.n}, ${JSON.stringify(this.body)})`;
}

/** Deletes a record, forgets it in the model and the cleanup ledger, and checks a GET now answers 404. */
async function deleteAndConfirmGone(r: Real, id: string, del: { method: string; path: string; }, getPath: string, what: string, forget: () => void) {
  expectStatus(await r.c.api.send(del), '2xx', `delete of a ${what}`);
  forget();
  r.c.ledger.gone(id);
  expectStatus(await r.c.api.send({ method: 'GET', path: getPath }), 404, `GET of a deleted ${what}`);
}

class DeleteAssignment implements Cmd {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.assignments.size > 0;
  async run(m: Model, r: Real) {
    const id = pick([...m.assignments.keys()], this.n);
    await deleteAndConfirmGone(r, id, { method: 'DELETE', path: `/assignments/${id}` }, `/assignments/${id}`, 'assignment', () => m.assignments.delete(id));
  }
  toString = () => `deleteAssignment(${this.n})`;
}

class ListAssignments implements Cmd {
  check = (m: Readonly<Model>) => m.employees.length > 0;
  async run(m: Model, r: Real) {
    for (const employee of m.employees) {
      const w = await walk(r.c, { ...lists.assignments, query: { employee_id: employee } }, { limit: 2 });
      const expected = [...m.assignments].filter(([, a]) => a.employee_id === employee);
      ensure(w.items.length === expected.length, `GET /assignments?employee_id= lists ${w.items.length}, the model ${expected.length}`, w.last);
      for (const [id, a] of expected) {
        const got = w.items.find((i) => i.id === id);
        ensure(got && got.role === a.role, `assignment ${id} is missing from the list or has another role`, w.last);
      }
    }
  }
  toString = () => 'listAssignments()';
}

class CreateOrganization implements Cmd {
  constructor(readonly notes: string) {}
  check = () => true;
  async run(m: Model, r: Real) {
    m.orgs.set(String((await createOrganization(r.c, { notes: this.notes })).id), this.notes);
  }
  toString = () => `createOrganization(${JSON.stringify(this.notes)})`;
}

class PatchOrganization implements Cmd {
  constructor(readonly n: number, readonly notes: string) {}
  check = (m: Readonly<Model>) => m.orgs.size > 0;
  async run(m: Model, r: Real) {
    const id = pick([...m.orgs.keys()], this.n);
    expectStatus(await r.c.api.send({ method: 'PATCH', path: `/organizations/${id}`, json: { notes: this.notes } }), '2xx', 'PATCH /organizations/{id}');
    m.orgs.set(id, this.notes);
  }
  toString = () => `patchOrganization(${this.n}, ${JSON.stringify(this.notes)})`;
}

class ListOrganizations implements Cmd {
  check = (m: Readonly<Model>) => m.orgs.size > 0;
  async run(m: Model, r: Real) {
    // newest first, the model's organizations (all made by this run) are on the first page
    const spec = newestFirst(r.c, lists.organizations);
    const w = await walkWithin(r.c, spec, { limit: 100, ...(spec === lists.organizations ? {} : { maxPages: 1 }) });
    for (const [id, notes] of m.orgs) {
      const got = w.items.find((i) => i.id === id);
      if (!got && !w.complete) continue; // beyond the page budget of a large deployment
      ensure(got, `organization ${id} is missing from GET /organizations`, w.last);
      ensure(got.notes === notes, `organization ${id} lists notes ${JSON.stringify(got.notes)}, the model ${JSON.stringify(notes)}`, w.last);
    }
  }
  toString = () => 'listOrganizations()';
}

class UploadFile implements Cmd {
  constructor(readonly size: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await uploadFile(r.c, testFile(r.c, this.size));
    expectStatus(res, '2xx', 'POST /files');
    m.files.add(String(expectResource(res, 'file').id));
  }
  toString = () => `uploadFile(${this.size})`;
}

class DeleteFile implements Cmd {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.files.size > 0;
  async run(m: Model, r: Real) {
    const id = pick([...m.files], this.n);
    const e = r.c.settings.paths.fileDelete!;
    await deleteAndConfirmGone(r, id, { method: e.method, path: e.path.replace('{id}', id) }, `/files/${id}`, 'file', () => m.files.delete(id));
  }
  toString = () => `deleteFile(${this.n})`;
}

class GetFiles implements Cmd {
  check = (m: Readonly<Model>) => m.files.size > 0;
  async run(m: Model, r: Real) {
    for (const id of m.files) {
      ensure(expectResource(await r.c.api.send({ method: 'GET', path: `/files/${id}` }), 'file').id === id, `GET /files/${id} answered another file`);
    }
  }
  toString = () => 'getFiles()';
}

check([
  'EP-PATCH-PERSISTS',
  'EP-DELETE-GONE',
  'LIST-FILTER-EMPLOYEE-ID',
  'EP-ASSIGNMENTS-GET',
  'EP-FILES-GET',
  'EP-ORGANIZATIONS-PATCH',
  'STATE-EMPLOYEE-IS-ACTIVE',
], 'model-based: random sequences of creates, patches, reads, lists and deletes agree with a model', async (c) => {
  const project = await aProject(c);
  const text = fc.string({ minLength: 1, maxLength: 12 }).map((s) => `conformance ${s}`);
  const commands = [
    fc.record({ last_name: fc.string({ maxLength: 10 }) }).map((b) => new CreateEmployee(b)),
    fc.tuple(fc.nat(), employeePatch.filter((b) => Object.keys(b).length > 0)).map(([n, b]) => new PatchEmployee(n, b)),
    fc.tuple(fc.nat(), text).map(([n, role]) => new CreateAssignment(n, role)),
    fc.tuple(fc.nat(), assignmentPatch.filter((b) => Object.keys(b).length > 0)).map(([n, b]) => new PatchAssignment(n, b)),
    fc.nat().map((n) => new DeleteAssignment(n)),
    fc.constant(new ListAssignments()),
    text.map((t) => new CreateOrganization(t)),
    fc.tuple(fc.nat(), text).map(([n, t]) => new PatchOrganization(n, t)),
    fc.constant(new ListOrganizations()),
    fc.integer({ min: 1, max: 4096 }).map((s) => new UploadFile(s)),
    fc.constant(new GetFiles()),
    ...(c.settings.paths.fileDelete ? [fc.nat().map((n) => new DeleteFile(n))] : []),
  ];
  await property(fc.commands(commands, { maxCommands: 25, size: 'max' }), async (cmds) => {
    const model: Model = { employees: [], assignments: new Map(), orgs: new Map(), files: new Set() };
    await fc.asyncModelRun(() => ({ model, real: { c, project } }), cmds);
  }, { numRuns: c.settings.statefulRuns, timeLimitMs: 60_000 });
}, { mutates: true, timeout: 180_000 });
