// One client and one ledger per test worker (one suite file), closed after the file's checks.
// The worker's account of the run (records created and left, records touched and restored,
// requests sent, why traffic stopped) goes to the run's journal. Per-worker state, owned here:
// the client, the ledger and the reset hooks live from a file's first check to closeSession
// (check() registers it after each file; the fault sweep calls it after each concern).
import { auditResponses } from './judge/observe.js';
import { Ledger } from './ledger.js';
import { onTrafficStop, RunStopped, stopTraffic, trafficStop, workerRun } from './run/context.js';
import { journal, useJournal } from './run/journal.js';
import { target } from './run/target.js';
import { ApiClient, TransportError } from './transport/client.js';

let client: ApiClient | undefined;
let ledger: Ledger | undefined;
let inspectorsReady: Promise<void> | undefined;
let workerReady = false;
const resets: (() => void)[] = [];

/** fn runs when a suite file's session ends: memoized fixtures must not outlive their records. */
export function onSessionEnd(fn: () => void): void {
  resets.push(fn);
}

/** Once per worker: the journal, and Ctrl-C (which reaches the workers too) stops traffic rather than the process. */
function readyWorker(): void {
  if (workerReady) return;
  workerReady = true;
  useJournal(target().journal);
  onTrafficStop((s) => journal({ e: 'stopped', cause: s.cause, message: s.message }));
  // The main process cancels the run and waits for the cleanup; this worker must live to do it.
  process.on('SIGINT', () => stopTraffic({ cause: 'interrupted', message: 'interrupted (SIGINT)' }));
}

export function api(): ApiClient {
  readyWorker();
  client ??= new ApiClient(target().settings, { run: workerRun(), observe: auditResponses(target().settings) });
  return client;
}

export function theLedger(): Ledger {
  readyWorker();
  ledger ??= new Ledger(api, target());
  return ledger;
}

/** Why checks can no longer run in this worker (traffic stopped), or undefined. */
export function notRun(): string | undefined {
  return trafficStop()?.message;
}

/** Whether a check's error comes from traffic being stopped rather than from the target's behaviour. */
export function stoppedBy(e: unknown): boolean {
  return trafficStop() !== undefined && (e instanceof RunStopped || e instanceof TransportError || (e as Error)?.name === 'TestRunAbortError');
}

/** A running check was aborted: when the whole run was cancelled (signal, deadline), traffic stops. */
export function onCheckAborted(reason: unknown): void {
  const r = reason as { name?: string; reason?: unknown; } | undefined;
  if (r?.name !== 'TestRunAbortError') return; // a check's own timeout: only that check ends
  const why = String(r.reason ?? '');
  stopTraffic(why === 'deadline'
    ? { cause: 'deadline', message: 'the run deadline (CONFORMANCE_RUN_TIMEOUT) was reached' }
    : { cause: 'interrupted', message: `the run was interrupted${why && why !== 'keyboard-input' ? ` (${why})` : ''}` });
}

/** Behind a Prism proxy, every violation Prism reports in a response fails the running check. */
export function installInspectors(): Promise<void> {
  inspectorsReady ??= (async () => {
    if (!target().settings.viaPrism) return;
    const { installPrismInspector } = await import('./prism-inspector.js');
    installPrismInspector();
  })();
  return inspectorsReady;
}

export async function closeSession(file = 'suite'): Promise<void> {
  if (ledger) await ledger.cleanup();
  if (client) {
    console.log(`[conformance] ${file}: ${client.sent} requests`);
    journal({ e: 'requests', file, count: client.sent });
  }
  for (const reset of resets) reset();
  if (client) await client.close();
  ledger = undefined;
  client = undefined;
}
