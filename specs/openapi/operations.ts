// The endpoints of §4 whose paths are shown, as data, and their translation into
// OpenAPI operations. Paths are relative to /api/public/v1.

import { LIST_PARAMETERS, ref, SCHEMAS } from './components.js';

export type Method = 'get' | 'post' | 'patch' | 'delete';

export interface Endpoint {
  method: Method;
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  /** Query parameter component names beyond the list parameters (list endpoints only). */
  filters?: string[];
  list?: boolean;
  /** JSON body: a component schema name; multipart: the multipart schema. */
  json?: string;
  multipart?: object;
  /** Success body: component schema name, or a schema object. */
  returns: string | object;
  /** Responses that §4/§7 name for this endpoint beyond 200 and default. */
  errors?: ('BadRequest' | 'NotFound' | 'UnprocessableEntity')[];
  /** The success status is not shown for creates: both 200 and 201 are documented. */
  creates?: boolean;
  /** The success body is a byte stream (`returns` is its schema), not JSON. */
  stream?: boolean;
  description?: string;
}

const prop = (schema: string, property: string) => ({ $ref: `${SCHEMAS}${schema}/properties/${property}` });
const binaryPart = { type: 'string', contentMediaType: 'application/octet-stream', description: 'the file (one part)' };

const UPLOAD_NOTE = 'Maximum upload size is 25 MB (§4; whether MB means 10^6 or 2^20 bytes is not shown). '
  + 'With the same idempotency key, the same file replays the original response and a different file answers 422.';

export const endpoints: Endpoint[] = [
  { method: 'get', path: '/projects', operationId: 'listProjects', tag: 'Projects', summary: 'List projects', list: true, returns: 'ProjectPage' },
  {
    method: 'get',
    path: '/projects/{id}',
    operationId: 'getProject',
    tag: 'Projects',
    summary: 'Get a project',
    returns: 'ProjectResponse',
    errors: ['NotFound'],
  },
  {
    method: 'patch',
    path: '/projects/{id}',
    operationId: 'updateProject',
    tag: 'Projects',
    summary: 'Update a project',
    json: 'ProjectPatch',
    returns: 'ProjectResponse',
    errors: ['NotFound'],
    description: 'Any subset of the project fields; an empty object is accepted.',
  },

  {
    method: 'get',
    path: '/assignments',
    operationId: 'listAssignments',
    tag: 'Assignments',
    summary: 'List assignments',
    list: true,
    filters: ['ProjectIdFilter', 'EmployeeIdFilter'],
    returns: 'AssignmentPage',
  },
  {
    method: 'get',
    path: '/assignments/{id}',
    operationId: 'getAssignment',
    tag: 'Assignments',
    summary: 'Get an assignment',
    returns: 'Assignment',
    errors: ['NotFound'],
    description: 'Added in 1.6.0.',
  },
  {
    method: 'post',
    path: '/assignments',
    operationId: 'createAssignment',
    tag: 'Assignments',
    summary: 'Create an assignment',
    json: 'AssignmentCreate',
    returns: 'Assignment',
    creates: true,
  },
  {
    method: 'patch',
    path: '/assignments/{id}',
    operationId: 'updateAssignment',
    tag: 'Assignments',
    summary: 'Update an assignment',
    json: 'AssignmentPatch',
    returns: 'Assignment',
    errors: ['NotFound'],
  },
  {
    method: 'delete',
    path: '/assignments/{id}',
    operationId: 'deleteAssignment',
    tag: 'Assignments',
    summary: 'Delete an assignment',
    returns: 'DeleteResult',
    errors: ['NotFound'],
  },

  {
    method: 'post',
    path: '/employees',
    operationId: 'createEmployee',
    tag: 'Employees',
    summary: 'Create an employee',
    json: 'EmployeeCreate',
    returns: 'Employee',
    creates: true,
  },
  {
    method: 'patch',
    path: '/employees/{id}',
    operationId: 'updateEmployee',
    tag: 'Employees',
    summary: 'Update an employee',
    json: 'EmployeePatch',
    returns: 'Employee',
    errors: ['NotFound'],
  },

  {
    method: 'get',
    path: '/organizations',
    operationId: 'listOrganizations',
    tag: 'Organizations',
    summary: 'List organizations',
    list: true,
    returns: 'OrganizationPage',
  },
  {
    method: 'post',
    path: '/organizations',
    operationId: 'createOrganization',
    tag: 'Organizations',
    summary: 'Create an organization',
    json: 'OrganizationCreate',
    returns: 'OrganizationResponse',
    creates: true,
  },
  {
    method: 'patch',
    path: '/organizations/{id}',
    operationId: 'updateOrganization',
    tag: 'Organizations',
    summary: 'Update an organization',
    json: 'OrganizationPatch',
    returns: 'OrganizationResponse',
    errors: ['NotFound'],
  },

  { method: 'get', path: '/cvs', operationId: 'listCvs', tag: 'CVs', summary: 'List CVs', list: true, filters: ['EmployeeIdFilter'], returns: 'CvPage' },

  {
    method: 'post',
    path: '/attachments',
    operationId: 'uploadAttachment',
    tag: 'Attachments',
    summary: 'Upload an attachment',
    multipart: {
      type: 'object',
      required: ['file', 'entity_type', 'entity_id'],
      properties: {
        file: binaryPart,
        entity_type: prop('Attachment', 'entity_type'),
        entity_id: prop('Attachment', 'entity_id'),
        category: prop('Attachment', 'category'),
      },
    },
    returns: 'Attachment',
    creates: true,
    errors: ['UnprocessableEntity'],
    description: UPLOAD_NOTE,
  },
  {
    method: 'get',
    path: '/attachments',
    operationId: 'listAttachments',
    tag: 'Attachments',
    summary: 'List the attachments of an entity',
    list: true,
    filters: ['EntityType', 'EntityId'],
    returns: 'AttachmentPage',
  },
  {
    method: 'delete',
    path: '/attachments/{id}',
    operationId: 'deleteAttachment',
    tag: 'Attachments',
    summary: 'Delete an attachment',
    returns: 'DeleteResult',
    errors: ['NotFound'],
  },

  {
    method: 'post',
    path: '/files',
    operationId: 'uploadFile',
    tag: 'Files',
    summary: 'Upload a file',
    multipart: { type: 'object', required: ['file'], properties: { file: binaryPart, category: prop('FileRecord', 'category') } },
    returns: 'FileRecord',
    creates: true,
    errors: ['UnprocessableEntity'],
    description: UPLOAD_NOTE,
  },
  { method: 'get', path: '/files/{id}', operationId: 'getFile', tag: 'Files', summary: 'Get a file record', returns: 'FileRecord', errors: ['NotFound'] },
];

