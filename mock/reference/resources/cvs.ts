// CVs (§4): the list, filtered by employee_id.
import { filtersOf, listPage, SORT_FIELDS } from '../lists.js';
import type { RouteHandler } from '../pipeline.js';

export const cvRoutes: RouteHandler[] = [
  {
    operationId: 'listCvs',
    scope: 'cvs:read',
    kind: 'read',
    handler: (ctx, ex) =>
      listPage(ctx, ex, {
        col: ctx.store.collections.cvs,
        sortFields: SORT_FIELDS.cvs,
        searchField: 'name',
        filters: filtersOf(ex.query, ['employee_id']),
        view: (e) => ctx.render.cv(e),
      }),
  },
];
