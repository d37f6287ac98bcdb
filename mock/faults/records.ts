// Where the records of an answer are and how a stored record is shown again, read from the
// operation table: an operation's records are of the kind its success body names (ProjectPage,
// Assignment, FileRecord, ...), in `data` for a list; an assignment embeds its employee. Faults
// that rewrite what a response shows, or change a stored record and answer it again, use these.
import type { Rec } from '../../contract/json.js';
import { collectionOf as collectionOfKind, type RecordKind, resource, resources } from '../../specs/registry.js';
import type { AppContext } from '../reference/context.js';
import type { Exchange, Result } from '../reference/exchange.js';
import type { Answer, Hooks } from '../reference/hooks.js';
import { servedOperations } from '../reference/openapi.js';
import type { Collection, Entry, ResourceName } from '../reference/store.js';

export type { RecordKind };

/** The kinds of record answers show: those of a resource with a record schema. */
export const RECORD_KINDS: readonly RecordKind[] = resources().filter((r) => r.record).map((r) => r.kind);

interface Answers {
  kind: RecordKind;
  list: boolean;
}

/** The kind of record each operation answers with, from the name of its success body. */
const answers = new Map<string, Answers>(servedOperations().flatMap((e) => {
  if (typeof e.returns !== 'string') return [];
  const name = e.returns.replace(/(Page|Response|Record)$/, '');
  const kind = name.charAt(0).toLowerCase() + name.slice(1);
  return (RECORD_KINDS as readonly string[]).includes(kind) ? [[e.operationId, { kind: kind as RecordKind, list: e.list === true }]] : [];
}));

/** The kind of record an operation answers with, if it answers with records. */
export const answersWith = (operationId: string): Answers | undefined => answers.get(operationId);

/** The collection of the records an operation answers with, changes or deletes (its path's first segment). */
export function collectionOf(ctx: AppContext, operationId: string): Collection | undefined {
  const e = servedOperations().find((x) => x.operationId === operationId);
  const segment = e?.path.split('/')[1] as ResourceName | undefined;
  return segment && segment in ctx.store.collections ? ctx.store.collections[segment] : undefined;
}

/** A stored entry as the reference shows it. */
export function shown(ctx: AppContext, kind: RecordKind, e: Entry): string {
  return ctx.render.show(kind, e);
}

/** The kind of record stored in a collection. */
export const kindOfCollection = (col: Collection): RecordKind | undefined => RECORD_KINDS.find((k) => collectionOfKind(k) === col.name);

/** Each record of `kind` in a JSON body of `operationId`: list items, the record itself, an assignment's embedded employee. */
function eachRecord(operationId: string, body: unknown, kind: RecordKind, visit: (o: Rec) => Rec): unknown {
  const a = answersWith(operationId);
  if (!a || body === null || typeof body !== 'object') return body;
  const one = (o: Rec): Rec => {
    let out = o;
    if (a.kind === kind) out = visit(out);
    // a copy of a `kind` record embedded in the answer's records (the registry's embeddings)
    for (const { parent, property } of resource(collectionOfKind(kind)).embeddedIn) {
      if (collectionOfKind(a.kind) === parent && out[property] && typeof out[property] === 'object') out = { ...out, [property]: visit(out[property] as Rec) };
    }
    return out;
  };
  if (a.list) {
    const page = body as Rec;
    return Array.isArray(page.data) ? { ...page, data: (page.data as Rec[]).map(one) } : body;
  }
  return one(body as Rec);
}

/** A respond hook that edits every record of `kind` the successful JSON answers show. */
export function editRecords(kind: RecordKind, edit: (o: Rec, ex: Exchange) => Rec): NonNullable<Hooks['respond']> {
  return (ex, answer) => {
    if (!ex || answer.error || answer.status >= 300 || answer.body === undefined || answer.body.length === 0) return answer;
    if (!answersWith(ex.operationId)) return answer;
    const body = eachRecord(ex.operationId, JSON.parse(String(answer.body)), kind, (o) => edit(o, ex));
    return { ...answer, body: JSON.stringify(body) };
  };
}

/** A respond hook that edits the JSON body of the successful answers of the operations `ops` (all when empty). */
export function editBody(ops: readonly string[], edit: (body: Rec, ex: Exchange) => Rec): NonNullable<Hooks['respond']> {
  return (ex, answer: Answer) => {
    if (!ex || (ops.length > 0 && !ops.includes(ex.operationId)) || answer.error || answer.status >= 300 || !answer.body?.length) return answer;
    return { ...answer, body: JSON.stringify(edit(JSON.parse(String(answer.body)) as Rec, ex)) };
  };
}

/** The operations of a method in the table the mock serves. */
export const operationsOf = (method: 'get' | 'post' | 'patch' | 'delete'): string[] =>
  servedOperations().filter((e) => e.method === method).map((e) => e.operationId);

/** The id of the record a JSON result shows. */
export const idOf = (r: Result): string | undefined => {
  const id = (JSON.parse(String(r.json)) as Rec).id;
  return typeof id === 'string' ? id : undefined;
};
