// Gathers the schema documents into one set of named definitions, for tools that need a
// single document (OpenAPI components, the TypeScript generator). Cross-file `$ref`s
// ("stage.json", "project.json#/properties/id") are rewritten to point inside that set;
// `$id` and `$schema` are dropped because the definitions no longer stand alone.

import { readSchemaFile, type SchemaName, schemaNames } from './names.js';

/** The definition name of a schema: its `title` (Project, ProjectLegacy, PageEnvelope, ...). */
export function definitionName(name: SchemaName): string {
  const title = readSchemaFile(name).title;
  if (typeof title !== 'string') throw new Error(`schema ${name} has no title`);
  return title;
}

/** `prefix` is where definitions live, e.g. '#/components/schemas/' or '#/definitions/'. */
export function bundleSchemas(prefix: string): Record<string, Record<string, unknown>> {
  const titles = new Map(schemaNames.map((n) => [n, definitionName(n)] as const));
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of schemaNames) {
    const doc = readSchemaFile(name);
    delete doc.$id;
    delete doc.$schema;
    out[titles.get(name)!] = rewriteRefs(doc, name, (file, pointer) => {
      const title = titles.get(file);
      if (!title) throw new Error(`schema ${name} refers to unknown document ${file}`);
      return `${prefix}${title}${pointer}`;
    }) as Record<string, unknown>;
  }
  return out;
}

type Target = (file: SchemaName, pointer: string) => string;

function rewriteRefs(node: unknown, current: SchemaName, target: Target): unknown {
  if (Array.isArray(node)) return node.map((v) => rewriteRefs(v, current, target));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' ? resolveRef(value, current, target) : rewriteRefs(value, current, target);
  }
  return out;
}

function resolveRef(ref: string, current: SchemaName, target: Target): string {
  const hash = ref.indexOf('#');
  const file = hash === -1 ? ref : ref.slice(0, hash);
  const pointer = hash === -1 ? '' : ref.slice(hash + 1);
  if (file === '') return target(current, pointer);
  const name = file.replace(/\.json$/, '');
  if (!(schemaNames as readonly string[]).includes(name) || !file.endsWith('.json')) {
    throw new Error(`schema ${current}: unsupported $ref ${ref}`);
  }
  return target(name as SchemaName, pointer);
}
