// Edit vectors of the API document derived from the requirement catalog and the document's parsed structure,
// not written by hand: every normative sentence (quoted by the catalog or in the normative form) changed,
// narrowed, widened and removed; every row of the §4 endpoint tables, the §7 known conditions and the §8
// limits; every field of §2. Each vector carries the bump it needs and the §9 sentence that decides it.
import { rules } from '../diff/rules.js';
import { requirements } from '../requirements.js';
import { type ApiDocument, readApiDocument } from './api-document.js';
import { quoteIndex } from './catalog.js';
import { original } from './edits.js';
import { readBlocks } from './markdown.js';
import { isNormative, type Unit, unitsOf } from './sentences.js';

export interface Vector {
  name: string;
  /** Replacements on the document, each matching exactly once. */
  edits: [string, string][];
  /** The bump §9.2 requires; `major` with `unknown` for an edit whose direction the text cannot tell. */
  required: 'major' | 'minor' | 'patch';
  /** `unknown`: behaviour changed and the checker must say so and fail rather than pick a direction. */
  unknown?: true;
  /** The sentence of §9 that decides the bump. */
  rule: string;
}

const once = (text: string, part: string) => text.split(part).length === 2;

// Words that carry the statement's direction or grammar: a content word to change is none of these.
const FORM =
  /^(must|never|only|always|answers?|returns?|gives?|takes?|requires?|required|optional|may|can|cannot|every|each|all|any|not|no|none|default|maximum|minimum|within|shown|specified|least|most|the|and|with|that|which|from|this|those|these|their|for)$/i;

/** The longest content word outside code spans, or undefined. */
function contentWord(sentence: string): string | undefined {
  const plain = sentence.replace(/`[^`]*`/g, ' ').replace(/\([^)]*\)/g, ' ');
  const words = (plain.match(/(?<![\w-])[a-z]{5,}(?![\w-])/g) ?? []).filter((w) => !FORM.test(w) && sentence.split(w).length === 2);
  return words.sort((a, b) => b.length - a.length)[0];
}

const ends = (
  sentence: string,
  clause: string,
) => (/[.:;]$/.test(sentence) ? `${sentence.slice(0, -1)}${clause}${sentence.slice(-1)}` : `${sentence}${clause}`);

/** What removing a statement does: a restriction lifted is MINOR, a placeholder nothing, a promise withdrawn MAJOR. */
function removal(sentence: string): Pick<Vector, 'required' | 'rule'> {
  if (/\bnot (shown|specified)\b/i.test(sentence)) return { required: 'patch', rule: rules.documentation };
  // §9 names authentication, scoping and the deprecation signals clients watch: withdrawing them is breaking.
  if (/\b(bearer|authori[sz]ation|authentication|api keys?|scopes?|keys?)\b|\b(deprecation|sunset)\b.*\bheaders?\b/i.test(sentence)) {
    return { required: 'major', rule: rules.behaviour };
  }
  if (/\b4\d\d\b|\b(refused|rejected|only|at most|maximum|must|required|requires?|needs?|within)\b/i.test(sentence)) {
    return { required: 'minor', rule: rules.relaxed };
  }
  return { required: 'major', rule: rules.behaviour };
}

function sentenceVectors(text: string, units: Unit[]): Vector[] {
  const catalog = quoteIndex(requirements);
  const vectors: Vector[] = [];
  const seen = new Set<string>();
  for (const u of units) {
    // A paragraph that is only a code span is a shape of §2, compared as structure.
    if (u.kind !== 'sentence' || /^`[^`]+`$/.test(u.text) || seen.has(u.text) || !once(text, u.text)) continue;
    const ids = catalog.idsOf(u.text);
    if (!isNormative(u) && ids.length === 0) continue;
    seen.add(u.text);
    const name = `§${u.section || '0'} line ${u.line} "${u.text.slice(0, 40)}"${ids.length > 0 ? ` (${ids[0]})` : ''}`;
    const silent = /\bnot (shown|specified)\b/i.test(u.text);
    vectors.push({
      name: `narrow ${name}`,
      edits: [[u.text, ends(u.text, ', and a request without the header `x-narrowed` is refused with 400')]],
      required: 'major',
      rule: rules.tightening,
    });
    if (!silent) {
      vectors.push({
        name: `widen ${name}`,
        edits: [[u.text, ends(u.text, ', and a request may also carry the optional header `x-widened`')]],
        required: 'minor',
        rule: rules.newRequestInput,
      });
    }
    const word = contentWord(u.text);
    if (word && !silent) {
      vectors.push({
        name: `change ${name}: ${word}`,
        edits: [[u.text, u.text.replace(word, 'xyzzy')]],
        required: 'major',
        unknown: true,
        rule: rules.undecided,
      });
    }
    const item = new RegExp(`^(?:[-*]|\\d+\\.) ${u.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`, 'm').exec(text)?.[0];
    vectors.push({ name: `remove ${name}`, edits: [[item ?? u.text, '']], ...removal(u.text) });
  }
  return vectors;
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

