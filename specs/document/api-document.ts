// The API document read as its own structure: the field tables of §2 (and the error envelope of §7),
// the endpoint and list-parameter tables of §4, the known conditions of §7, the limits of §8, the
// version and changelog of §9, and the remaining prose as sentences.
import { type Endpoint, endpointKey, readEndpoint } from './endpoints.js';
import { DocumentInputError } from './errors.js';
import { fieldsOfRow, type FieldSpec, itemFieldsOfRow } from './fields.js';
import { type Block, type Place, readBlocks, type TableBlock } from './markdown.js';
import { type Unit, unitsOf } from './sentences.js';

export type TableRole = 'resource' | 'error-envelope' | 'list-parameters';

export interface FieldTable {
  name: string;
  role: TableRole;
  place: Place;
  fields: Map<string, FieldSpec>;
}

export interface Condition {
  condition: string;
  status: string;
  code: string;
  line: number;
}
export interface Limit {
  name: string;
  appliesTo: string[];
  value: string;
  line: number;
}
export interface ChangelogRow {
  version: string;
  change: string;
  line: number;
}

export interface ApiDocument {
  label: string;
  /** The Markdown as read: what `requirements check` reads. */
  text: string;
  title: string;
  /** The path major of the base address (`/api/public/v1` → 1). */
  major?: number;
  /** The newest numbered changelog row of §9: the document's version. */
  version?: string;
  tables: Map<string, FieldTable>;
  /** §2 paragraphs that are only a code span (`{ success: boolean }`), by subsection. */
  shapes: Map<string, { text: string; place: Place; }>;
  endpoints: Map<string, Endpoint>;
  conditions: Map<string, Condition>;
  limits: Map<string, Limit>;
  changelog: ChangelogRow[];
  /** Sentences of the prose and rows of tables not read above: compared as wording. */
  prose: Unit[];
}

const headerKey = (t: TableBlock) => t.header.map((h) => h.toLowerCase()).join('|');
const plain = (text: string) => text.replace(/\s*\([^)]*\)/g, '').trim();
export const SEMVER_ROW = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;

export function readApiDocument(text: string, label: string): ApiDocument {
  const markdown = readBlocks(text, label);
  const major = /\/api\/public\/v(\d+)\b/.exec(text)?.[1];
  if (major === undefined) throw new DocumentInputError('DOC_NOT_API_DOCUMENT', `${label}: no base path /api/public/vN`);
  const doc: ApiDocument = {
    label,
    text,
    title: markdown.title,
    major: Number(major),
    tables: new Map(),
    shapes: new Map(),
    endpoints: new Map(),
    conditions: new Map(),
    limits: new Map(),
    changelog: [],
    prose: [],
  };
  const wording: Block[] = [];
  for (const block of markdown.blocks) {
    if (block.kind === 'prose' && block.section === '2' && block.subsection && /^`[^`]+`$/.test(block.text)) {
      doc.shapes.set(plain(block.subsection), { text: block.text.replace(/\s+/g, ' '), place: block });
    } else if (block.kind === 'prose' || !readTable(doc, block)) wording.push(block);
  }
  doc.prose = unitsOf({ title: markdown.title, blocks: wording });
  doc.version = doc.changelog.find((r) => SEMVER_ROW.test(r.version))?.version;
  return doc;
}

/** Reads a table into the document's structure; false for a table of no known kind. */
function readTable(doc: ApiDocument, t: TableBlock): boolean {
  const fieldTable = (name: string, role: TableRole, read: (cells: string[], line: number) => FieldSpec[]) => {
    const fields = new Map(t.rows.flatMap((r) => read(r.cells, r.line)).map((f) => [f.name, f] as const));
    let key = name;
    for (let n = 2; doc.tables.has(key); n += 1) key = `${name} (${n})`;
    doc.tables.set(key, { name: key, role, place: t, fields });
  };
  const title = plain(t.caption ?? t.subsection ?? t.sectionTitle);
  switch (headerKey(t)) {
    case 'field|type':
    case 'field|type|notes':
      fieldTable(title, t.section === '7' ? 'error-envelope' : 'resource', fieldsOfRow);
      return true;
    case 'section|item fields':
      fieldTable(title, 'resource', itemFieldsOfRow);
      return true;
    case 'parameter|type|rule':
      fieldTable(title, 'list-parameters', fieldsOfRow);
      return true;
    case 'method|path|payload|response':
      for (const row of t.rows) {
        const endpoint = readEndpoint(row.cells, plain(t.subsection ?? ''), row.line);
        doc.endpoints.set(endpointKey(endpoint), endpoint);
      }
      return true;
    case 'condition|status|code':
      for (const { cells: [condition = '', status = '', code = ''], line } of t.rows) doc.conditions.set(condition, { condition, status, code, line });
      return true;
    case 'limit|applies to|value':
      for (const { cells: [name = '', applies = '', value = ''], line } of t.rows) {
        doc.limits.set(name, { name, appliesTo: applies.split(/\s*,\s*/).filter(Boolean), value, line });
      }
      return true;
    case 'version|change':
      doc.changelog.push(...t.rows.map(({ cells: [version = '', change = ''], line }) => ({ version, change, line })));
      return true;
    default:
      return false;
  }
}
