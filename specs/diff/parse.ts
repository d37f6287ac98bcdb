// Document text to a value. A name ending .yaml or .yml is read as YAML (1.2, core schema), anything
// else as JSON. A syntax error is an input error naming line and column, so the author can go
// straight to it.
import { LineCounter, parseDocument } from 'yaml';
import { DiffInputError } from './errors.js';

export const isYamlName = (name: string): boolean => /\.ya?ml$/i.test(name.replace(/[?#].*$/, ''));

/** Parses `text`; `name` (a path or URI) chooses the syntax, `label` is how messages name the document. */
export function parseText(text: string, name: string, label: string): unknown {
  return isYamlName(name) ? parseYaml(text, label) : parseJson(text, label);
}

function parseYaml(text: string, label: string): unknown {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const error = document.errors[0];
  if (error) {
    const { line, col } = lines.linePos(error.pos[0]);
    throw new DiffInputError('DIFF_NOT_YAML', `${label} is not valid YAML at line ${line}, column ${col}: ${error.message} (${error.code})`, {
      line,
      column: col,
    });
  }
  return document.toJS();
}

function parseJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    const { line, column } = at ? position(text, Number(at[1])) : position(text, text.length);
    const hint = ' (a document named .yaml or .yml is read as YAML)';
    throw new DiffInputError('DIFF_NOT_JSON', `${label} is not JSON at line ${line}, column ${column}: ${message}${hint}`, { line, column });
  }
}

function position(text: string, offset: number): { line: number; column: number; } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
