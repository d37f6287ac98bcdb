// Serialized list pages, kept per team and URL while they are still what the reference's list
// pipeline (mock/reference/lists.ts) would build: every list route is wrapped (cachedLists) to look
// its page up here before building it, inside the framework and before it (direct-reads.ts) alike.
//
// A page is kept from the second time it is built while still current: most pages of a
// changing collection change before anyone asks for them again, and holding them cost more
// (measured under a mix of reads and writes: more CPU per request than with no cache at
// all, for a hit rate under 15%) than the hits saved. The cache is bounded by entries and
// by body bytes (PageCacheOptions); the oldest pages go first. A page that could never fit
// is not kept.
import type { PageBasis } from '../reference/exchange.js';
import type { RouteDef, RouteTable } from '../reference/pipeline.js';
import type { TeamId } from '../reference/store.js';

export interface CachedPage {
  body: Buffer;
  /** Whether the page is still what the pipeline answers (nothing it shows or depends on changed). */
  current(): boolean;
}

export interface PageCacheOptions {
  /** Most pages kept (and most pages remembered as built once); default 2000. */
  maxEntries?: number;
  /** Most body bytes kept; default 16 MiB (a page of 100 projects is about 140 KB). */
  maxBytes?: number;
  /** Keep a page only from its second build while current; default true. */
  admitOnRepeat?: boolean;
}

export const PAGE_CACHE_DEFAULTS: Required<PageCacheOptions> = { maxEntries: 2000, maxBytes: 16 * 1024 * 1024, admitOnRepeat: true };

export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  /** Pages built once, remembered by whether they are still current, without their bytes. */
  private readonly builtOnce = new Map<string, CachedPage['current']>();
  private readonly limits: Required<PageCacheOptions>;
  private bytes = 0;

  constructor(options: PageCacheOptions = {}) {
    this.limits = { ...PAGE_CACHE_DEFAULTS, ...options };
  }

  /** Pages and body bytes held now. */
  get size(): { entries: number; bytes: number; } {
    return { entries: this.pages.size, bytes: this.bytes };
  }

  /** The page of `team` for `url`, if it is still current. */
  get(team: TeamId, url: string): CachedPage | undefined {
    const key = `${team} ${url}`;
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (page.current()) return page;
    this.drop(key, page);
    return undefined;
  }

  /** Offers a page just built; it is kept, as a copy (the body may be an arena's), if it was built before and that build is still current. */
  set(team: TeamId, url: string, page: CachedPage): void {
    const key = `${team} ${url}`;
    if (this.limits.admitOnRepeat) {
      const before = this.builtOnce.get(key);
      if (!before?.()) {
        if (this.builtOnce.size >= this.limits.maxEntries) this.builtOnce.clear();
        this.builtOnce.set(key, page.current);
        return;
      }
      this.builtOnce.delete(key);
    }
    const previous = this.pages.get(key);
    if (previous) this.drop(key, previous);
    const size = page.body.length;
    if (size > this.limits.maxBytes) return;
    // Map order is insertion order: the first keys are the oldest pages.
    for (const [oldKey, old] of this.pages) {
      if (this.pages.size < this.limits.maxEntries && this.bytes + size <= this.limits.maxBytes) break;
      this.drop(oldKey, old);
    }
    this.pages.set(key, { body: Buffer.from(page.body), current: page.current });
    this.bytes += size;
  }

  private drop(key: string, page: CachedPage): void {
    this.pages.delete(key);
    this.bytes -= page.body.length;
  }
}

/**
 * Whether a page is still the answer: no entry it shows was replaced or removed, no entry was
 * added or removed and no value of a field it is ordered, filtered or searched by changed, and the
 * collections its items embed are unchanged.
 */
export function stillCurrent(basis: PageBasis): CachedPage['current'] {
  const [col, ...deps] = basis.collections;
  const { team, items, fields, opaque } = basis;
  const stamp = col!.orderStamp(team, fields);
  const version = col!.version(team);
  const depVersions = deps.map((d) => d.version(team));
  return () =>
    (opaque ? col!.version(team) === version : col!.orderStamp(team, fields) === stamp)
    && deps.every((d, i) => d.version(team) === depVersions[i])
    && items.every((e) => e.superseded !== true);
}

/** The route table with every list route answering from `cache` while its page is current. */
export function cachedLists(table: RouteTable, cache: PageCache): RouteTable {
  const routes = table.routes.map((r): RouteDef => {
    if (r.kind !== 'read') return r;
    const handler = r.handler;
    return {
      ...r,
      handler: (ctx, ex) => {
        const team = ex.principal.team;
        const hit = cache.get(team, ex.url);
        if (hit) return { status: 200, json: hit.body };
        const result = handler(ctx, ex);
        if (result.page && result.status === 200) cache.set(team, ex.url, { body: result.json as Buffer, current: stillCurrent(result.page) });
        return result;
      },
    };
  });
  return { ...table, routes };
}
