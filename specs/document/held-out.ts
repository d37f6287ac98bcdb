// The held-out edits of fixtures/document/held-out.json scored against the document diff: for each, whether
// the diff passes or fails as it should and requires the bump §9.2 asks for, and whether an edit that
// changes behaviour was passed off as documentation only. A measure, not a specification: the cases
// were written before the diff read prose, and the diff is never tuned to them.
import heldOut from '../../fixtures/document/held-out.json' with { type: 'json' };
import type { DiffResult } from '../diff/index.js';
import { diffDocumentTexts } from './diff.js';
import { edits, original, release } from './edits.js';

export interface HeldOutCase {
  name: string;
  edits: [string, string][];
  release?: [string, string];
  expected: { ok: boolean; required: 'major' | 'minor' | 'patch'; };
  why: string;
}

export interface HeldOutScore {
  name: string;
  verdict: boolean;
  bump: boolean;
  /** A behaviour change (required above patch) read as documentation only. */
  passedAsWording: boolean;
  got: { ok: boolean; required: string; };
}

export const heldOutCases = heldOut.cases as HeldOutCase[];

export function scoreCase(c: HeldOutCase): HeldOutScore & { result: DiffResult; } {
  const edited = edits(original, ...c.edits);
  const text = c.release ? release(edited, c.release[0], c.release[1]) : edited;
  const result = diffDocumentTexts(original, text);
  const { ok, required } = result.version;
  const behaviour = result.changes.filter((x) => !x.location.startsWith('§9 Changelog'));
  const passedAsWording = c.expected.required !== 'patch' && behaviour.every((x) => x.classification === 'documentation');
  return { name: c.name, verdict: ok === c.expected.ok, bump: required === c.expected.required, passedAsWording, got: { ok, required }, result };
}
