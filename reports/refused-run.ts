// The report of a run that sent no check: its preflight refused the target (a key refused, an
// address that is not the API, two keys of one team). CI then still gets conformance.json,
// junit.xml and index.html, each saying why nothing was checked, instead of no test result at all.
import type { RunStop } from '../contract/run.js';
import { buildReport } from './build-report.js';
import { loadCatalog } from './catalog.js';
import { secretsFrom } from './redact.js';
import type { Report } from './types.js';
import { writeReport } from './write.js';

export interface RefusedRun {
  stop: RunStop;
  /** The target as the settings name it. */
  target: { kind: 'deployment' | 'container' | 'prism-mock' | 'bundled-mock'; baseUrl: string; };
  seed: number | null;
  startedAt: Date;
  /** The run's settings (keys included: only to redact them). */
  settings: Record<string, string | undefined>;
}

/** Builds and writes the report of a refused run into `dir`; returns it. */
export async function writeRefusedRun(dir: string, run: RefusedRun): Promise<Report> {
  const catalog = await loadCatalog();
  const report = buildReport({
    checks: [],
    catalog: catalog.entries,
    context: { target: run.target, stopped: run.stop, ...(run.seed !== null ? { seed: run.seed } : {}) },
    startedAt: run.startedAt.toISOString(),
    durationMs: Date.now() - run.startedAt.getTime(),
    seed: run.seed,
  });
  await writeReport(dir, report, secretsFrom(run.settings));
  return report;
}