function tableVectors(text: string, doc: ApiDocument): Vector[] {
  const vectors: Vector[] = [];
  const lines = text.split('\n');
  const lineOf = (n: number) => lines[n - 1]!;
  const add = (name: string, from: string, to: string, required: Vector['required'], rule: string) => {
    if (once(text, from)) vectors.push({ name, edits: [[from, to]], required, rule });
  };
  for (const e of doc.endpoints.values()) {
    const line = lineOf(e.line);
    add(`remove endpoint ${e.method} ${e.path}`, `${line}\n`, '', 'major', rules.removal);
    if (e.path.startsWith('/')) {
      add(`add endpoint beside ${e.method} ${e.path}`, `${line}\n`, `${line}\n| GET | ${e.path}/extra | none | ${e.response} |\n`, 'minor', rules.newEndpoint);
    }
  }
  for (const c of doc.conditions.values()) {
    const line = lineOf(c.line);
    add(`remove condition ${c.condition}`, `${line}\n`, '', 'major', rules.removal);
    add(`change the status of ${c.condition}`, line, line.replace(`| ${c.status} |`, `| ${c.status === '400' ? '409' : '400'} |`), 'major', rules.removal);
    add(`add a condition beside ${c.condition}`, `${line}\n`, `${line}\n${row(['A new condition', '409', 'conflict'])}\n`, 'minor', rules.newErrorCode);
  }
  for (const l of doc.limits.values()) {
    const line = lineOf(l.line);
    const n = /(\d+)/.exec(l.value)?.[1];
    if (n) {
      add(`lower the limit ${l.name}`, line, line.replace(l.value, l.value.replace(n, String(Number(n) / 5))), 'major', rules.tightening);
      add(`raise the limit ${l.name}`, line, line.replace(l.value, l.value.replace(n, String(Number(n) * 2))), 'minor', rules.relaxed);
    }
    add(`remove the limit ${l.name}`, `${line}\n`, '', 'minor', rules.relaxed);
  }
  for (const table of doc.tables.values()) {
    if (table.role !== 'resource' || table.place.section !== '2') continue;
    for (const f of table.fields.values()) {
      const line = lineOf(f.line);
      if (!line.startsWith(`| ${f.name} |`) || !once(text, line)) continue;
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      const rest = cells.slice(2);
      add(`remove field ${table.name}.${f.name}`, `${line}\n`, '', 'major', rules.removal);
      add(`add a field beside ${table.name}.${f.name}`, `${line}\n`, `${line}\n${row([`${f.name}_extra`, 'string', ...rest.map(() => '')])}\n`, 'minor',
        rules.newResponseField);
      if (f.type === 'string') add(`retype field ${table.name}.${f.name}`, line, row([f.name, 'integer', ...rest]), 'major', rules.typeChange);
      if (rest.length === 1 && !f.required) {
        add(`narrow the notes of ${table.name}.${f.name}`, line, row([f.name, cells[1]!, [rest[0], 'at most 10 characters'].filter(Boolean).join('; ')]),
          'major', rules.tightening);
        add(`mark ${table.name}.${f.name} required on update`, line, row([f.name, cells[1]!, [rest[0], 'required on update'].filter(Boolean).join('; ')]),
          'major', rules.typeChange);
      }
    }
  }
  return vectors;
}

/** Every vector of the document as it is now. */
export function documentVectors(text: string = original): Vector[] {
  const doc = readApiDocument(text, 'document');
  return [...sentenceVectors(text, unitsOf(readBlocks(text, 'document'))), ...tableVectors(text, doc)];
}
