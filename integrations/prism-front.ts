// A small router in front of `prism proxy`: it sends through Prism the exchanges
// Prism can carry unchanged and validate, and everything else straight to the
// upstream. Prism's proxy (5.14) reads request bodies as UTF-8 text capped at
// 10 MB, follows redirects, and answers malformed JSON with its own error, so
// sending it multipart uploads, binary downloads or deliberately broken JSON
// would change what the target answered. Routed straight to the upstream:
//   - methods and paths the OpenAPI document does not describe (the paths the
//     API document leaves unshown: attachment download, file delete, capture
//     intake, the machine-readable description);
//   - requests whose body is not JSON (multipart uploads) or is not valid JSON;
//   - request bodies over 10 MB, and GET/HEAD requests carrying a body.
// Every other request goes to Prism, whose `sl-violations` header reports what
// the upstream's response breaks in the document.
import { Agent, createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DocumentRoutes } from './document-routes.js';

export const PRISM_BODY_LIMIT = 10 * 1024 * 1024;

export interface FrontRouter {
  url: string;
  /** Requests sent through Prism / straight to the upstream so far. */
  counts: { prism: number; direct: number; };
  close(): Promise<void>;
}

export interface FrontOptions {
  routes: DocumentRoutes;
  /** Prism's own URL (its upstream is the target's URL plus routes.basePath). */
  prismUrl: string;
  /** Where requests Prism cannot carry go; absent for `prism mock`, which answers everything. */
  upstream?: string;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function isValidJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** Whether Prism can carry this request; undefined when the body has to be read to know. */
function prismCanCarry(req: IncomingMessage, routes: DocumentRoutes): boolean | undefined {
  const pathname = new URL(req.url ?? '/', 'http://front').pathname;
  if (!routes.describes(req.method ?? 'GET', pathname)) return false;
  const length = req.headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return true;
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) return false;
  if (length !== undefined && Number(length) > PRISM_BODY_LIMIT) return false;
  return undefined;
}

function forwardHeaders(req: IncomingMessage, host: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  headers.host = host;
  return headers;
}

function relay(
  req: IncomingMessage,
  res: ServerResponse,
  target: URL,
  agent: Agent,
  body: Buffer | undefined,
): void {
  const headers = forwardHeaders(req, target.host);
  if (body) {
    headers['content-length'] = String(body.length);
    delete headers['transfer-encoding'];
  }
  const out = httpRequest(target, { method: req.method, headers, agent }, (upstream) => {
    const raw: string[] = [];
    for (let i = 0; i < upstream.rawHeaders.length; i += 2) {
      const name = upstream.rawHeaders[i] ?? '';
      if (!HOP_BY_HOP.has(name.toLowerCase())) raw.push(name, upstream.rawHeaders[i + 1] ?? '');
    }
    res.writeHead(upstream.statusCode ?? 502, raw);
    upstream.pipe(res);
  });
  out.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`front router: ${error.message}`);
  });
  if (body) out.end(body);
  else req.pipe(out);
}

export async function startFrontRouter(options: FrontOptions): Promise<FrontRouter> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const counts = { prism: 0, direct: 0 };
  const prism = new URL(options.prismUrl);
  const upstream = options.upstream === undefined ? undefined : new URL(options.upstream);
  const basePath = options.routes.basePath;

  const toPrism = (req: IncomingMessage) => {
    const url = new URL(req.url ?? '/', prism);
    if (basePath && url.pathname.startsWith(basePath)) url.pathname = url.pathname.slice(basePath.length) || '/';
    return url;
  };
  const toUpstream = (req: IncomingMessage, base: URL) => new URL(base.pathname.replace(/\/$/, '') + (req.url ?? '/'), base);

  const server = createServer(async (req, res) => {
    if (upstream === undefined) {
      counts.prism += 1;
      relay(req, res, toPrism(req), agent, undefined);
      return;
    }
    let carry = prismCanCarry(req, options.routes);
    let body: Buffer | undefined;
    if (carry === undefined) {
      const read = await readBody(req, PRISM_BODY_LIMIT);
      // A body over the limit without a content-length is rare enough to answer here.
      if (read === 'too-large') {
        res.writeHead(413, { 'content-type': 'text/plain' }).end('front router: chunked JSON body over 10 MB');
        return;
      }
      body = read;
      carry = isValidJson(body);
    }
    counts[carry ? 'prism' : 'direct'] += 1;
    relay(req, res, carry ? toPrism(req) : toUpstream(req, upstream), agent, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}
