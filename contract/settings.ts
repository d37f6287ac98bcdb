// The typed target settings (C4 in ARCHITECTURE.md) the harness, the reporter and `conformance run`
// read. Parsed and validated by config.ts; plain data so they can be handed from the global setup
// to the test workers.
import { type Collection, listedCollections, pageableCollections } from '../specs/registry.js';
import type { Selection } from './selection.js';

export type Shape = 'full' | 'legacy';
/** A list a run walks whole (no filter it must be given). */
export type ListResource = Collection;
export const listResources: readonly ListResource[] = pageableCollections();
/** The lists whose sort fields a target may name (CONFORMANCE_SORT_FIELDS): every list, a list with a required filter too. */
export const sortableResources: readonly ListResource[] = listedCollections();

/** An endpoint whose path the API document does not show: method (when given) and path. */
export interface Endpoint {
  method: string;
  /** Absolute path from the base URL, e.g. `/api/public/v1/files/{id}`. */
  path: string;
}

export interface Settings {
  baseUrl?: string;
  keys: { team?: string; otherTeam?: string; readOnly?: string; noApiAccess?: string; };
  paths: {
    organizationCreate: Endpoint; // default POST /organizations (the document's table)
    attachmentDownload?: Endpoint;
    fileDelete?: Endpoint;
    captureIntake?: Endpoint;
    openapi?: Endpoint;
  };
  /** Sort fields per list; a list with none is exercised with the default sort only. */
  sortFields: Partial<Record<ListResource, string[]>>;
  shape: Shape | 'auto';
  readOnly: boolean;
  seed?: number;
  numRuns: number;
  statefulRuns: number;
  /** Steps at most per model-based run (CONFORMANCE_STATEFUL_STEPS). */
  statefulSteps: number;
  timeoutMs: number;
  concurrency: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  /** Deadline of the whole run (CONFORMANCE_RUN_TIMEOUT), in ms. */
  runTimeoutMs: number;
  /** Timeout of each preflight request (CONFORMANCE_PREFLIGHT_TIMEOUT_MS). */
  preflightTimeoutMs: number;
  /** Consecutive requests without a response after which the run stops (CONFORMANCE_STOP_AFTER_NO_RESPONSE). */
  stopAfterNoResponse: number;
  /** Projects of team A set aside for testing: changed first, and changes that cannot be undone happen only there. */
  scratchProjects: string[];
  /** Page budget of one walk over a list (CONFORMANCE_WALK_PAGES). */
  walkPages: number;
  /** CONFORMANCE_ONLY and CONFORMANCE_EXCLUDE. */
  selection: Selection;
  reportDir: string;
  mock: { fault?: string; shape?: Shape; deprecate: string[]; population?: number; };
  image?: string;
  imagePort?: number;
  viaPrism: boolean;
  /** A target named outright: Prism's mock of specs/openapi.json, or the bundled mock (even with keys set). */
  target?: 'prism-mock' | 'bundled-mock';
}

export const API_PREFIX = '/api/public/v1';

/** Documented defaults (see config.schema.json for each setting's meaning). */
export const defaults = {
  organizationCreate: { method: 'POST', path: `${API_PREFIX}/organizations` } as Endpoint,
  shape: 'auto' as const,
  numRuns: 8,
  statefulRuns: 5,
  statefulSteps: 25,
  timeoutMs: 15_000,
  concurrency: 4,
  maxRetries: 3,
  maxRetryAfterMs: 10_000,
  /** A run against a responsive deployment takes minutes; this bounds a run that hangs. */
  runTimeoutMs: 30 * 60_000,
  preflightTimeoutMs: 5_000,
  stopAfterNoResponse: 5,
  walkPages: 10,
  reportDir: 'out',
  /** The bundled mock deprecates nothing of its own accord; one deprecated operation gives the §9
   *  deprecation checks something to check in the main job. Set CONFORMANCE_MOCK_DEPRECATE='' for none. */
  mockDeprecate: ['listCvs'],
};

/** The keys a run may be given; a check names those it needs besides the team's. */
export type KeyName = keyof Settings['keys'];
/** The setting of each key: shown wherever the key itself would be (keys never leave the process). */
export const keySettingNames: Record<KeyName, string> = {
  team: 'CONFORMANCE_API_KEY',
  otherTeam: 'CONFORMANCE_API_KEY_OTHER_TEAM',
  readOnly: 'CONFORMANCE_API_KEY_READ_ONLY',
  noApiAccess: 'CONFORMANCE_API_KEY_NO_API_ACCESS',
};

/** What a check that needs each key needs it for, in a skip reason's words. */
export const keyNeeds: Record<KeyName, string> = {
  team: 'a key of team A',
  otherTeam: 'a key of another team',
  readOnly: 'a team A key with read scopes only',
  noApiAccess: 'a key of a plan without API access',
};

/** Settings a check can require; a missing one skips the check with this name as the reason. */
export type PathSetting = keyof Settings['paths'];

/** What each path setting gives, in a skip reason's words: the document names the endpoint but shows no path. */
export const pathNeeds: Record<PathSetting, string> = {
  organizationCreate: 'the path of create organization',
  attachmentDownload: 'the path of the attachment download, which §4 names but does not show',
  fileDelete: 'the path of the file delete, which §4 names but does not show',
  captureIntake: 'the path of the capture intake, which §1 names but does not show',
  openapi: 'the path of the machine-readable description (§9), which the document does not show',
};
export const pathSettingNames: Record<PathSetting, string> = {
  organizationCreate: 'CONFORMANCE_PATH_ORGANIZATION_CREATE',
  attachmentDownload: 'CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD',
  fileDelete: 'CONFORMANCE_PATH_FILE_DELETE',
  captureIntake: 'CONFORMANCE_PATH_CAPTURE_INTAKE',
  openapi: 'CONFORMANCE_PATH_OPENAPI',
};
