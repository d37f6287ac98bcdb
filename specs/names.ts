// The schema documents of specs/schemas/ and their identifiers (contract C1).

import { readFileSync } from 'node:fs';

export const schemaNames = [
  'project',
  'project-legacy',
  'stage',
  'employee',
  'assignment',
  'organization',
  'organization-legacy',
  'address',
  'address-legacy',
  'attachment',
  'file',
  'cv',
  'cv-data',
  'page',
  'delete-result',
  'error',
  'error-short',
  'employee-create',
  'employee-patch',
  'assignment-create',
  'assignment-patch',
  'organization-create',
  'organization-patch',
  'project-patch',
] as const;

export type SchemaName = (typeof schemaNames)[number];

export const SCHEMA_BASE = 'https://conformance.local/schemas/v1/';

export function schemaId(name: SchemaName): string {
  return `${SCHEMA_BASE}${name}.json`;
}

export function isSchemaName(s: string): s is SchemaName {
  return (schemaNames as readonly string[]).includes(s);
}

/** The parsed documents, read from disk once and frozen; callers must not mutate them. */
const documents = new Map<SchemaName, object>();

export function schema(name: SchemaName): object {
  let doc = documents.get(name);
  if (!doc) {
    doc = deepFreeze(readSchemaFile(name));
    documents.set(name, doc);
  }
  return doc;
}

/** Schema documents held in memory rather than in specs/schemas/ (a resource added to the registry in memory). */
const held = new Map<string, string>();

/** Adds a schema document held in memory under `name`; every reader of the schemas sees it from then on. */
export function holdSchema(name: string, doc: object): void {
  if (isSchemaName(name)) throw new Error(`schema ${name} exists already`);
  held.set(name, JSON.stringify(doc));
  (schemaNames as unknown as string[]).push(name);
}

/** A fresh, mutable copy of a document (for tools that annotate or rewrite it). */
export function readSchemaFile(name: SchemaName): Record<string, unknown> {
  const kept = held.get(name);
  if (kept !== undefined) return JSON.parse(kept) as Record<string, unknown>;
  const url = new URL(`./schemas/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
