// The suites' check registrations, as the run's file selection (suites/conformance.config.ts),
// the coverage test and `conformance requirements` all read them, so they cannot disagree. They
// are read from the source by one reader (registration-reader.ts, the TypeScript compiler); a run
// from dist/ must not need the compiler, so the build writes what the reader read to
// dist/registrations.json with the hash of each suite file, and that manifest is used while every
// suite file is as it was read. Otherwise (a suite file edited since the build) the reader runs.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Registration } from './registration-reader.js';

export type { Registration } from './registration-reader.js';

/** dist/registrations.json: the registrations, and the hash of each suite file they were read from. */
export interface RegistrationsManifest {
  /** `suites/<file>` → SHA-256 of its source. */
  files: Record<string, string>;
  registrations: Registration[];
}

const PROJECT_SUITES = fileURLToPath(new URL('../..', import.meta.url));
export const REGISTRATIONS_MANIFEST = fileURLToPath(new URL('../../../dist/registrations.json', import.meta.url));

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The suite files of `suitesDir` in name order, named as reports name them (`suites/<file>`), with their sources. */
function suiteSources(suitesDir: string): { file: string; source: string; }[] {
  const folder = basename(suitesDir);
  return readdirSync(suitesDir)
    .filter((f) => f.endsWith('.check.ts'))
    .sort()
    .map((f) => ({ file: `${folder}/${f}`, source: readFileSync(join(suitesDir, f), 'utf8') }));
}

function readManifest(path: string): RegistrationsManifest | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RegistrationsManifest;
  } catch {
    return undefined;
  }
}

/** Whether the manifest was read from exactly these sources. */
function readFrom(manifest: RegistrationsManifest | undefined, sources: readonly { file: string; source: string; }[]): manifest is RegistrationsManifest {
  if (!manifest?.files || !Array.isArray(manifest.registrations)) return false;
  const files = Object.keys(manifest.files);
  return files.length === sources.length && sources.every(({ file, source }) => manifest.files[file] === sha256(source));
}

/** Every registration of `<suitesDir>/*.check.ts`, files in name order, each file's in source order. */
export async function suiteRegistrations(suitesDir: string = PROJECT_SUITES, manifestPath = REGISTRATIONS_MANIFEST): Promise<Registration[]> {
  const sources = suiteSources(suitesDir);
  const manifest = readManifest(manifestPath);
  if (readFrom(manifest, sources)) return manifest.registrations;
  return (await readRegistrations(sources)).registrations;
}

async function readRegistrations(sources: readonly { file: string; source: string; }[]): Promise<RegistrationsManifest> {
  const { registrationsIn } = await import('./registration-reader.js');
  return {
    files: Object.fromEntries(sources.map(({ file, source }) => [file, sha256(source)])),
    registrations: sources.flatMap(({ file, source }) => registrationsIn(file, source)),
  };
}

/** dist/registrations.json as build/bundle.mjs writes it: the project's suites, read at build time. */
export async function registrationsManifest(suitesDir: string = PROJECT_SUITES): Promise<string> {
  return `${JSON.stringify(await readRegistrations(suiteSources(suitesDir)), null, 1)}\n`;
}
