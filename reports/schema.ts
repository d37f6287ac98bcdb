import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// conformance.json is validated before it is written and whenever it is read back
// (report diff), so a reporter bug or a hand-edited file is reported, not trusted.

// ajv-formats is CommonJS: under NodeNext the default import is typed as the module object;
// at runtime it is the plugin, which also carries itself as `.default`.
const addFormats = addFormatsModule.default;

export const reportSchemaPath = new URL('../specs/report.schema.json', import.meta.url);

// Compiled on first use: importing the reporter must not cost a schema compile on every run's start.
let compiled: ValidateFunction | undefined;
function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
    addFormats(ajv);
    compiled = ajv.compile(JSON.parse(readFileSync(reportSchemaPath, 'utf8')) as object);
  }
  return compiled;
}

export interface ReportSchemaError { path: string; message: string; keyword: string }

export function validateReport(value: unknown): { valid: boolean; errors: ReportSchemaError[] } {
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
