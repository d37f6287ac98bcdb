// Pagination and search in combination, and parameters dropped: a keyset bug that shows only with
// a filter, a direction, a search, one sort field or a long walk; search text ignored, matched as
// a pattern, or dropping the other parameters.
import type { Entry } from '../../reference/store.js';
import type { OperationElement, ParameterElement, SortElement, ViewElement } from './elements.js';
import { asksFor, mine, type Mode, mode } from './mode.js';

/** The requirement of a list filter. */
const filterRequirement = (f: string) =>
  f === 'project_id' ? 'LIST-FILTER-PROJECT-ID' : f === 'employee_id' ? 'LIST-FILTER-EMPLOYEE-ID' : 'LIST-ATTACHMENTS-FOR-ENTITY';

const PARAMETER_REQUIREMENT: Record<string, string> = { limit: 'LIST-LIMIT', cursor: 'LIST-PAGE-WALK', sort: 'LIST-SORT', order: 'LIST-ORDER', q: 'LIST-Q' };

const ownList = (v: ViewElement) => !v.embedded && v.view.kind !== 'get';

export const listModes: Mode[] = [
  mode<'parameter'>({
    category: 'lists',
    mode: 'parameter-ignored',
    kind: 'parameter',
    applies: (p: ParameterElement) => p.op.filters.find((f) => f.name === p.parameter)?.required !== true,
    requirements: (p) => [PARAMETER_REQUIREMENT[p.parameter] ?? filterRequirement(p.parameter)],
    words: (p) => `${p.op.op} ignores ${p.parameter}`,
    hooks: (p) => ({
      handle: (ex, next) => {
        if (mine(p.op.op)(ex) && p.parameter in ex.query) {
          const { [p.parameter]: _dropped, ...rest } = ex.query;
          ex.query = rest;
        }
        return next();
      },
    }),
  }),
  mode<'view'>({
    category: 'lists',
    mode: 'cursor-drops-filter',
    kind: 'view',
    applies: (v) => ownList(v) && (v.view.kind === 'filter' || v.view.kind === 'q' || v.view.kind === 'entity'),
    requirements: (v) => (v.view.kind === 'q' ? ['LIST-Q'] : (v.view.filters ?? []).map(filterRequirement)),
    words: (v) => `${v.name}: the pages after the first lose the ${v.view.kind === 'q' ? 'search' : 'filter'}`,
    hooks: (v) => ({
      list: (ex, plan) =>
        !asksFor(v, ex) || !plan.query.after
          ? plan
          : v.view.kind === 'q'
          ? { ...plan, query: { ...plan.query, q: undefined } }
          : { ...plan, source: { ...plan.source, filters: [] } },
    }),
  }),
  mode<'view'>({
    category: 'lists',
    mode: 'search-drops-filters',
    kind: 'view',
    applies: (v) => ownList(v) && v.view.kind === 'filter',
    requirements: (v) => (v.view.filters ?? []).map(filterRequirement),
    words: (v) => `${v.name} with q searches the whole list, its filters dropped`,
    hooks: (v) => ({
      list: (ex, plan) => {
        if (ex.operationId !== v.op || !plan.query.q) return plan;
        const given = (v.view.filters ?? []).every((f) => typeof ex.query[f] === 'string' && ex.query[f] !== '');
        return given ? { ...plan, source: { ...plan.source, filters: [] } } : plan;
      },
    }),
  }),
  mode<'list'>({
    category: 'lists',
    mode: 'descending-cursor-walks-ascending',
    kind: 'list',
    requirements: () => ['LIST-ORDER', 'LIST-WALK-EVERY-RECORD-ONCE'],
    words: (l) => `${l.op.op} walks ascending after the first page of a descending list`,
    hooks: (l) => ({
      list: (ex, plan) => (mine(l.op.op)(ex) && plan.query.after && plan.query.order === 'desc' ? { ...plan, query: { ...plan.query, order: 'asc' } } : plan),
    }),
  }),
  mode<'sort'>({
    category: 'lists',
    mode: 'keyset-skips-ties',
    kind: 'sort',
    requirements: () => ['LIST-WALK-EVERY-RECORD-ONCE'],
    words: (s) => `${s.op.op} sorted by ${s.sort}: the page after a cursor starts after every record sharing its value (a keyset on the value alone)`,
    hooks: (s) => ({
      list: (ex, plan) => {
        const after = plan.query.after;
        if (!mine(s.op.op)(ex) || plan.query.sort !== s.sort || !after) return plan;
        return { ...plan, query: { ...plan.query, after: { ...after, i: plan.query.order === 'asc' ? '\uffff' : '' } } };
      },
    }),
  }),
  mode<'sort'>({
    category: 'lists',
    mode: 'keyset-nulls-lost',
    kind: 'sort',
    // the stamps the server sets on every record are never without a value
    applies: (s) => !['created_at', 'updated_at'].includes(s.sort),
    requirements: () => ['LIST-WALK-EVERY-RECORD-ONCE'],
    words: (s) => `${s.op.op} sorted by ${s.sort}: records without a value are left out of every page after the first (a keyset comparison with NULL)`,
    hooks: (s) => ({
      page: (ex, page, plan) =>
        mine(s.op.op)(ex) && plan.query.sort === s.sort && plan.query.after
          ? { ...page, items: page.items.filter((e: Entry) => e.row[s.sort] !== null && e.row[s.sort] !== undefined && e.row[s.sort] !== '') }
          : page,
    }),
  }),
  mode<'list'>({
    category: 'lists',
    mode: 'long-walk-skips',
    kind: 'list',
    requirements: () => ['LIST-WALK-EVERY-RECORD-ONCE'],
    words: (l) => `${l.op.op}: from the fourth page on, each page skips its first record (an offset that drifts)`,
    hooks: (l) => ({
      page: (ex, page, plan) => {
        const after = plan.query.after;
        if (!mine(l.op.op)(ex) || !after || page.items.length === 0) return page;
        const at = plan.source.col.sorted(plan.team, plan.query.sort).entries.findIndex((e) => e.row.id === after.i);
        const from = plan.query.order === 'asc' ? at : plan.source.col.sorted(plan.team, plan.query.sort).entries.length - 1 - at;
        return from >= 3 * plan.query.limit - 1 ? { ...page, items: page.items.slice(1) } : page;
      },
    }),
  }),
  mode<'list'>({
    category: 'lists',
    mode: 'search-as-pattern',
    kind: 'list',
    applies: (l: OperationElement) => !l.op.filters.some((f) => f.required),
    requirements: () => ['LIST-Q'],
    words: (l) => `${l.op.op} matches q as a LIKE pattern ("_" any character, "%" any run)`,
    hooks: (l) => ({
      list: (ex, plan) => {
        const q = plan.query.q;
        if (!mine(l.op.op)(ex) || !q || !/[%_]/.test(q)) return plan;
        const re = new RegExp(q.split('').map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join(''), 'i');
        const field = plan.source.searchField;
        const entries = plan.source.col.sorted(plan.team, plan.query.sort).entries.filter((e) => re.test(String(e.row[field] ?? '')));
        return { ...plan, entries, query: { ...plan.query, q: undefined } };
      },
    }),
  }),
  ...(['sort', 'order', 'limit'] as const).map((dropped) =>
    mode<'list'>({
      category: 'lists',
      mode: `search-ignores-${dropped}`,
      kind: 'list',
      applies: (l: OperationElement) => !l.op.filters.some((f) => f.required),
      requirements: () => [PARAMETER_REQUIREMENT[dropped]!],
      words: (l) => `${l.op.op} with q ignores ${dropped}`,
      hooks: (l, ctx) => ({
        list: (ex, plan) => {
          if (!mine(l.op.op)(ex) || !plan.query.q) return plan;
          const sorts = plan.source.sortFields;
          const query = dropped === 'sort'
            ? { ...plan.query, sort: sorts[0]! }
            : dropped === 'order'
            ? { ...plan.query, order: 'asc' as const }
            : { ...plan.query, limit: Number(ctx.readings.value('default-limit')) };
          return { ...plan, query };
        },
      }),
    })
  ),
] satisfies Mode[];

export type { SortElement };
