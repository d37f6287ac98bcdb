// The run's journal (C4 in ARCHITECTURE.md): what the test workers did to the target, one JSON
// line per event, appended as it happens (so a worker that dies still leaves its account). The
// workers write it (suites/harness/run/journal.ts); the reporter reads it back into the report's
// accounting: records left behind, pre-existing records touched and whether they are back as they
// were, requests sent, why the run stopped. Never holds a key or a record's content: kinds, ids,
// key names, field names.
import { existsSync, readFileSync } from 'node:fs';
import { collectionOf, type RecordKind } from '../specs/registry.js';
import type { Leftovers, RunAccounting, StopCause, TouchedRecord } from './run.js';
import type { KeyName } from './settings.js';

export type { RecordKind };

export type JournalEvent =
  /** A record the run created; `deletable: false` when the API offers no way to delete it. */
  | { e: 'created'; kind: RecordKind; id: string; auth: KeyName; deletable: boolean; name?: string; }
  | { e: 'deleted'; id: string; }
  /** A record the run created and leaves behind, and why. */
  | { e: 'left'; kind: RecordKind; id: string; why: string; }
  /** A record the run did not create, snapshotted before its first change. */
  | { e: 'touched'; resource: string; id: string; auth: KeyName; scratch: boolean; }
  | { e: 'restored'; resource: string; id: string; back: boolean; differences: string[]; }
  | { e: 'requests'; file: string; count: number; }
  | { e: 'stopped'; cause: StopCause; message: string; };

export function readEvents(file: string): JournalEvent[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).flatMap((line) => {
    try {
      return [JSON.parse(line) as JournalEvent];
    } catch {
      return [];
    }
  });
}

/** The events folded into the report's accounting. */
export function accountFor(events: readonly JournalEvent[]): RunAccounting {
  const created = new Map<string, Extract<JournalEvent, { e: 'created'; }>>();
  const deleted = new Set<string>();
  const left = new Map<string, string>();
  const touched = new Map<string, TouchedRecord>();
  let requests = 0;
  let stopped: RunAccounting['stopped'];
  for (const ev of events) {
    if (ev.e === 'created') created.set(ev.id, ev);
    else if (ev.e === 'deleted') {
      deleted.add(ev.id);
      left.delete(ev.id);
    } else if (ev.e === 'left') {
      left.set(ev.id, ev.why);
      if (!created.has(ev.id)) created.set(ev.id, { e: 'created', kind: ev.kind, id: ev.id, auth: 'team', deletable: true });
    } else if (ev.e === 'touched') {
      const key = `${ev.resource}/${ev.id}`;
      if (!touched.has(key)) touched.set(key, { resource: ev.resource, id: ev.id, auth: ev.auth, scratch: ev.scratch, restored: null, differences: [] });
    } else if (ev.e === 'restored') {
      const t = touched.get(`${ev.resource}/${ev.id}`);
      if (t) Object.assign(t, { restored: ev.back, differences: ev.differences });
    } else if (ev.e === 'requests') requests += ev.count;
    else if (ev.e === 'stopped') stopped ??= { cause: ev.cause, message: ev.message };
  }
  const leftovers: Leftovers = {};
  for (const c of created.values()) {
    if (deleted.has(c.id)) continue;
    const why = left.get(c.id) ?? (c.deletable ? 'not deleted: the run ended before its cleanup' : 'the API offers no way to delete it');
    const entry = (leftovers[collectionOf(c.kind)] ??= { count: 0, ids: [], why: [] });
    entry.count += 1;
    entry.ids.push(c.id);
    if (c.name !== undefined) (entry.names ??= {})[c.id] = c.name;
    if (!entry.why.includes(why)) entry.why.push(why);
  }
  return { leftovers, touched: [...touched.values()], requests, ...(stopped ? { stopped } : {}) };
}

export function readAccounting(file: string): RunAccounting {
  return accountFor(readEvents(file));
}
