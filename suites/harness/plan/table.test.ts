// The coverage table (table.ts) covers the whole surface the document shows, and every cell is
// run by a check that exists or says why not: an operation, field or view added to the document
// shows up here as cells nobody decided about, and this test fails until someone does.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { DIMENSIONS } from '../../../contract/check.js';
import type { Settings } from '../../../contract/settings.js';
import { coverageGrid, placeOf } from '../../../reports/coverage-grid.js';
import { buildCoverage } from '../../../reports/coverage.js';
import { allFields, type Operation, operations, PLACEHOLDER_PATHS, viewsOf } from '../../../specs/surface.js';
import { collectChecks } from '../check.js';
import { cellId, type CellPlan } from './cells.js';
import { extensionPathsOf, servedOperations } from './operations.js';
import { coverageTable, listViews, orderName, ORDERS, sortName, sortsOf } from './table.js';

const suitesDir = fileURLToPath(new URL('../..', import.meta.url));
const prefixed = (p: string) => ({ method: 'GET', path: `/api/public/v1${p}` });

/** Settings of a target that configures every path §4 does not show, the mock's sort fields and scratch projects. */
const everything: Pick<Settings, 'paths' | 'sortFields' | 'scratchProjects'> = {
  paths: {
    organizationCreate: { method: 'POST', path: '/api/public/v1/organizations' },
    attachmentDownload: prefixed(PLACEHOLDER_PATHS.attachmentDownload),
    fileDelete: { method: 'DELETE', path: `/api/public/v1${PLACEHOLDER_PATHS.fileDelete}` },
    captureIntake: { method: 'POST', path: `/api/public/v1${PLACEHOLDER_PATHS.captureIntake}` },
    openapi: prefixed(PLACEHOLDER_PATHS.openapi),
  },
  sortFields: { projects: ['created_at', 'title'], organizations: ['name'], assignments: ['updated_at'], cvs: ['name'] },
  scratchProjects: ['00000000-0000-4000-8000-000000000001'],
};
/** ... and one that configures nothing beyond the keys. */
const bare: typeof everything = { paths: { organizationCreate: everything.paths.organizationCreate }, sortFields: {}, scratchProjects: [] };

const ops = servedOperations(everything);
const table = coverageTable(ops, everything);
const mutating = ops.filter((o) => o.method !== 'get');
const has = (t: readonly CellPlan[], dimension: string, subject: string, aspect: (a: string) => boolean) =>
  t.some((c) => c.dimension === dimension && c.subject === subject && aspect(c.aspect));

describe('the coverage table covers the surface', () => {
  test("the served operations are the document's and the extensions' at the paths the settings give", () => {
    expect(extensionPathsOf(everything.paths)).toEqual(PLACEHOLDER_PATHS);
    expect(ops.map((o) => o.op)).toEqual(operations().map((o) => o.op));
    expect(servedOperations(bare).some((o) => o.op === 'deleteFile')).toBe(false);
  });

  test('every request field of every mutating operation, each kind of value', () => {
    const missing = mutating.flatMap((o) =>
      allFields(o.fields).flatMap((f) =>
        (f.references ? ['reference missing', ...f.references.map((r) => `reference other team ${r}`)] : ['filled']).concat('null', 'wrong type')
          .filter((aspect) => !has(table, 'fields', o.op, (a) => a === `${f.path} ${aspect}`))
          .map((aspect) => `${o.op} ${f.path} ${aspect}`)
      )
    );
    expect(missing).toEqual([]);
  });

  test('every listed value of a field, and every optional field left out of a create', () => {
    const missing = mutating.flatMap((o) =>
      allFields(o.fields).flatMap((f) => [
        ...[...(f.enum ?? []), ...(f.examples ?? [])].filter((v) => !has(table, 'fields', o.op, (a) => a === `${f.path} value ${v}`)).map((v) =>
          `${o.op} ${f.path}=${v}`
        ),
        ...(o.kind === 'create' && !f.required && !f.path.includes('[]') && !has(table, 'fields', o.op, (a) => a === `${f.path} omitted`)
          ? [`${o.op} ${f.path} omitted`]
          : []),
      ])
    );
    expect(missing).toEqual([]);
  });

  test("every mutating operation: each refusal, each view of its resource, a retry with its key and with the other team's", () => {
    const missing = mutating.flatMap((o) => [
      ...['cross-team', 'read-only', 'no-key', 'invalid-body', 'reused-key'].filter((r) => !has(table, 'refusals', o.op, (a) => a === r)).map((r) =>
        `${o.op} ${r}`
      ),
      ...viewsOf(o.resource, ops).filter((v) => !has(table, 'views', o.op, (a) => a === v.name)).map((v) => `${o.op} ${v.name}`),
      ...['same key', 'other team key'].filter((k) => !has(table, 'retries', o.op, (a) => a === k)).map((k) => `${o.op} ${k}`),
    ]);
    expect(missing).toEqual([]);
  });

  test('every list and filter in every sort and order; every cursor source with what it may be used with', () => {
    const missing = listViews(ops).flatMap((v) => {
      const op = ops.find((o) => o.op === v.op)!;
      return sortsOf(everything, op).flatMap((s) => ORDERS.map((o) => `sort=${sortName(s)} order=${orderName(o)}`)).filter((a) =>
        !has(table, 'walks', v.name, (x) => x === a)
      )
        .map((a) => `${v.name} ${a}`);
    });
    expect(missing).toEqual([]);
    expect(table.filter((c) => c.dimension === 'cursors').length).toBeGreaterThan(20);
  });
});

