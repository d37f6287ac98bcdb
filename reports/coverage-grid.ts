import type { Dimension } from '../contract/check.js';
import type { CoverageCounts, ReportCoverage } from './types.js';

// How index.html lays out each table of the coverage: rows are subjects (an operation, a list
// view), columns aspects. Where a table's aspects name two things — a field and the kind of value
// sent, a sort and an order, where a cursor came from and what it is used with — the first goes to
// the row, so the table stays a few columns wide however many fields, sorts and views the target
// has. An aspect of another form keeps a column of its own. The grid holds indices into the
// report's cells: the page reads everything else (outcome, reason, check) from them.

export interface GridRow {
  subject: string;
  /** The part of the aspects that goes to the row (a field, a sort, a cursor's source); empty when none does. */
  part: string;
  /** Per column, the indices of its cells in `coverage.cells` (several: a field's listed values, its references). */
  cells: number[][];
}

export interface GridTable {
  name: string;
  counts: CoverageCounts;
  columns: string[];
  rows: GridRow[];
}

interface Place {
  part: string;
  column: string;
}

const whole = (aspect: string): Place => ({ part: '', column: aspect });

/** Each table's split of its aspects (suites/harness/table.ts writes them); an aspect of another form keeps its own column. */
const LAYOUT: Record<Dimension, (aspect: string) => Place> = {
  // `title null`, `tags[] value x`, `project_id reference other team projects`: the field, then the kind of value (listed values and references of one kind share a column)
  fields: (aspect) => {
    const m = /^(\S+) (.+)$/.exec(aspect);
    if (!m) return whole(aspect);
    const kind = m[2]!.replace(/^value .*/s, 'value').replace(/^reference (own|other team) .*/s, 'reference $1');
    return { part: m[1]!, column: kind };
  },
  refusals: whole,
  views: whole,
  retries: whole,
  // `sort=title order=desc`, `ties on title`
  walks: (aspect) => {
    const order = /^(sort=\S+) (order=\S+)$/.exec(aspect);
    if (order) return { part: order[1]!, column: order[2]! };
    const ties = /^ties on (\S+)$/.exec(aspect);
    return ties ? { part: `sort=${ties[1]}`, column: 'ties' } : whole(aspect);
  },
  // `from sort=a order=b to sort=c order=d`
  cursors: (aspect) => {
    const m = /^(from .+) (to .+)$/.exec(aspect);
    return m ? { part: m[1]!, column: m[2]! } : whole(aspect);
  },
};

export const placeOf = (dimension: string, aspect: string): Place => (LAYOUT[dimension as Dimension] ?? whole)(aspect);

/** The coverage as one grid per table, rows and columns in the order the table plans them. */
export function coverageGrid(coverage: ReportCoverage): GridTable[] {
  return coverage.dimensions.map(({ name, counts }) => {
    const columns: string[] = [];
    const rows = new Map<string, { subject: string; part: string; cells: Map<string, number[]>; }>();
    coverage.cells.forEach((cell, i) => {
      if (cell.dimension !== name) return;
      const { part, column } = placeOf(name, cell.aspect);
      if (!columns.includes(column)) columns.push(column);
      const key = `${cell.subject}\u0000${part}`;
      let row = rows.get(key);
      if (!row) rows.set(key, row = { subject: cell.subject, part, cells: new Map() });
      row.cells.set(column, [...(row.cells.get(column) ?? []), i]);
    });
    return {
      name,
      counts,
      columns,
      rows: [...rows.values()].map((r) => ({ subject: r.subject, part: r.part, cells: columns.map((c) => r.cells.get(c) ?? []) })),
    };
  });
}
