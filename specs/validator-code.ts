// The lenient validators of specs/validator.ts as ajv standalone code (CommonJS), written
// by the build to dist/validators.cjs: one export per schema name and one per page
// envelope (`page-of-<name>`), plus `schemaHash`, which specs/validator.ts compares with
// the schemas on disk before using any of it.
import { createRequire } from 'node:module';
import { schemaId, schemaNames } from './names.js';
import { createAjv, pageOfId, pageOfSchema, schemaHash } from './validator.js';

const require = createRequire(import.meta.url);

export function standaloneValidators(): string {
  const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default;
  // A RegExp format (uuid, specs/ids.ts) is emitted as a literal; date and date-time are
  // annotations in lenient mode and emit nothing.
  const ajv = createAjv('lenient', true);
  const exported: Record<string, string> = {};
  for (const name of schemaNames) {
    exported[name] = schemaId(name);
    ajv.addSchema(pageOfSchema(name));
    exported[`page-of-${name}`] = pageOfId(name);
  }
  return `${standaloneCode(ajv, exported)}\nexports.schemaHash = ${JSON.stringify(schemaHash())};\n`;
}
