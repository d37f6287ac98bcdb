// The fields §2 lists for a resource (the `properties` of its schema in specs/schemas, in the
// shape the deployment serves) that a record leaves out. Absence of a listed, non-inherent field
// is a reading, never a failure (catalog RES-INHERENT-FIELDS): the document does not say which
// fields are always present. Fields only some states carry are not counted as absent.
import { schema, type SchemaName } from '../../specs/index.js';
import type { Resource } from './judge/problems.js';
import { servedShape } from './judge/shape.js';

/** Fields a record carries only in some states (§3): archived, closed. */
const STATE_ONLY = /^(archived_|closed_|close_reason)/;

const listed = new Map<SchemaName, string[]>();

function listedFields(name: SchemaName): string[] {
  let fields = listed.get(name);
  if (!fields) {
    fields = Object.keys((schema(name) as { properties?: object; }).properties ?? {}).filter((f) => !STATE_ONLY.test(f));
    listed.set(name, fields);
  }
  return fields;
}

function schemaFor(resource: Resource, record: unknown): SchemaName | undefined {
  if (resource === 'delete-result') return undefined;
  if (resource === 'project' || resource === 'organization') return servedShape(resource, record) === 'legacy' ? `${resource}-legacy` : resource;
  return resource;
}

export function absentListedFields(resource: Resource, record: unknown): string[] {
  const name = schemaFor(resource, record);
  if (!name || !record || typeof record !== 'object') return [];
  return listedFields(name).filter((f) => !(f in record));
}
