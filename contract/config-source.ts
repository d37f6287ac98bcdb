// Where settings come from: the environment, and the JSON file named by CONFORMANCE_CONFIG
// (validated by config.schema.json). The environment overrides the file.
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import type { ConfigError } from './config-error.js';

const schema = JSON.parse(readFileSync(new URL('./config.schema.json', import.meta.url), 'utf8')) as {
  properties: Record<string, unknown>;
};
// Compiled when a settings file is given: most runs have none.
let compiled: ValidateFunction | undefined;
const validateFile = (doc: unknown) => (compiled ??= new Ajv2020({ allErrors: true, strict: false }).compile(schema))(doc);

/** Every setting name the harness knows. */
export const settingNames: readonly string[] = Object.keys(schema.properties);

export type RawSettings = Record<string, string | undefined>;

export function readSources(env: NodeJS.ProcessEnv): { raw: RawSettings; errors: ConfigError[]; } {
  const raw: RawSettings = {};
  const errors: ConfigError[] = [];
  const file = env.CONFORMANCE_CONFIG;
  if (file) {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? 'not valid JSON';
      errors.push({ code: 'config_file_unreadable', setting: 'CONFORMANCE_CONFIG', message: `cannot read ${file}: ${why}` });
    }
    if (doc !== undefined && !validateFile(doc)) {
      for (const err of compiled?.errors ?? []) {
        const setting = String(err.params?.additionalProperty ?? err.instancePath.replace(/^\//, '').split('/')[0] ?? '');
        const code = err.keyword === 'additionalProperties' ? 'unknown_setting' : 'config_file_invalid';
        // the value itself is never repeated: it may be a key
        errors.push({ code, setting: setting || 'CONFORMANCE_CONFIG', message: `${file}: ${setting || 'document'} ${err.message}` });
      }
    } else if (doc && typeof doc === 'object') {
      for (const [name, value] of Object.entries(doc)) raw[name] = value === undefined || value === null ? undefined : String(value);
    }
  }
  for (const name of settingNames) {
    const value = env[name];
    if (value !== undefined) raw[name] = value;
  }
  for (const name of settingNames) if (raw[name] === '') raw[name] = undefined;
  return { raw, errors };
}
