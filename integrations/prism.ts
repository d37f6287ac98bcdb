// Stoplight Prism (prism-cli 5.14) as a conformance aid:
//   - `startPrismProxy`: a validating proxy in front of any target; every response
//     the document describes is checked against specs/openapi.json and the
//     violations come back in the `sl-violations` header.
//   - `startPrismMock`: Prism's own stateless, example-based mock of the same
//     document, a baseline target (CONFORMANCE_TARGET=prism-mock).
//
// The proxy validates against specs/openapi.json, the API document's own surface,
// not the extended description a target may serve at its OpenAPI path: that one
// is the target's self-description (the mock's readings of the unshown paths), and
// checking a target against it would grade it by its own answers. Requests to
// paths the document does not show are forwarded unvalidated (see prism-front.ts).
// Prism's proxy adds `deprecation: true` to responses of operations the document
// marks deprecated; specs/openapi.json marks none, so it cannot mask a missing
// Deprecation header.
import { createRequire } from 'node:module';
import { freePort, serve, type ServingProcess } from './child-process.js';
import { readDocumentRoutes } from './document-routes.js';
import { startFrontRouter } from './prism-front.js';

export { parseViolations, type PrismViolation, prismViolations, responseErrors } from './prism-violations.js';

export interface PrismTarget {
  /** Base URL to send the suite's requests to (the front router on 127.0.0.1). */
  url: string;
  /** Prism's own listening URL. */
  prismUrl: string;
  /** Requests carried by Prism and sent around it so far. */
  counts: { prism: number; direct: number; };
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
const PRISM_CLI = require.resolve('@stoplight/prism-cli/dist/index.js');

/** Bound on Prism's start-up (it parses and dereferences the whole document). */
const READY_TIMEOUT_MS = 60_000;

async function spawnPrism(args: string[], label: string): Promise<ServingProcess> {
  // The OS may hand the free port to someone else before Prism binds it: try again once.
  for (let attempt = 1;; attempt += 1) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    try {
      return await serve({
        command: process.execPath,
        args: [PRISM_CLI, ...args, '-h', '127.0.0.1', '-p', String(port), '-v', 'warn'],
        readyUrl: `${url}/`,
        url,
        readyTimeoutMs: READY_TIMEOUT_MS,
        label,
      });
    } catch (error) {
      if (attempt >= 2 || !/EADDRINUSE/.test(String(error))) throw error;
    }
  }
}

/** The front router and the Prism behind it, stopped together (front first). */
function behindFront(
  front: { url: string; counts: PrismTarget['counts']; close(): Promise<void>; },
  prism: { url: string; stop(): Promise<void>; },
): PrismTarget {
  return {
    url: front.url,
    prismUrl: prism.url,
    counts: front.counts,
    stop: async () => {
      await front.close();
      await prism.stop();
    },
  };
}

export async function startPrismProxy(options: { upstream: string; openapiPath: string; }): Promise<PrismTarget> {
  const routes = readDocumentRoutes(options.openapiPath);
  const upstream = options.upstream.replace(/\/+$/, '');
  const prism = await spawnPrism(
    ['proxy', options.openapiPath, `${upstream}${routes.basePath}`, '--errors=false'],
    'prism proxy',
  );
  try {
    return behindFront(await startFrontRouter({ routes, prismUrl: prism.url, upstream }), prism);
  } catch (error) {
    await prism.stop();
    throw error;
  }
}

export async function startPrismMock(options: { openapiPath: string; dynamic?: boolean; }): Promise<PrismTarget> {
  const routes = readDocumentRoutes(options.openapiPath);
  const prism = await spawnPrism(
    ['mock', options.openapiPath, ...(options.dynamic ? ['--dynamic'] : [])],
    'prism mock',
  );
  // Prism matches request paths against `paths` alone; a server base path in front is stripped.
  if (!routes.basePath) {
    return { url: prism.url, prismUrl: prism.url, counts: { prism: 0, direct: 0 }, stop: prism.stop };
  }
  return behindFront(await startFrontRouter({ routes, prismUrl: prism.url }), prism);
}
