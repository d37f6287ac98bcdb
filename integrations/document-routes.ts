// Which requests an OpenAPI document describes: the operations of its `paths`,
// under the path of its first server URL. Used to decide what Prism can check.
import { readFileSync } from 'node:fs';
import { escapeRegExp } from '../specs/patterns.js';

export interface DocumentRoutes {
  /** Path prefix of the document's first server URL ('' when none), e.g. '/api/public/v1'. */
  basePath: string;
  /** True when the document has an operation for this method and absolute request path. */
  describes(method: string, pathname: string): boolean;
}

interface DocumentedRoute {
  pattern: RegExp;
  methods: Set<string>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `/projects/{id}` → /^\/projects\/[^/]+$/ */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map(escapeRegExp);
  return new RegExp(`^${parts.join('[^/]+')}/?$`);
}

type Server = { url?: string; variables?: Record<string, { default?: string; }>; };

function serverBasePath(document: { servers?: Server[]; }): string {
  const server = document.servers?.[0];
  if (!server?.url) return '';
  // Server URLs may be templated ({base_url}/api/public/v1): fill in the defaults,
  // and a placeholder origin for a leading variable without one.
  const filled = server.url.replace(/\{([^}]+)\}/g,
    (_, name: string, offset: number) => server.variables?.[name]?.default ?? (offset === 0 ? 'http://placeholder' : 'x'));
  return new URL(filled, 'http://placeholder').pathname.replace(/\/+$/, '');
}

export function documentRoutes(document: {
  servers?: Server[];
  paths?: Record<string, Record<string, unknown>>;
}): DocumentRoutes {
  const basePath = serverBasePath(document);
  const operations: DocumentedRoute[] = Object.entries(document.paths ?? {}).map(([template, item]) => ({
    pattern: templatePattern(template),
    methods: new Set(Object.keys(item).filter((key) => METHODS.includes(key))),
  }));
  return {
    basePath,
    describes(method, pathname) {
      if (!pathname.startsWith(basePath)) return false;
      const relative = pathname.slice(basePath.length) || '/';
      const verb = method.toLowerCase();
      return operations.some((op) => op.methods.has(verb) && op.pattern.test(relative));
    },
  };
}

export function readDocumentRoutes(openapiPath: string): DocumentRoutes {
  return documentRoutes(JSON.parse(readFileSync(openapiPath, 'utf8')));
}
