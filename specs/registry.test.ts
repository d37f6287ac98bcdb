// The registry says what the operation table and the schemas say of each resource, and its rows
// name exactly the collections the document has: one added to either side without the other fails.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { collectionOfOperation, COLLECTIONS, registry, resource, RESOURCE_ROWS } from './registry.js';
import { operations } from './surface.js';

describe('the resource registry', () => {
  test('its rows are the collections the operations act on and the references name, no more', () => {
    const ops = operations();
    const acted = ops.flatMap((o) => collectionOfOperation(o) ?? []);
    const named = ops.flatMap((o) => [...o.fields, ...o.filters].flatMap((f) => f.references ?? []));
    expect(new Set(COLLECTIONS)).toEqual(new Set([...acted, ...named]));
    // every operation but the description's belongs to one collection
    expect(ops.filter((o) => !collectionOfOperation(o)).map((o) => o.op)).toEqual(['getOpenApi']);
  });

  test('each resource: schemas, operations by role, scopes, filters, references, embeddings and views', () => {
    expect(resource('projects')).toMatchObject({ kind: 'project', record: 'project', legacy: 'project-legacy', page: 'ProjectPage', pageable: true });
    expect(Object.keys(resource('projects').operations)).toEqual(['list', 'get', 'patch']);
    expect(Object.keys(resource('assignments').operations)).toEqual(['list', 'get', 'create', 'patch', 'delete']);
    expect(Object.keys(resource('attachments').operations)).toEqual(['upload', 'list', 'delete', 'download']);
    expect(Object.keys(resource('captures').operations)).toEqual(['intake']);
    expect(resource('contacts').operations).toEqual({});
    expect(resource('files').scopes).toEqual({ read: 'files:read', write: 'files:write' });
    expect(resource('attachments')).toMatchObject({ pageable: false, sort: RESOURCE_ROWS.attachments.sort });
    expect(resource('assignments').filters.map((f) => f.name)).toEqual(['project_id', 'employee_id']);
    expect(resource('assignments').references.filter((r) => !r.filter).map((r) => `${r.op}.${r.field}->${r.to.join()}`)).toEqual([
      'createAssignment.employee_id->employees',
      'createAssignment.project_id->projects',
      'updateAssignment.employee_id->employees',
      'updateAssignment.project_id->projects',
    ]);
    expect(resource('employees').embeddedIn).toEqual([{ parent: 'assignments', property: 'employee' }]);
    expect(resource('employees').views.map((v) => v.name)).toContain('employee embedded in GET /assignments/{id}');
    expect(registry().filter((r) => r.pageable).map((r) => r.collection)).toEqual(['projects', 'assignments', 'organizations', 'cvs']);
  });
});

describe('the registry is the one list of resources', () => {
  // Modules (tests and generated types aside) that spell out four or more collections as string
  // literals: each is a hand-typed list of resources the registry should give instead.
  test('at most two modules outside the registry name four or more collections', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const files = execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' }).split('\n').filter((f) =>
      f && !f.endsWith('.test.ts') && !f.startsWith('fixtures/') && f !== 'specs/types.ts' && !f.startsWith('specs/registry')
    );
    const listing = files.flatMap((f) => {
      const text = readFileSync(join(root, f), 'utf8');
      const named = COLLECTIONS.filter((c) => new RegExp(`(['"\`])${c}\\1`).test(text));
      return named.length >= 4 ? [`${f}: ${named.join(' ')}`] : [];
    });
    expect(listing.length, listing.join('\n')).toBeLessThanOrEqual(2);
  });
});
