// What the faults of a write that answers or stores the wrong thing share: the record a write
// changes as it was before, a stored record changed after the reference wrote it, and the answer
// shown again from what is stored.
import type { AppContext } from '../reference/context.js';
import type { Exchange, Result } from '../reference/exchange.js';
import type { Hooks } from '../reference/hooks.js';
import type { Collection, Entry, Row } from '../reference/store.js';
import { answersWith, collectionOf, idOf, type RecordKind, shown } from './records.js';

/** The stored record a write names by its path id, before the write. */
export function before(ctx: AppContext, ex: Exchange): Entry | undefined {
  const col = collectionOf(ctx, ex.operationId);
  return col && ex.params.id !== undefined ? col.get(ex.principal.team, ex.params.id) : undefined;
}

export interface Written {
  col: Collection;
  kind: RecordKind;
  /** The stored record as the reference left it. */
  entry: Entry;
  /** The record as it was before (a PATCH's; none for a create). */
  prior: Entry | undefined;
  result: Result;
}

/** What a write fault does once the reference wrote: store another row (and answer it), or answer otherwise. */
export type Rewrite = { row: Row; } | { answer: Result; } | undefined;

/**
 * A handle hook for the writes `when` picks: runs the reference, then gives `edit` what was written;
 * `edit` may store another row (the answer is then shown again from it) or answer something else.
 */
export function afterWrite(ctx: AppContext, when: (ex: Exchange) => boolean, edit: (w: Written, ex: Exchange) => Rewrite): NonNullable<Hooks['handle']> {
  return async (ex, next) => {
    if (!when(ex)) return next();
    const prior = before(ctx, ex);
    const result = await next();
    const col = collectionOf(ctx, ex.operationId);
    const kind = answersWith(ex.operationId)?.kind;
    if (result.status >= 300 || !col || !kind || result.replayed) return result;
    const id = ex.params.id ?? idOf(result);
    const entry = id === undefined ? undefined : col.get(ex.principal.team, id) ?? col.find(id);
    if (!entry) return result;
    const rewrite = edit({ col, kind, entry, prior, result }, ex);
    if (rewrite === undefined) return result;
    if ('answer' in rewrite) return rewrite.answer;
    return { ...result, json: shown(ctx, kind, col.replace(entry, rewrite.row)) };
  };
}

/** `row` with `fields` as they were in `prior` (absent where they were absent). */
export function restored(row: Row, prior: Row | undefined, fields: readonly string[]): Row {
  const out: Row = { ...row };
  for (const k of fields) {
    if (prior && k in prior) out[k] = prior[k];
    else delete out[k];
  }
  return out;
}