const jsonContent = (schema: object) => ({ 'application/json': { schema } });
const asSchema = (s: string | object) => (typeof s === 'string' ? ref('schemas', s) : s);

/** The OpenAPI operation object of an endpoint. */
export function operation(e: Endpoint): Record<string, unknown> {
  const params: object[] = [];
  if (e.path.includes('{id}')) params.push(ref('parameters', 'Id'));
  if (e.list) { for (const p of [...LIST_PARAMETERS, ...(e.filters ?? [])]) params.push(ref('parameters', p)); }
  if (e.method !== 'get') params.push(ref('parameters', 'IdempotencyKey'));

  const success = {
    description: e.creates ? 'Created (the success status is not shown: 200 or 201).' : 'Success.',
    content: e.stream ? { 'application/octet-stream': { schema: asSchema(e.returns) } } : jsonContent(asSchema(e.returns)),
  };
  const responses: Record<string, unknown> = e.creates ? { '200': success, '201': success } : { '200': success };
  if (e.list) responses['400'] = ref('responses', 'BadRequest');
  for (const name of e.errors ?? []) responses[statusOf(name)] = ref('responses', name);
  // Authentication, scope, plan-limit and validation failures have statuses not shown (§5, §7).
  responses['4XX'] = ref('responses', 'ClientError');
  responses.default = ref('responses', 'Error');

  const op: Record<string, unknown> = { operationId: e.operationId, tags: [e.tag], summary: e.summary };
  if (e.description) op.description = e.description;
  if (params.length) op.parameters = params;
  if (e.json) op.requestBody = { required: true, content: jsonContent(ref('schemas', e.json)) };
  if (e.multipart) op.requestBody = { required: true, content: { 'multipart/form-data': { schema: e.multipart } } };
  op.responses = responses;
  return op;
}

function statusOf(name: 'BadRequest' | 'NotFound' | 'UnprocessableEntity'): string {
  return { BadRequest: '400', NotFound: '404', UnprocessableEntity: '422' }[name];
}
