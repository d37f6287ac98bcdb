// The operation table held to the endpoint tables of §4: every row of §4 is an endpoint of the
// table with the same method, body and answer, and every endpoint of the table is a row of §4 (or
// one the document names in prose, quoted below). Each difference is a message naming the
// endpoint, so a row added to either side without the other fails with what to add.
import type { ApiDocument } from '../document/api-document.js';
import type { Endpoint as Row, Input } from '../document/endpoints.js';
import { operations } from '../surface.js';
import { parameters } from './components.js';
import { extensionEndpoints, type ExtensionPaths } from './extensions.js';
import { type Endpoint, endpoints } from './operations.js';

/** Operations of the table that no §4 row shows, and the sentence of the document that names each. */
export const NAMED_IN_PROSE = {
  createCapture: '§1: "an intake endpoint for captures from a browser extension"',
  getOpenApi: '§9 rule 2: "The machine-readable description\'s `info.version` is a semantic version"',
} as const satisfies Record<string, string>;

const LIST_QUERY = ['limit', 'cursor', 'sort', 'order', 'q'];
const UNSPECIFIED = /^not (specified|shown)$/i;

/** The answer of an endpoint as §4 words it: `Page of Project`, `Delete result`, `File`, `stream`. */
export function answerWords(e: Endpoint): string {
  if (e.stream) return 'stream';
  if (typeof e.returns !== 'string') return 'object';
  const name = e.returns.replace(/(Response|Record)$/, '');
  const words = (s: string) => s.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return name.endsWith('Page') ? `page of ${words(name.slice(0, -'Page'.length))}` : words(name);
}

/** The query parameters of an endpoint beyond the list parameters (§4: those of "all list endpoints"), with whether each is required. */
function queryOf(e: Endpoint): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const component of e.filters ?? []) {
    const p = (parameters as Record<string, { name: string; required?: boolean; }>)[component]!;
    out.set(p.name, p.required === true);
  }
  return out;
}

/** The body fields of an endpoint the table spells out (multipart parts), by name, with whether each is required. */
function partsOf(e: Endpoint): Map<string, boolean> {
  const m = e.multipart as { properties?: Record<string, unknown>; required?: string[]; } | undefined;
  return new Map(Object.keys(m?.properties ?? {}).map((k) => [k, (m?.required ?? []).includes(k)]));
}

/** The top-level fields of a JSON body, read from its schema through the surface. */
function jsonFieldsOf(e: Endpoint): Map<string, boolean> {
  const op = operations({}).find((o) => o.op === e.operationId);
  return new Map((op?.fields ?? []).map((f) => [f.name, f.required]));
}

function compareInputs(where: string, named: Map<string, Input>, table: Map<string, boolean>, key: string, exact: boolean): string[] {
  const out: string[] = [];
  for (const [name, input] of named) {
    if (!table.has(name)) out.push(`${key}: ${where} "${name}" is in §4 and not in the operation table`);
    else if (table.get(name) !== input.required) {
      out.push(
        `${key}: ${where} "${name}" is ${input.required ? 'required' : 'optional'} in §4 and ${
          table.get(name) ? 'required' : 'optional'
        } in the operation table`,
      );
    }
  }
  if (exact) { for (const name of table.keys()) if (!named.has(name)) out.push(`${key}: ${where} "${name}" is in the operation table and not in §4`); }
  return out;
}

/** Differences between the endpoint rows of §4 and the operation table at the given extension paths. */
export function compareWithSection4(doc: Pick<ApiDocument, 'endpoints'>, paths: ExtensionPaths, table: readonly Endpoint[] = endpoints): string[] {
  const out: string[] = [];
  const all = [...table, ...extensionEndpoints(paths)];
  const matched = new Set<Endpoint>();
  for (const row of doc.endpoints.values()) {
    const key = `${row.method} ${row.path}`;
    // `(path under /files)`: the endpoint at the chosen path under it, with the same method
    const under = /^\(path under (\/\S+)\)$/.exec(row.path)?.[1];
    const e = all.find((x) =>
      !matched.has(x) && x.method.toUpperCase() === row.method && (under ? x.path.startsWith(`${under}/`) && !table.includes(x) : x.path === row.path)
    );
    if (!e) {
      out.push(`${key}: in §4 (line ${row.line}) and not in the operation table`);
      continue;
    }
    matched.add(e);
    out.push(...compareRow(row, e, key));
  }
  for (const e of all) {
    if (matched.has(e) || Object.hasOwn(NAMED_IN_PROSE, e.operationId)) continue;
    out.push(`${e.method.toUpperCase()} ${e.path}: in the operation table (${e.operationId}) and not in §4`);
  }
  return out;
}

function compareRow(row: Row, e: Endpoint, key: string): string[] {
  const out: string[] = [];
  const answer = row.response.toLowerCase();
  if (!UNSPECIFIED.test(row.response) && answer !== answerWords(e)) {
    out.push(
      `${key}: answers "${row.response}" in §4 and "${answerWords(e)}" (${typeof e.returns === 'string' ? e.returns : 'a schema'}) in the operation table`,
    );
  }
  const pages = /^page of /i.test(row.response);
  if (pages !== !!e.list) out.push(`${key}: ${pages ? 'a list' : 'not a list'} in §4 and ${e.list ? 'a list' : 'not a list'} in the operation table`);
  const named = new Map([...row.payload.query].filter(([name]) => !LIST_QUERY.includes(name)));
  out.push(...compareInputs('query parameter', named, queryOf(e), key, true));
  // the body: its media type where §4 names one, and the fields it names
  const worded = row.payload.remarks.join('; ');
  const docMedia = row.payload.body?.mediaType ?? (/^JSON\b/i.test(worded) ? 'JSON' : undefined);
  const tableMedia = e.json ? 'JSON' : e.multipart ? 'multipart/form-data' : undefined;
  const bodyNamed = docMedia !== undefined || (worded !== '' && !row.payload.query.size && row.method !== 'GET' && row.method !== 'DELETE');
  if (docMedia && docMedia !== tableMedia) out.push(`${key}: body ${docMedia} in §4 and ${tableMedia ?? 'none'} in the operation table`);
  else if (!bodyNamed && tableMedia) out.push(`${key}: no body in §4 and a ${tableMedia} body in the operation table`);
  if (row.payload.body?.mediaType === 'multipart/form-data') out.push(...compareInputs('multipart part', row.payload.body.fields, partsOf(e), key, true));
  // a JSON body names some fields ("other fields as in Assignment"): those must be in its schema, required as §4 says
  if (row.payload.body?.mediaType === 'JSON' && e.json) out.push(...compareInputs('body field', row.payload.body.fields, jsonFieldsOf(e), key, false));
  return out;
}
