// The version of the API document the suite checks: the catalog's `specVersion`
// (specs/requirements.json), read alone. Importing specs/requirements.ts validates the whole
// catalog with ajv (about 100 ms), which the mock's start-up, the run's main process and
// `--version` do not need; specs/requirements.test.ts ties the version to the document's
// newest changelog row.
import { readFileSync } from 'node:fs';

export const specVersion: string = (JSON.parse(readFileSync(new URL('./requirements.json', import.meta.url), 'utf8')) as { specVersion: string; }).specVersion;
