// The writing end of the run's journal (contract/journal.ts): each test worker appends its events
// to the file the global setup named. The file's path is per-worker state, owned here: set once
// per worker by the session (suites/harness/session.ts).
import { appendFileSync } from 'node:fs';
import type { JournalEvent } from '../../../contract/journal.js';

let path: string | undefined;

/** Where this worker appends (the global setup's choice, handed to the workers). */
export function useJournal(file: string | undefined): void {
  path = file;
}

export function journal(event: JournalEvent): void {
  if (!path) return;
  try {
    appendFileSync(path, `${JSON.stringify(event)}\n`);
  } catch {
    // the account is best effort; the run itself must not fail on it
  }
}
