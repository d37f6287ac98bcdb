// Reads answered on the node:http server before the framework. Most of what a client sends is
// a GET of a list page or of a record; fastify's routing, hooks and reply cost more than the
// read itself. Without an active fault, a plain GET of a read route (mock/route.ts ReadRoute)
// runs the route's own handler here and is answered with the bytes and headers fastify would
// send. Anything else goes to the framework untouched: another method, a body, a path or query
// this matcher does not take as is (percent-encoding, `+`, repeated or valueless parameters,
// a trailing slash), a key that is missing, unknown or lacks the scope, and any error the
// handler throws. Read handlers change nothing, so running one again there is harmless.
// mock/direct-reads.test.ts holds every answer given here to the framework's answer.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isPathId } from '../specs/index.js';
import type { AppContext } from './context.js';
import { operationHeaders } from './deprecation.js';
import type { ReadInput, Result } from './exchange.js';
import { PageArena } from './page-arena.js';
import { JSON_TYPE, type ReadRoute, type RouteDef } from './route.js';

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
    routes: readonly RouteDef[],
  ) {
    for (const r of routes) {
      if (r.kind !== 'read') continue;
      const path = ctx.basePath + r.path;
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
    let params: ReadInput['params'] = {};
    if (!route) {
      const slash = path.lastIndexOf('/');
      const id = path.slice(slash + 1);
      route = this.byId.get(path.slice(0, slash));
      if (!route || !isPathId(id)) return false;
      params = { id };
    }
    const principal = this.ctx.auth.principalOf(h.authorization);
    if (!principal?.apiAccess || !principal.scopes.has(route.scope)) return false;
    // A kept page is what the list's handler answers for this team and URL (mock/page-cache.ts).
    const kept = this.ctx.pages.get(principal.team, url);
    const taken = this.arena.mark();
    let result: Result | undefined = kept && { status: 200, json: kept.body };
    if (!result) {
      const query = plainQuery(mark < 0 ? '' : url.slice(mark + 1));
      if (!query) return false;
      try {
        result = route.handler(this.ctx, { principal, params, query, url, operationId: route.operationId, scope: route.scope, arena: this.arena });
      } catch {
        return false;
      }
    }
    const headers: OutgoingHttpHeaders = { 'content-type': result.contentType ?? JSON_TYPE, 'content-length': Buffer.byteLength(result.json) };
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
