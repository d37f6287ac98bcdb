// Compiles every schema of specs/schemas/ once and validates values against them.
//
// Formats. §2 states that identifiers are UUIDs, but "formats of timestamps and dates
// are not shown". Every schema still carries `format: date-time` on *_at and
// `format: date` on *_date, as annotations. The default validator (`ajv`, lenient)
// asserts `uuid` and ignores date/date-time, so a deployment that writes timestamps as,
// say, epoch-millisecond strings is not failed for it (the ambiguity rule). A second
// instance asserting RFC 3339 date/date-time is built on first use of
// `{ formats: 'strict' }`, for checks that want to record which reading a target chose.
//
// Start-up. Compiling every schema costs a few hundred milliseconds, paid by every process
// that validates (the mock, each test worker). The lenient validators are therefore taken
// from dist/validators.cjs, ajv's standalone code of the same schemas written by the build
// (build/bundle.mjs, specs/validator-code.ts), when its hash matches the schemas on disk;
// otherwise, and in strict mode, ajv compiles on first use. Ajv itself is loaded only then.
// The strict instance compiles every schema, and specs/schemas.test.ts uses it, so a broken
// schema still fails the tests.

import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { UUID_PATTERN, UUID_PATTERN_SOURCE } from './ids.js';
import { readSchemaFile, schemaId, type SchemaName, schemaNames } from './names.js';

const require = createRequire(import.meta.url);

/** Options of every instance; part of the precompiled code's hash. */
const AJV_OPTIONS = { allErrors: true, strict: true } as const;

export type FormatMode = 'lenient' | 'strict';

/** The formats the lenient mode takes as annotations and the strict mode asserts (see file comment). */
export const ANNOTATION_FORMATS: readonly string[] = ['date', 'date-time'];

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

/** A fresh instance with every schema added; `standalone` keeps each function's source (specs/validator-code.ts). */
export function createAjv(mode: FormatMode, standalone = false): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // ajv-formats is CommonJS; its export is the plugin, which also carries itself as `.default`.
  const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
  const instance = new Ajv({ ...AJV_OPTIONS, ...(standalone ? { code: { source: true } } : {}) });
  addFormats(instance);
  instance.addFormat('uuid', UUID_PATTERN);
  if (mode === 'lenient') { for (const format of ANNOTATION_FORMATS) instance.addFormat(format, true); }
  for (const name of schemaNames) instance.addSchema(readSchemaFile(name));
  return instance;
}

type FormatCheck = RegExp | ((value: string) => boolean) | { validate: RegExp | ((value: string) => boolean); };

/**
 * Whether the strict mode's check of `format` accepts the string `value`, without compiling a
 * schema: ajv-formats' own check, as the strict instance runs it (formats it does not know hold).
 */
export function strictFormatHolds(format: string, value: string): boolean {
  const { fullFormats } = require('ajv-formats/dist/formats') as { fullFormats: Record<string, FormatCheck | undefined>; };
  const entry = fullFormats[format];
  const check = entry !== undefined && typeof entry === 'object' && 'validate' in entry ? entry.validate : entry;
  if (check instanceof RegExp) return check.test(value);
  return typeof check === 'function' ? check(value) : true;
}

/** The page-envelope schema whose `data` items are `item` (validatePage). */
export function pageOfSchema(item: SchemaName): object {
  return {
    $id: pageOfId(item),
    allOf: [
      { $ref: schemaId('page') },
      { type: 'object', properties: { data: { type: 'array', items: { $ref: schemaId(item) } } } },
    ],
  };
}

/**
 * What the precompiled validators were generated from: ajv's version, the options, the uuid
 * pattern and every schema document. Bump the trailing number when the generator changes.
 */
export function schemaHash(): string {
  const hash = createHash('sha256').update(
    `ajv ${(require('ajv/package.json') as { version: string; }).version} ${JSON.stringify(AJV_OPTIONS)} ${UUID_PATTERN_SOURCE} 1\n`,
  );
  for (const name of schemaNames) hash.update(`${name}\n${JSON.stringify(readSchemaFile(name))}\n`);
  return hash.digest('hex');
}

const PRECOMPILED = fileURLToPath(new URL('../dist/validators.cjs', import.meta.url));
let precompiled: Record<string, ValidateFunction> | null | undefined;

/** The build's lenient validators by key (schema name, or page-of-<name>); null when absent or stale. */
function precompiledValidators(): Record<string, ValidateFunction> | null {
  if (precompiled !== undefined) return precompiled;
  try {
    const mod = require(PRECOMPILED) as Record<string, ValidateFunction> & { schemaHash?: string; };
    precompiled = mod.schemaHash === schemaHash() ? mod : null;
  } catch {
    precompiled = null;
  }
  return precompiled;
}

const instances = new Map<FormatMode, Ajv2020>();

function instanceFor(mode: FormatMode): Ajv2020 {
  let instance = instances.get(mode);
  if (!instance) {
    instance = createAjv(mode);
    // Compile everything now, so a broken schema fails at its first use rather than later.
    for (const name of schemaNames) instance.getSchema(schemaId(name));
    instances.set(mode, instance);
  }
  return instance;
}

/**
 * The single Ajv2020 instance of the default (lenient) mode, every schema added once. Built on
 * first use: validate() and validatePage() mostly run on precompiled code and never need it.
 */
export const ajv: Ajv2020 = lazyInstance(() => instanceFor('lenient'));

/** An object standing for the value `make` returns, made on the first use of any member. */
function lazyInstance<T extends object>(make: () => T): T {
  let real: T | undefined;
  const target = () => (real ??= make());
  return new Proxy({} as T, {
    get(_, key) {
      const r = target();
      const v = Reflect.get(r, key, r) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(r) : v;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
  });
}

const compiled = new Map<string, ValidateFunction>();

function validatorFor(mode: FormatMode, key: string, build: (a: Ajv2020) => ValidateFunction) {
  const cacheKey = `${mode} ${key}`;
  let fn = compiled.get(cacheKey);
  if (!fn) {
    fn = (mode === 'lenient' ? precompiledValidators()?.[key] : undefined) ?? build(instanceFor(mode));
    compiled.set(cacheKey, fn);
  }
  return fn;
}

function run(fn: ValidateFunction, value: unknown): ValidationResult {
  const valid = fn(value) as boolean;
  return { valid, errors: valid ? [] : (fn.errors ?? []).map(toSchemaError) };
}

export function toSchemaError(e: ErrorObject): SchemaError {
  const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string; }).missingProperty : undefined;
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
  const fn = validatorFor(mode, `page-of-${item}`, (a) => a.getSchema(pageOfId(item)) ?? a.compile(pageOfSchema(item)));
  return run(fn, value);
}

export function pageOfId(item: SchemaName): string {
  return schemaId('page').replace(/page\.json$/, `page-of-${item}.json`);
}
