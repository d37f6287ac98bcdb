// A failure mode: one way deployed stacks go wrong, as a generator of faults over the elements of
// one kind (elements.ts). Each fault it yields breaks one element and names the requirements
// (specs/requirements.json) the break violates; its hooks are the reference's (hooks.ts), as every
// other fault's.
import type { Rec } from '../../../contract/json.js';
import type { AppContext } from '../../reference/context.js';
import type { Exchange } from '../../reference/exchange.js';
import type { Hooks } from '../../reference/hooks.js';
import type { FaultHooks } from '../fault.js';
import { viewsOf as listViewsOf } from '../lists.js';
import type { ElementKind, ElementOf, ViewElement } from './elements.js';

/** The categories of the catalog, as the benchmark counts them. */
export const CATEGORIES = ['storage', 'writes', 'reads', 'requests', 'access', 'lists', 'concurrency', 'idempotency'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Mode<K extends ElementKind = ElementKind> {
  category: Category;
  /** Its name within the category (kebab-case). */
  mode: string;
  kind: K;
  /** Whether the mode has an element to break (a number mode needs a number field). */
  applies?(e: ElementOf<K>): boolean;
  requirements(e: ElementOf<K>): readonly string[];
  words(e: ElementOf<K>): string;
  hooks(e: ElementOf<K>, ctx: AppContext): FaultHooks;
}

/** A mode, typed by the kind of element it breaks. */
export const mode = <K extends ElementKind>(m: Mode<K>): Mode => m as unknown as Mode;

/** Requests of one operation. */
export const mine = (op: string) => (ex: Exchange | undefined): ex is Exchange => ex?.operationId === op;

/** The shape requirement of each record kind. */
export const SHAPE: Record<string, string> = {
  project: 'RES-PROJECT-SHAPE',
  assignment: 'RES-ASSIGNMENT-SHAPE',
  attachment: 'RES-ATTACHMENT-SHAPE',
  employee: 'RES-EMPLOYEE-SHAPE',
  organization: 'RES-ORGANIZATION-SHAPE',
  file: 'RES-FILE-SHAPE',
  cv: 'RES-CV-SHAPE',
};

/** A write's persistence requirement: what a create or a PATCH stores reads back the same. */
export const persists = (kind: string) => (kind === 'create' ? 'EP-CREATE-PERSISTS' : 'EP-PATCH-PERSISTS');

/** What a view shows must be the record as stored: every view agrees with the write that made it. */
export const viewRequirements = (v: ViewElement): string[] => [
  'EP-CREATE-PERSISTS',
  'EP-PATCH-PERSISTS',
  ...(v.embedded ? ['RES-ASSIGNMENT-EMBEDDED-CURRENT'] : []),
];

const nonEmpty = (v: unknown) => typeof v === 'string' && v !== '';

/** Whether a request asks for the view: its operation, and exactly its filters and search. */
export function asksFor(v: ViewElement, ex: Exchange | undefined): ex is Exchange {
  if (!ex || ex.operationId !== v.op) return false;
  if (!v.listView) return true;
  const base = v.view.embedded?.parent ?? v.view;
  const q = nonEmpty(ex.query.q);
  const ids = listViewsOf(ex).filter((x) => !x.endsWith('?q') && x.includes('?')).map((x) => x.split('?')[1]!);
  if (base.kind === 'q') return q;
  if (base.kind === 'filter') return !q && ids.length === base.filters!.length && base.filters!.every((f) => ids.includes(f));
  return !q && (base.kind === 'entity' || ids.length === 0);
}

/** A respond hook editing each record the view shows (a list's items, the record, or the copy embedded in them). */
export function editShown(v: ViewElement, edit: (o: Rec, ex: Exchange) => Rec | undefined): NonNullable<Hooks['respond']> {
  return (ex, answer) => {
    if (!asksFor(v, ex) || answer.error || answer.status >= 300 || !answer.body?.length) return answer;
    const body = JSON.parse(String(answer.body)) as Rec;
    const one = (o: Rec): Rec | undefined => {
      if (!v.embedded) return edit(o, ex);
      const inner = o[v.embedded];
      if (!inner || typeof inner !== 'object') return o;
      const edited = edit(inner as Rec, ex);
      return edited === undefined ? o : { ...o, [v.embedded]: edited };
    };
    if (Array.isArray(body.data)) {
      const data = (body.data as Rec[]).map(one).filter((o): o is Rec => o !== undefined);
      return { ...answer, body: JSON.stringify({ ...body, data }) };
    }
    const out = one(body);
    return out === undefined ? answer : { ...answer, body: JSON.stringify(out) };
  };
}

/** `o` with the value at `path` (`a`, `a.b`, `a[].b`) replaced by `fn` of it; `undefined` from `fn` removes it. */
export function mapAt(o: Rec, path: string, fn: (v: unknown) => unknown): Rec {
  const [head, ...rest] = path.split('.');
  const array = head!.endsWith('[]');
  const key = array ? head!.slice(0, -2) : head!;
  if (!(key in o)) return o;
  const v = o[key];
  let next: unknown;
  if (rest.length === 0) next = fn(v);
  else if (array) next = Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? mapAt(x as Rec, rest.join('.'), fn) : x)) : v;
  else next = v && typeof v === 'object' ? mapAt(v as Rec, rest.join('.'), fn) : v;
  const out = { ...o };
  if (next === undefined) delete out[key];
  else out[key] = next;
  return out;
}

export const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
