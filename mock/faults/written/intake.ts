// Written faults of the capture intake (§1: deduplication on (team, source, external_id); a repeat
// capture answers 200 with the existing item).
import type { AppContext } from '../../reference/context.js';
import type { Exchange, Result } from '../../reference/exchange.js';
import type { Hooks } from '../../reference/hooks.js';
import { json } from '../../reference/resources/common.js';
import { threadKey } from '../../reference/resources/intake.js';
import type { Entry } from '../../reference/store.js';
import { fault } from '../fault.js';

/** A handle hook of the capture intake: `before` may answer instead, or change what the reference finds. */
const captures = (
  before: (ex: Exchange, thread: string, ctx: AppContext) => Promise<Result | undefined> | Result | undefined,
  ctx: AppContext,
): NonNullable<Hooks['handle']> =>
async (ex, next) => {
  if (ex.operationId !== 'createCapture') return next();
  return (await before(ex, threadKey(ex.body), ctx)) ?? next();
};

/** The captures of a thread: the caller's team's, or every other team's. */
const ofThread = (ctx: AppContext, thread: string, team?: string): Entry[] =>
  ctx.store.collections.captures.entries().filter((e) => e.extra.thread === thread && (team === undefined || e.team === team));

/** The reference no longer finds these captures when it looks for the thread. */
const forget = (entries: Entry[]) => entries.forEach((e) => (e.extra.thread = undefined));

export const intakeFaults = [
  fault('capture-rejected', ['INTAKE-PENDING-REVIEW'], 'the capture intake answers 404', () => ({
    routes: (t) => ({ ...t, routes: t.routes.filter((r) => r.operationId !== 'createCapture') }),
  })),
  fault('capture-dedupe-broken', ['INTAKE-DEDUP-TRIPLE', 'INTAKE-REPEAT-200'], 'every capture creates a new item', (ctx) => ({
    handle: captures((ex, thread) => void forget(ofThread(ctx, thread, ex.principal.team)), ctx),
  })),
  fault('capture-dedupe-cross-team', ['INTAKE-DEDUP-TRIPLE'], "deduplication ignores the team: team B receives team A's item", (ctx) => ({
    handle: captures((ex, thread) => {
      if (ofThread(ctx, thread, ex.principal.team).length > 0) return undefined;
      const other = ofThread(ctx, thread)[0];
      return other ? json(200, other.row) : undefined;
    }, ctx),
  })),
  fault('capture-dedupe-taken-over', ['INTAKE-DEDUP-TRIPLE'],
    "one deduplication entry per (source, external_id): another team's capture of the thread gets its own item and takes the entry, so this team's next repeat creates another",
    (ctx) => ({ handle: captures((ex, thread) => void forget(ofThread(ctx, thread).filter((e) => e.team !== ex.principal.team)), ctx) })),
  fault('capture-repeat-status-wrong', ['INTAKE-REPEAT-200'], 'a repeated capture answers 201 instead of 200', () => ({
    respond: (ex, answer) => (ex?.operationId === 'createCapture' && answer.status === 200 ? { ...answer, status: 201 } : answer),
  })),
  fault('capture-dedupe-on-external-id-only', ['INTAKE-DEDUP-TRIPLE'],
    'deduplication ignores the source: the same external_id from another source answers the first item', (ctx) => ({
      handle: captures((ex) => {
        const first = ctx.store.collections.captures.entries(ex.principal.team).find((e) =>
          e.row.external_id === ex.body.external_id && e.extra.thread !== undefined
        );
        return first ? json(200, first.row) : undefined;
      }, ctx),
    })),
  fault('capture-dedupe-includes-title', ['INTAKE-DEDUP-TRIPLE', 'INTAKE-REPEAT-200'],
    'deduplication also compares the title: a repeat capture with another title creates another item', (ctx) => {
    const titles = new Map<string, unknown>();
    return {
      handle: async (ex, next) => {
        if (ex.operationId !== 'createCapture') return next();
        forget(ofThread(ctx, threadKey(ex.body), ex.principal.team).filter((e) => titles.get(e.row.id) !== ex.body.title));
        const result = await next();
        const id = (JSON.parse(String(result.json)) as { id?: string; }).id;
        if (id !== undefined && !titles.has(id)) titles.set(id, ex.body.title);
        return result;
      },
    };
  }),
  fault('capture-concurrent-duplicates', ['INTAKE-DEDUP-TRIPLE', 'INTAKE-REPEAT-200'], 'concurrent captures of one thread each create an item', (ctx) => ({
    // no lock between looking for the thread and storing it: what arrived meanwhile is not seen
    handle: captures(async (ex, thread) => {
      if (ofThread(ctx, thread, ex.principal.team).length > 0) return undefined;
      await new Promise((r) => setTimeout(r, 150));
      forget(ofThread(ctx, thread, ex.principal.team));
      return undefined;
    }, ctx),
  })),
  fault('capture-proposes-other-team-project', ['ISO-OTHER-TEAM-AS-MISSING'],
    "a capture whose external_id is another team's project's source_external_id proposes that project: the thread lookup has no team condition", (ctx) => ({
      handle: async (ex, next) => {
        const result = await next();
        if (ex.operationId !== 'createCapture' || result.status !== 201) return result;
        const theirs = ctx.store.collections.projects.entries().find((e) => e.team !== ex.principal.team && e.row.source_external_id === ex.body.external_id);
        const item = JSON.parse(String(result.json)) as Record<string, unknown>;
        const stored = ctx.store.collections.captures.get(ex.principal.team, String(item.id));
        if (!theirs || !stored || item.proposed_project_id !== null) return result;
        const pid = theirs.row.id;
        const row = { ...stored.row, proposed_project_id: pid, proposed_mapping: { project_id: pid, action: 'link', confidence: 1 } };
        ctx.store.collections.captures.replace(stored, row);
        return json(result.status, row);
      },
    })),
] as const;
