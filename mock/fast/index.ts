// The fast layer over the reference's routes: list pages kept while they are current (page-cache.ts)
// and plain reads answered before the framework (direct-reads.ts), in memory reused from page to
// page (page-arena.ts). The reference does not depend on it; direct-reads.test.ts holds its answers
// to the reference's.
import type { Front } from '../reference/app.js';
import type { AppContext } from '../reference/context.js';
import type { RouteTable } from '../reference/pipeline.js';
import { DirectReads } from './direct-reads.js';
import { cachedLists, PageCache, type PageCacheOptions } from './page-cache.js';

export interface FastLayer {
  /** The routes with every list answering from the page cache while its page is current. */
  table: RouteTable;
  /** Answers plain reads before the framework. */
  front: Front;
}

export function fastLayer(ctx: AppContext, table: RouteTable, options: PageCacheOptions = {}): FastLayer {
  const pages = new PageCache(options);
  const cached = cachedLists(table, pages);
  const direct = new DirectReads(ctx, cached, pages);
  return { table: cached, front: (req, res) => direct.answer(req, res) };
}
