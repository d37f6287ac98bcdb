// The endpoint tables of §4 (`Method | Path | Payload | Response`): each row as an endpoint with the
// inputs its payload names. Payloads read as `query: a, b (required; x or y)`, `JSON: a (uuid, required);
// other fields as in X`, `multipart/form-data: one \`file\` part, optional \`category\``, `none`, or
// free text kept as a remark.
import { splitTop } from './fields.js';

export interface Input {
  name: string;
  required: boolean;
  /** Type words from the parenthesis (`uuid`, `string`). */
  types: string[];
  /** Other words from the parenthesis: the values listed (`project`, `organization`). */
  values: string[];
}

export type MediaType = 'JSON' | 'multipart/form-data';

export interface Payload {
  query: Map<string, Input>;
  body?: { mediaType: MediaType; fields: Map<string, Input>; };
  /** Text that names no input (`JSON subset of employee fields`, `other fields as in Assignment`). */
  remarks: string[];
}

export interface Endpoint {
  group: string;
  method: string;
  path: string;
  payload: Payload;
  response: string;
  line: number;
}

const TYPE_WORDS = new Set(['uuid', 'string', 'integer', 'number', 'boolean', 'date', 'timestamp', 'object', 'array']);
const INPUT = /^(optional\s+)?(?:one\s+)?([a-z_][\w.]*)(?:\s+part)?(?:\s*\((.*)\))?$/i;
const LIST_HEAD = /^(query|JSON|multipart\/form-data):\s*(.*)$/i;

function readInput(piece: string, mediaType: MediaType | 'query'): Input | undefined {
  const m = INPUT.exec(piece.replace(/`/g, '').trim());
  if (!m) return undefined;
  const words = (m[3] ?? '').split(/\s*[;,]\s*|\s+or\s+/).map((w) => w.trim()).filter(Boolean);
  const required = words.includes('required') || (mediaType === 'multipart/form-data' && !m[1]);
  const rest = words.filter((w) => w !== 'required' && w !== 'optional');
  return { name: m[2]!, required, types: rest.filter((w) => TYPE_WORDS.has(w)), values: rest.filter((w) => !TYPE_WORDS.has(w)) };
}

export function readPayload(text: string): Payload {
  const payload: Payload = { query: new Map(), remarks: [] };
  const head = LIST_HEAD.exec(text.trim());
  if (!head && /^none$/i.test(text.trim())) return payload;
  // A body described in words (`JSON subset of assignment fields`) can still name inputs after a `;`
  // (`…; role (string, required)`): they are read as JSON body fields, so a marker there is structure.
  const kind = !head ? 'JSON' : head[1]!.toLowerCase() === 'query' ? 'query' : head[1]!.toLowerCase() === 'json' ? 'JSON' : 'multipart/form-data';
  const fields = new Map<string, Input>();
  for (const group of splitTop(head ? head[2]! : text.trim(), ';')) {
    const inputs = splitTop(group, ',').map((piece) => readInput(piece, kind));
    if (inputs.some((i) => i === undefined)) payload.remarks.push(group);
    else for (const input of inputs as Input[]) fields.set(input.name, input);
  }
  if (kind === 'query') payload.query = fields;
  else if (head || fields.size > 0) payload.body = { mediaType: kind, fields };
  return payload;
}

export function readEndpoint(cells: string[], group: string, line: number): Endpoint {
  const [method = '', path = '', payload = '', response = ''] = cells;
  return { group, method: method.toUpperCase(), path, payload: readPayload(payload), response: response.replace(/\s+/g, ' '), line };
}

export const endpointKey = (e: Pick<Endpoint, 'method' | 'path'>): string => `${e.method} ${e.path}`;
