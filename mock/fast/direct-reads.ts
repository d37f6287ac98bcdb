// Reads answered on the node:http server before the framework. Most of what a client sends is
// a GET of a list page or of a record; fastify's routing, hooks and reply cost more than the
// read itself. A plain GET of a read route (mock/reference/pipeline.ts ReadRoute) runs the
// route's own handler here and is answered with the bytes and headers fastify would send. Anything else goes to the framework untouched: another method, a body, a path or query
// this matcher does not take as is (percent-encoding, `+`, repeated or valueless parameters,
// a trailing slash), a key that is missing, unknown or lacks the scope, and any error the
// handler throws. Read handlers change nothing, so running one again there is harmless. Only a
// mock whose reference has no hooks takes this path (mock/index.ts).
// direct-reads.test.ts holds every answer given here to the framework's answer.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isPathId } from '../../specs/index.js';
import type { AppContext } from '../reference/context.js';
import { operationHeaders } from '../reference/deprecation.js';
import type { Exchange, Result } from '../reference/exchange.js';
import { answerRead, JSON_TYPE, type ReadRoute, type RouteTable } from '../reference/pipeline.js';
import { PageArena } from './page-arena.js';
import type { PageCache } from './page-cache.js';

/** A query this matcher takes as fastify would parse it: `name=value` pairs of unreserved characters. */
const PLAIN_PAIR = /^[A-Za-z0-9._~-]+=[A-Za-z0-9._~-]*$/;

export class DirectReads {
  /** Routes without a path id, by full path. */
  private readonly exact = new Map<string, ReadRoute>();
  /** Routes ending in `/{id}`, by full path without it. */
  private readonly byId = new Map<string, ReadRoute>();
  private readonly arena = new PageArena();

  constructor(
    private readonly ctx: AppContext,
    table: RouteTable,
    private readonly pages: PageCache,
  ) {
    for (const r of table.routes) {
      if (r.kind !== 'read') continue;
      const path = table.basePath + r.path;
      if (path.endsWith('/{id}')) this.byId.set(path.slice(0, -'/{id}'.length), r);
      else if (!path.includes('{')) this.exact.set(path, r);
    }
  }

  /** Answers a plain read and says so; false leaves the request to the framework. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined) return false;
    const h = req.headers;
    if (h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0')) return false;
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    let route = this.exact.get(path);
    let params: Exchange['params'] = {};
    if (!route) {
      const slash = path.lastIndexOf('/');
      const id = path.slice(slash + 1);
      route = this.byId.get(path.slice(0, slash));
      if (!route || !isPathId(id)) return false;
      params = { id };
    }
    const principal = this.ctx.auth.principalOf(h.authorization);
    if (!principal?.apiAccess || (route.scope !== undefined && !principal.scopes.has(route.scope))) return false;
    // A kept page is what the list's handler answers for this team and URL (page-cache.ts).
    const kept = this.pages.get(principal.team, url);
    const taken = this.arena.mark();
    let result: Result | undefined = kept && { status: 200, json: kept.body };
    if (!result) {
      const query = plainQuery(mark < 0 ? '' : url.slice(mark + 1));
      if (!query) return false;
      try {
        const ex: Exchange = {
          operationId: route.operationId,
          method: 'GET',
          url,
          headers: h,
          principal,
          scope: route.scope,
          params,
          query,
          body: {},
          buffers: this.arena,
        };
        result = answerRead(this.ctx, route, ex);
      } catch {
        return false;
      }
    }
    const headers: OutgoingHttpHeaders = {
      'content-type': result.contentType ?? JSON_TYPE,
      'content-length': Buffer.byteLength(result.json),
      ...result.headers,
    };
    for (const [k, v] of operationHeaders(this.ctx, route.operationId)) headers[k] = v;
    res.writeHead(result.status, headers);
    res.end(result.json);
    // Once the kernel has every byte, the page's memory serves the next page; bytes node still holds stay.
    if (res.writableLength === 0) this.arena.rewind(taken);
    return true;
  }
}

/**
 * A query object without Object.prototype, as fastify's parser makes it: a constructor whose
 * prototype has none, since Object.create(null) gives a slower dictionary-mode object.
 */
const Query = function Query() {} as unknown as { new(): Record<string, string>; };
Query.prototype = Object.create(null);

/** The query as fastify's parser gives it, when every pair is plain and no name repeats; otherwise undefined. */
function plainQuery(text: string): Record<string, string> | undefined {
  const query = new Query();
  if (text === '') return query;
  for (const pair of text.split('&')) {
    if (!PLAIN_PAIR.test(pair)) return undefined;
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    if (name in query) return undefined;
    query[name] = pair.slice(eq + 1);
  }
  return query;
}
