// Where settings come from: the environment, and the JSON file named by CONFORMANCE_CONFIG
// (validated by config.schema.json). The environment overrides the file. A name the suite does not
// know is an error in either place, with the name it probably meant: a misspelled setting would
// otherwise be ignored, and the run would test something else than asked.
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import type { ConfigError } from './config-error.js';
import { didYouMean } from './suggest.js';

const schema = JSON.parse(readFileSync(new URL('./config.schema.json', import.meta.url), 'utf8')) as {
  properties: Record<string, unknown>;
};
// Compiled when a settings file is given: most runs have none.
let compiled: ValidateFunction | undefined;
const validateFile = (doc: unknown) => (compiled ??= new Ajv2020({ allErrors: true, strict: false }).compile(schema))(doc);

/** Every setting name the harness knows, in a settings file or the environment. */
export const settingNames: readonly string[] = Object.keys(schema.properties);

/**
 * Settings read from the environment only: the file itself, what `conformance run` passes to its
 * own run (--path, --verbose), and what the bundled mock and the container read at their start.
 */
export const environmentOnlyNames = [
  'CONFORMANCE_CONFIG',
  'CONFORMANCE_REPLAY_PATH',
  'CONFORMANCE_CHECK',
  'CONFORMANCE_VERBOSE',
  'CONFORMANCE_MOCK_READINGS',
  'CONFORMANCE_MOCK_DIRECT_READS',
  'CONFORMANCE_IMAGE_ENV',
] as const;

const PREFIX = 'CONFORMANCE_';
const known = new Set<string>([...settingNames, ...environmentOnlyNames]);

export type RawSettings = Record<string, string | undefined>;

const unknownSetting = (name: string, where: string, names: readonly string[]): ConfigError => {
  const near = didYouMean(name, names, PREFIX);
  return { code: 'unknown_setting', setting: name, message: `is not a setting (in ${where})${near ? `: did you mean ${near}?` : ''}` };
};

/** The settings file's problems, one per setting; never repeats a value (it may be a key). */
function fileErrors(file: string, errors: NonNullable<ValidateFunction['errors']>): ConfigError[] {
  const out = new Map<string, ConfigError>();
  for (const err of errors) {
    const extra = err.keyword === 'additionalProperties' ? String(err.params?.additionalProperty ?? '') : undefined;
    if (extra) {
      out.set(extra, unknownSetting(extra, file, settingNames));
      continue;
    }
    const setting = err.instancePath.replace(/^\//, '').split('/')[0] ?? '';
    // A setting typed wrongly fails each branch of its oneOf: one message names what it accepts.
    if (!setting) out.set('', { code: 'config_file_invalid', setting: 'CONFORMANCE_CONFIG', message: `must be a JSON object of settings (in ${file})` });
    else if (!out.has(setting)) out.set(setting, { code: 'config_file_invalid', setting, message: `${accepted(setting)} (in ${file})` });
  }
  return [...out.values()];
}

/** What a setting's value may be in a settings file, read from its schema. */
function accepted(setting: string): string {
  const def = JSON.stringify(schema.properties[setting] ?? {});
  if (def.includes('flag')) return 'must be true, false, "1" or "0"';
  if (def.includes('integer')) return 'must be a number or a string';
  if (def.includes('"enum"')) return `must be one of ${(schema.properties[setting] as { enum: string[]; }).enum.filter(Boolean).join(', ')}`;
  return 'must be a string';
}

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
      errors.push(...fileErrors(file, compiled?.errors ?? []));
    } else if (doc && typeof doc === 'object') {
      for (const [name, value] of Object.entries(doc)) raw[name] = value === undefined || value === null ? undefined : String(value);
    }
  }
  for (const name of Object.keys(env).sort()) {
    if (name.startsWith(PREFIX) && !known.has(name)) errors.push(unknownSetting(name, 'the environment', [...known]));
  }
  for (const name of settingNames) {
    const value = env[name];
    if (value !== undefined) raw[name] = value;
  }
  for (const name of settingNames) if (raw[name] === '') raw[name] = undefined;
  return { raw, errors };
}