describe('every cell is run by a check, or says why not', () => {
  const files = readdirSync(suitesDir).filter((f) => f.endsWith('.check.ts')).map((f) => join(suitesDir, f));

  test.each([['every path and sort configured', everything], ['nothing configured', bare]] as const)('%s: no cell is left undecided', (_name, settings) => {
    const undecided = coverageTable(servedOperations(settings), settings).filter((c) => !c.check || (c.reason && !c.reason.text));
    expect(undecided.map(cellId)).toEqual([]);
  });

  test('each cell names a check the suites register, under that title', async () => {
    const registered = new Set((await collectChecks(files)).map((d) => d.name.replace(/ \[[A-Z0-9, -]+\]$/, '')));
    const unknown = [...new Set(table.map((c) => c.check!))].filter((t) => !registered.has(t));
    expect(unknown).toEqual([]);
  }, 60_000);

  test('an operation added to the document shows up as cells nobody decided about', () => {
    const added: Operation = {
      op: 'updateContact',
      method: 'patch',
      path: '/contacts/{id}',
      kind: 'patch',
      resource: 'contacts',
      shown: true,
      body: 'employee-patch',
      multipart: false,
      fields: [{ name: 'nickname', path: 'nickname', types: ['string'], nullable: false, required: false }],
      filters: [],
    };
    const grown = coverageTable([...ops, added], everything).filter((c) => c.subject === 'updateContact');
    // its fields are run by a check registered per operation of the document: none exists for it yet
    expect(grown.some((c) => c.dimension === 'fields' && c.aspect === 'nickname null')).toBe(true);
    // its refusals have no row of the refusal table and no reason: undecided
    expect(grown.filter((c) => c.dimension === 'refusals' && !c.check && !c.reason).map((c) => c.aspect)).toEqual([
      'cross-team',
      'read-only',
      'no-key',
      'invalid-body',
      'reused-key',
    ]);
  });
});

describe("the report's layout of the table (reports/coverage-grid.ts)", () => {
  const grid = coverageGrid(buildCoverage(table, [], { narrowed: false }));

  test("a field, a sort or a cursor's source goes to the row of every cell of its table", () => {
    const unsplit = table.filter((c) => ['fields', 'walks', 'cursors'].includes(c.dimension) && placeOf(c.dimension, c.aspect).part === '');
    expect(unsplit.map(cellId)).toEqual([]);
  });

  test('every table stays a few columns wide, and holds every cell once', () => {
    expect(grid.map((t) => t.name)).toEqual([...DIMENSIONS]);
    const widths = Object.fromEntries(grid.map((t) => [t.name, t.columns.length]));
    for (const [name, width] of Object.entries(widths)) expect(width, `${name}: ${JSON.stringify(widths)}`).toBeLessThanOrEqual(24);
    const placed = grid.flatMap((t) => t.rows.flatMap((r) => r.cells.flat())).sort((a, b) => a - b);
    expect(placed).toEqual(table.map((_, i) => i));
  });
});
