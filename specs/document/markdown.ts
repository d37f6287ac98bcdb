// The Markdown of the API document as blocks: tables (header, rows) and prose (a paragraph or one list
// item), each placed in its numbered section (`## 4. Endpoints`) and subsection (`### Projects`). Only
// the Markdown the document uses is read: ATX headings, pipe tables, `-` and `1.` lists, paragraphs.
import { DocumentInputError } from './errors.js';

export interface Place {
  /** Section number (`4`), or '' before the first numbered section. */
  section: string;
  sectionTitle: string;
  subsection?: string;
  /** For a list item: the paragraph ending in `:` that leads into the list (`Upload rules`). */
  lead?: string;
  /** 1-based line in the document. */
  line: number;
}

export interface TableRow {
  cells: string[];
  line: number;
}

export interface TableBlock extends Place {
  kind: 'table';
  /** The paragraph right above the table up to its first `:` or `.` (`Stage object`, `Known conditions`). */
  caption?: string;
  header: string[];
  rows: TableRow[];
}

export interface ProseBlock extends Place {
  kind: 'prose';
  text: string;
}

export type Block = TableBlock | ProseBlock;

export interface MarkdownDocument {
  title: string;
  blocks: Block[];
}

const SECTION = /^##\s+(\d+)\.\s*(.*)$/;
const LIST_ITEM = /^(?:[-*]|\d+\.)\s+/;
const SEPARATOR = /^\|?[\s:|-]+\|?$/;

export const cellsOf = (line: string): string[] => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());

export function readBlocks(text: string, label: string): MarkdownDocument {
  const lines = text.split(/\r?\n/);
  const blocks: Block[] = [];
  let title = '';
  let place: Omit<Place, 'line'> = { section: '', sectionTitle: 'Introduction' };
  let intro: string | undefined;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    const at = { ...place, line: i + 1 };
    if (line === '') continue;
    if (!LIST_ITEM.test(line)) intro = undefined;
    if (/^#\s/.test(line)) title ||= line.slice(2).trim();
    else if (SECTION.test(line)) {
      const [, section, sectionTitle] = SECTION.exec(line)!;
      place = { section: section!, sectionTitle: sectionTitle!.trim() };
    } else if (/^#{3,}\s/.test(line)) place = { ...place, subsection: line.replace(/^#+\s*/, '') };
    else if (/^#{2}\s/.test(line)) place = { section: '', sectionTitle: line.slice(3).trim() };
    else if (line.startsWith('|')) i = readTable(lines, i, at, blocks, label) - 1;
    else if (LIST_ITEM.test(line)) blocks.push({ kind: 'prose', ...at, ...(intro ? { lead: intro } : {}), text: line.replace(LIST_ITEM, '') });
    else {
      // A paragraph runs to the next blank line, heading, table or list item.
      let end = i + 1;
      while (end < lines.length && /^[^#|\-*\d\s]/.test(lines[end]!.trim()) && lines[end]!.trim() !== '') end += 1;
      const text = lines.slice(i, end).map((l) => l.trim()).join(' ');
      blocks.push({ kind: 'prose', ...at, text });
      if (text.endsWith(':')) intro = text.slice(0, -1).replace(/\s*\([^)]*\)/g, '').trim();
      i = end - 1;
    }
  }
  if (title === '' || !blocks.some((b) => b.section !== '')) {
    throw new DocumentInputError('DOC_NOT_API_DOCUMENT', `${label}: expected a "# Title" line and numbered sections ("## 1. ...")`);
  }
  return { title, blocks };
}

/** Reads the table starting at line `start`; returns the index of the first line after it. */
function readTable(lines: string[], start: number, at: Place, blocks: Block[], label: string): number {
  const header = cellsOf(lines[start]!);
  let i = start + 1;
  if (i < lines.length && SEPARATOR.test(lines[i]!.trim())) i += 1;
  const rows: TableRow[] = [];
  for (; i < lines.length && lines[i]!.trim().startsWith('|'); i += 1) {
    const cells = cellsOf(lines[i]!);
    if (cells.length !== header.length) {
      throw new DocumentInputError('DOC_TABLE_MALFORMED',
        `${label}:${i + 1}: ${cells.length} cell(s) in a table of ${header.length} column(s) (${header.join(' | ')})`);
    }
    rows.push({ cells, line: i + 1 });
  }
  const before = blocks.at(-1);
  const captioned = before?.kind === 'prose' && before.section === at.section && before.subsection === at.subsection && at.line - before.line <= 2;
  const caption = captioned ? before.text.split(/[:.]/)[0]!.replace(/\s*\([^)]*\)\s*/g, ' ').trim() : undefined;
  blocks.push({ kind: 'table', ...at, header, rows, ...(caption ? { caption } : {}) });
  return i;
}
