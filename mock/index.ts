// The reference mock's library entry (contract C3): start(options) → { url, settings, close }.
// It composes three parts that import one way: the reference behaviour (reference/), a fault's
// hooks into it (faults/), and, for a mock without a fault, the layer that answers plain reads
// before the framework and keeps list pages (fast/). The seed data (seed/) fills the store
// (state.ts). What it exports is the package's `./mock` (package.json "exports"): the types of
// those exports are declared where no type of the framework or the reference is reachable
// (options.ts), so that the published declarations need none of them (build/package.mjs).
import { fastLayer } from './fast/index.js';
import { faults as allFaults, modeFaults } from './faults/index.js';
import type { FailureModeSummary, FaultSummary, MockOptions } from './options.js';
import { buildServer, type Front } from './reference/app.js';
import { sortFieldsSetting } from './reference/lists.js';
import { CHOSEN_PATHS } from './reference/openapi.js';
import type { RouteTable } from './reference/pipeline.js';
import { createState, type MockState } from './state.js';

export { type FailureModeSummary, type FaultSummary, type MockOptions, MockOptionsError } from './options.js';
export { parseReadings, type ReadingChoice, ReadingError, readings } from './reference/readings.js';
/** The seed data's generator of pseudo-random numbers, for workloads that must repeat exactly (bench/). */
export { prng } from './seed/generate.js';

/** Every fault start({ fault }) can switch on: its name, the requirements a run must then report failed, what it does. */
export const faults: readonly FaultSummary[] = allFaults;

/**
 * The faults the failure modes generate over the API's surface (faults/modes/): each switched on
 * by start({ fault }) as any other. Apart from `faults`, which the self-test proves detected one
 * by one: how many of these the suite detects is measured (bench/failure-modes.ts).
 */
export const failureModes = (): readonly FailureModeSummary[] => modeFaults();

/** Whether start({ fault: name }) knows the fault. */
export const isFaultName = (name: string): boolean =>
  faults.some((f) => f.name === name) || (name.startsWith('mode:') && modeFaults().some((f) => f.name === name));

export interface RunningMock {
  url: string;
  /** The environment pointing the conformance suite at this mock (CONFORMANCE_*). */
  settings: Record<string, string>;
  /** The data directory of the encrypted blob store. */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The fast layer (fast/): list pages kept while current, plain reads answered before the framework.
 * Only over the reference as written: under a fault's hooks everything goes through the pipeline.
 */
function withFastLayer(state: MockState, on: boolean): { table: RouteTable; front?: Front; } {
  return on && Object.keys(state.ctx.hooks).length === 0 ? fastLayer(state.ctx, state.table) : { table: state.table };
}

export async function start(options: MockOptions = {}): Promise<RunningMock> {
  const state = await createState(options);
  const { ctx, openapi, keys, dataDir, dispose } = state;
  try {
    const { table, front } = withFastLayer(state, options.directReads !== false);
    const app = await buildServer(ctx, table, front);
    await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const url = `http://127.0.0.1:${port}`;
    const servers = openapi.doc.servers as { variables: { base_url: { default: string; }; }; }[];
    servers[0]!.variables.base_url.default = url;
    openapi.json = JSON.stringify(openapi.doc);
    const settings: Record<string, string> = {
      CONFORMANCE_BASE_URL: url,
      CONFORMANCE_API_KEY: keys.teamA,
      CONFORMANCE_API_KEY_OTHER_TEAM: keys.teamB,
      CONFORMANCE_API_KEY_READ_ONLY: keys.readOnly,
      CONFORMANCE_API_KEY_NO_API_ACCESS: keys.noApiAccess,
      CONFORMANCE_PATH_ORGANIZATION_CREATE: `POST ${CHOSEN_PATHS.organizationCreate}`,
      CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD: `GET ${CHOSEN_PATHS.attachmentDownload}`,
      CONFORMANCE_PATH_FILE_DELETE: `DELETE ${CHOSEN_PATHS.fileDelete}`,
      CONFORMANCE_PATH_CAPTURE_INTAKE: `POST ${CHOSEN_PATHS.captureIntake}`,
      CONFORMANCE_PATH_OPENAPI: `GET ${CHOSEN_PATHS.openapi}`,
      CONFORMANCE_SORT_FIELDS: sortFieldsSetting(),
    };
    let closed = false;
    return {
      url,
      settings,
      dataDir,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await dispose();
      },
    };
  } catch (err) {
    await dispose();
    throw err;
  }
}
