import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// conformance.json is validated before it is written and whenever it is read back
// (report diff), so a reporter bug or a hand-edited file is reported, not trusted.
//
// Compiling the schema costs tens of milliseconds at the end of every run, so the build writes
// ajv's standalone code of it to dist/report-validator.cjs (build/bundle.mjs, reportValidatorCode
// below); it is used when its hash matches the schema on disk and this ajv, and ajv compiles the
// schema otherwise. Either way the same validator runs.

// ajv-formats is CommonJS: under NodeNext the default import is typed as the module object;
// at runtime it is the plugin, which also carries itself as `.default`.
const addFormats = addFormatsModule.default;
const require = createRequire(import.meta.url);

export const reportSchemaPath = new URL('../specs/report.schema.json', import.meta.url);
const PRECOMPILED = fileURLToPath(new URL('../dist/report-validator.cjs', import.meta.url));

/** Options of the validator; part of the precompiled code's hash. */
const AJV_OPTIONS = { allErrors: true, strict: true, strictRequired: false } as const;

function newAjv(standalone: boolean): Ajv2020 {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, ...(standalone ? { code: { source: true } } : {}) });
  addFormats(ajv);
  return ajv;
}

/** What the precompiled validator was generated from: ajv's version, the options and the schema. */
function schemaHash(schemaText: string): string {
  const ajvVersion = (require('ajv/package.json') as { version: string; }).version;
  return createHash('sha256').update(`ajv ${ajvVersion} ${JSON.stringify(AJV_OPTIONS)}\n${schemaText}`).digest('hex');
}

/** ajv's standalone code of the report schema, as CommonJS with its schemaHash (written by the build). */
export function reportValidatorCode(): string {
  const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default;
  const text = readFileSync(reportSchemaPath, 'utf8');
  const ajv = newAjv(true);
  const validate = ajv.compile(JSON.parse(text) as object);
  return `${standaloneCode(ajv, validate)}\nmodule.exports.schemaHash = ${JSON.stringify(schemaHash(text))};\n`;
}

/** The build's validator when it was generated from this schema and ajv, else undefined. */
function precompiled(schemaText: string): ValidateFunction | undefined {
  try {
    const fn = require(PRECOMPILED) as ValidateFunction & { schemaHash?: string; };
    return fn.schemaHash === schemaHash(schemaText) ? fn : undefined;
  } catch {
    return undefined;
  }
}

// Loaded or compiled on first use: importing the reporter must not cost it on every run's start.
let compiled: ValidateFunction | undefined;
function validator(): ValidateFunction {
  if (!compiled) {
    const text = readFileSync(reportSchemaPath, 'utf8');
    compiled = precompiled(text) ?? newAjv(false).compile(JSON.parse(text) as object);
  }
  return compiled;
}

export interface ReportSchemaError {
  path: string;
  message: string;
  keyword: string;
}

export function validateReport(value: unknown): { valid: boolean; errors: ReportSchemaError[]; } {
  const validate = validator();
  const valid = validate(value) as boolean;
  const errors = (validate.errors ?? []).map((e) => ({ path: e.instancePath || '/', message: e.message ?? e.keyword, keyword: e.keyword }));
  return { valid, errors };
}

export function formatSchemaErrors(errors: readonly ReportSchemaError[], limit = 10): string {
  const lines = errors.slice(0, limit).map((e) => `  ${e.path}: ${e.message}`);
  if (errors.length > limit) lines.push(`  … and ${errors.length - limit} more`);
  return lines.join('\n');
}
