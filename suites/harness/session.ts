// One client and one ledger per test worker (one suite file), closed after the file's checks.
import { ApiClient } from './client.js';
import { Ledger } from './ledger.js';
import { target } from './target.js';

let client: ApiClient | undefined;
let ledger: Ledger | undefined;
let inspectorsReady: Promise<void> | undefined;
const resets: (() => void)[] = [];

/** fn runs when a suite file's session ends: memoized fixtures must not outlive their records. */
export function onSessionEnd(fn: () => void): void {
  resets.push(fn);
}

export function api(): ApiClient {
  client ??= new ApiClient(target().settings);
  return client;
}

export function theLedger(): Ledger {
  ledger ??= new Ledger(api, target());
  return ledger;
}

/** Behind a Prism proxy, every violation Prism reports in a response fails the running check. */
export function installInspectors(): Promise<void> {
  inspectorsReady ??= (async () => {
    if (!target().settings.viaPrism) return;
    const prism = (await import('./integrations/prism.js')) as { installPrismInspector(): void };
    prism.installPrismInspector();
  })();
  return inspectorsReady;
}

export async function closeSession(file = 'suite'): Promise<void> {
  if (ledger) await ledger.cleanup();
  if (client) console.log(`[conformance] ${file}: ${client.sent} requests`);
  for (const reset of resets) reset();
  if (client) await client.close();
  ledger = undefined;
  client = undefined;
}
