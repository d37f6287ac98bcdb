import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { leakedSecrets, redactDeep, redactString, type Secret } from './redact.js';
import { reproduceScript } from './reproduce.js';
import { formatSchemaErrors, validateReport } from './schema.js';
import type { Report } from './types.js';

export const REPORT_FILES = { json: 'conformance.json', junit: 'junit.xml', html: 'index.html' } as const;

export class ReportWriteError extends Error {
  constructor(readonly code: 'REPORT_SCHEMA_INVALID' | 'REPORT_SECRET_LEAK', message: string) {
    super(message);
    this.name = 'ReportWriteError';
  }
}

export interface RenderedReport {
  report: Report;
  files: Record<keyof typeof REPORT_FILES, string>;
  /** The reproduction script of each cause that has one, by file name (failure.reproduce). */
  scripts: Record<string, string>;
}

/** Redacts, validates and renders the three files in memory (nothing is written on error). */
export function renderReport(raw: Report, secrets: readonly Secret[]): RenderedReport {
  const report = redactDeep(raw, secrets);
  const result = validateReport(report);
  if (!result.valid) {
    throw new ReportWriteError('REPORT_SCHEMA_INVALID',
      `conformance.json does not match specs/report.schema.json (a reporter bug):\n${formatSchemaErrors(result.errors)}`);
  }
  const files = {
    json: `${JSON.stringify(report, null, 2)}\n`,
    junit: redactString(renderJunit(report), secrets),
    html: redactString(renderHtml(report), secrets),
  };
  const scripts: Record<string, string> = {};
  for (const cause of report.causes ?? []) {
    const script = cause.failure.reproduce
      && reproduceScript(cause, { ...(report.runId ? { runId: report.runId } : {}), mockLines: report.reproduce?.mock ?? [] });
    if (script) scripts[cause.failure.reproduce!] = redactString(script, secrets);
  }
  for (const [name, text] of [...Object.entries(files), ...Object.entries(scripts)]) {
    const leaked = leakedSecrets(text, secrets);
    if (leaked.length > 0) throw new ReportWriteError('REPORT_SECRET_LEAK', `${name} would contain the value of ${leaked.join(', ')}`);
  }
  return { report, files, scripts };
}

/** Writes conformance.json, junit.xml and index.html into dir; returns their paths. */
export async function writeReport(dir: string, raw: Report, secrets: readonly Secret[]): Promise<Record<keyof typeof REPORT_FILES, string>> {
  const { files, scripts } = renderReport(raw, secrets);
  await mkdir(dir, { recursive: true });
  const paths = {
    json: join(dir, REPORT_FILES.json),
    junit: join(dir, REPORT_FILES.junit),
    html: join(dir, REPORT_FILES.html),
  };
  await Promise.all((Object.keys(paths) as (keyof typeof paths)[]).map((k) => writeFile(paths[k], files[k], 'utf8')));
  for (const [name, text] of Object.entries(scripts)) {
    await writeFile(join(dir, name), text, 'utf8');
    await chmod(join(dir, name), 0o755);
  }
  return paths;
}
