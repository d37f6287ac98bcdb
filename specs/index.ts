// The loader of the API's shapes (contract C1): names, documents, validators, types.
// specs/schemas/*.json is the only definition of a shape; types.ts is generated from it.

export { isPathId, isUuid, PATH_ID_PATTERN, PATH_ID_PATTERN_SOURCE, UUID_PATTERN } from './ids.js';
export { isSchemaName, schema, SCHEMA_BASE, schemaId, type SchemaName, schemaNames } from './names.js';
export type * from './types.js';
export {
  ajv,
  ANNOTATION_FORMATS,
  type FormatMode,
  pageOfId,
  type SchemaError,
  strictFormatHolds,
  toSchemaError,
  validate,
  type ValidateOptions,
  validatePage,
  type ValidationResult,
} from './validator.js';

import type * as T from './types.js';

/** A page envelope whose items are T (the schema types its items per list). */
export type Page<Item> = Omit<T.PageEnvelope, 'data'> & { data: Item[]; };

/** The TypeScript type of each schema, for typed helpers keyed by SchemaName. */
export interface SchemaTypes {
  project: T.Project;
  'project-legacy': T.ProjectLegacy;
  stage: T.Stage;
  employee: T.Employee;
  assignment: T.Assignment;
  organization: T.Organization;
  'organization-legacy': T.OrganizationLegacy;
  address: T.Address;
  'address-legacy': T.AddressLegacy;
  attachment: T.Attachment;
  file: T.FileRecord;
  cv: T.Cv;
  'cv-data': T.CvData;
  page: T.PageEnvelope;
  'delete-result': T.DeleteResult;
  error: T.ErrorEnvelope;
  'error-short': T.ShortErrorEnvelope;
  'employee-create': T.EmployeeCreate;
  'employee-patch': T.EmployeePatch;
  'assignment-create': T.AssignmentCreate;
  'assignment-patch': T.AssignmentPatch;
  'organization-create': T.OrganizationCreate;
  'organization-patch': T.OrganizationPatch;
  'project-patch': T.ProjectPatch;
}
