// Serialized list pages, kept per team and URL while none of the collections they show
// has changed. The list pipeline (mock/routes/list.ts) fills it; `answer` serves a repeat
// of the same GET straight from the node:http server, before the framework, when the
// caller's key is valid and holds the page's scope. Anything else (another key, a body,
// a changed collection, an active fault) goes through the whole pipeline, so a cached
// answer is always the bytes and headers the pipeline gave for the same request.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Authenticator, Scope } from './auth.js';
import type { Collection, TeamId } from './store.js';

export interface CachedPage {
  body: Buffer;
  /** Response headers besides those node:http adds (date, connection, keep-alive). */
  headers: OutgoingHttpHeaders;
  scope: Scope;
  /** The collections the page shows, and their versions when it was built. */
  collections: readonly Collection[];
  versions: string;
}

const MAX_PAGES = 2000;

export const versionsOf = (collections: readonly Collection[]): string =>
  collections.map((c) => `${c.version('A')}.${c.version('B')}.${c.version('C')}`).join('|');

export class PageCache {
  private readonly pages = new Map<string, CachedPage>();

  constructor(private readonly auth: Authenticator) {}

  /** The page of `team` for `url`, if nothing it shows changed since it was built. */
  get(team: TeamId, url: string): CachedPage | undefined {
    const page = this.pages.get(`${team} ${url}`);
    return page && page.versions === versionsOf(page.collections) ? page : undefined;
  }

  set(team: TeamId, url: string, page: CachedPage): void {
    if (this.pages.size >= MAX_PAGES) this.pages.clear(); // stale versions are never read again
    this.pages.set(`${team} ${url}`, page);
  }

  /** Answers a repeated list request from the cache; false when the pipeline must answer. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || req.url === undefined) return false;
    const h = req.headers;
    if (h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0')) return false;
    const principal = this.auth.principalOf(h.authorization);
    if (!principal || !principal.apiAccess) return false;
    const page = this.get(principal.team, req.url);
    if (!page || !principal.scopes.has(page.scope)) return false;
    res.writeHead(200, page.headers);
    res.end(page.body);
    return true;
  }
}
