// What a list's filter parameters accept, read from the operation table and its parameter
// components (specs/openapi/): whether each is required, a UUID, or one of listed values. The
// same description is served to clients (openapi.ts), so the mock cannot refuse what it publishes.
import type { Rec } from '../../contract/json.js';
import { schema, schemaNames } from '../../specs/index.js';
import { parameters, SCHEMAS } from '../../specs/openapi/components.js';
import type { Endpoint } from '../../specs/openapi/operations.js';

export interface QueryRule {
  name: string;
  required: boolean;
  uuid: boolean;
  /** The values allowed, when the parameter's schema lists them. */
  values?: readonly string[];
}

interface Parameter {
  name: string;
  required?: boolean;
  schema?: Rec;
}

/** A component reference (`#/components/schemas/<title>/<pointer>`) resolved in the schema whose title it names. */
function resolve(node: Rec): Rec {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith(SCHEMAS)) return node;
  const [title, ...pointer] = ref.slice(SCHEMAS.length).split('/');
  const name = schemaNames.find((n) => (schema(n) as Rec).title === title);
  if (!name) throw new Error(`parameter schema ${ref} names no schema of specs/schemas/`);
  return pointer.reduce<Rec>((at, part) => at[part] as Rec, schema(name) as Rec);
}

export function queryRules(endpoint: Pick<Endpoint, 'filters'>): QueryRule[] {
  return (endpoint.filters ?? []).map((component) => {
    const p = (parameters as Record<string, Parameter>)[component];
    if (!p) throw new Error(`filter ${component} is not a parameter component`);
    const s = resolve(p.schema ?? {});
    const values = Array.isArray(s.enum) ? (s.enum as string[]) : undefined;
    return { name: p.name, required: p.required === true, uuid: s.format === 'uuid', ...(values ? { values } : {}) };
  });
}
