// Compiles every schema of specs/schemas/ once and validates values against them.
//
// Formats. §2 states that identifiers are UUIDs, but "formats of timestamps and dates
// are not shown". Every schema still carries `format: date-time` on *_at and
// `format: date` on *_date, as annotations. The default validator (`ajv`, lenient)
// asserts `uuid` and ignores date/date-time, so a deployment that writes timestamps as,
// say, epoch-millisecond strings is not failed for it (the ambiguity rule). A second
// instance asserting RFC 3339 date/date-time is built on first use of
// `{ formats: 'strict' }`, for checks that want to record which reading a target chose.

import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { UUID_PATTERN } from './ids.js';
import { readSchemaFile, schemaId, schemaNames, type SchemaName } from './names.js';

// ajv-formats is CommonJS typed with `export default`: under NodeNext the default import
// is typed as the module object, while at runtime it is the plugin, which also carries
// itself as `.default`. `.default` is right for both.
const addFormats = addFormatsModule.default;

export type FormatMode = 'lenient' | 'strict';

export interface SchemaError {
  /** JSON Pointer into the value; for a missing property, the pointer the property would have. */
  path: string;
  message: string;
  /** The JSON Schema keyword that failed (required, type, format, enum, ...). */
  keyword: string;
}

export interface ValidationResult {
  valid: boolean;
  errors: SchemaError[];
}

export interface ValidateOptions {
  /** Default 'lenient': date and date-time formats are annotations (see file comment). */
  formats?: FormatMode;
}

function createAjv(mode: FormatMode): Ajv2020 {
  const instance = new Ajv2020({ allErrors: true, strict: true });
  addFormats(instance);
  instance.addFormat('uuid', UUID_PATTERN);
  if (mode === 'lenient') {
    instance.addFormat('date', true);
    instance.addFormat('date-time', true);
  }
  for (const name of schemaNames) instance.addSchema(readSchemaFile(name));
  // Compile everything now, so a broken schema fails at load rather than at first use.
  for (const name of schemaNames) instance.getSchema(schemaId(name));
  return instance;
}

/** The single Ajv2020 instance of the default (lenient) mode, every schema added once. */
export const ajv: Ajv2020 = createAjv('lenient');
let strictAjv: Ajv2020 | undefined;

function instanceFor(mode: FormatMode): Ajv2020 {
  if (mode === 'lenient') return ajv;
  strictAjv ??= createAjv('strict');
  return strictAjv;
}

const compiled = new Map<string, ValidateFunction>();

function validatorFor(mode: FormatMode, key: string, build: (a: Ajv2020) => ValidateFunction) {
  const cacheKey = `${mode} ${key}`;
  let fn = compiled.get(cacheKey);
  if (!fn) {
    fn = build(instanceFor(mode));
    compiled.set(cacheKey, fn);
  }
  return fn;
}

function run(fn: ValidateFunction, value: unknown): ValidationResult {
  const valid = fn(value) as boolean;
  return { valid, errors: valid ? [] : (fn.errors ?? []).map(toSchemaError) };
}

export function toSchemaError(e: ErrorObject): SchemaError {
  const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
  const path = missing === undefined ? e.instancePath : `${e.instancePath}/${escapePointer(missing)}`;
  return { path, message: e.message ?? e.keyword, keyword: e.keyword };
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function validate(name: SchemaName, value: unknown, options: ValidateOptions = {}): ValidationResult {
  const mode = options.formats ?? 'lenient';
  const fn = validatorFor(mode, name, (a) => {
    const got = a.getSchema(schemaId(name));
    if (!got) throw new Error(`schema not loaded: ${name}`);
    return got;
  });
  return run(fn, value);
}

/** A page envelope whose `data` items are `item`, compiled once per item and mode. */
export function validatePage(item: SchemaName, value: unknown, options: ValidateOptions = {}): ValidationResult {
  const mode = options.formats ?? 'lenient';
  const fn = validatorFor(mode, `page-of-${item}`, (a) =>
    a.compile({
      $id: pageOfId(item),
      allOf: [
        { $ref: schemaId('page') },
        { type: 'object', properties: { data: { type: 'array', items: { $ref: schemaId(item) } } } },
      ],
    }),
  );
  return run(fn, value);
}

export function pageOfId(item: SchemaName): string {
  return schemaId('page').replace(/page\.json$/, `page-of-${item}.json`);
}
