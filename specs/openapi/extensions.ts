// Operations for endpoints §4 names without showing their path (attachment download,
// file delete, capture intake, the machine-readable description). A deployment, or the
// mock, supplies the paths it chose; their shapes are as much as the document shows.

import type { Endpoint } from './operations.js';

/** Paths relative to /api/public/v1, e.g. '/attachments/{id}/download'. */
export interface ExtensionPaths {
  attachmentDownload?: string;
  fileDelete?: string;
  captureIntake?: string;
  openapi?: string;
}

const openObject = { type: 'object', description: 'Shape not shown.' };

export function extensionEndpoints(paths: ExtensionPaths): Endpoint[] {
  const out: Endpoint[] = [];
  if (paths.attachmentDownload) {
    out.push({
      method: 'get',
      path: needsId(paths.attachmentDownload, 'attachmentDownload'),
      operationId: 'downloadAttachment',
      tag: 'Attachments',
      summary: 'Download an attachment',
      errors: ['NotFound'],
      description: "The attachment's bytes, decrypted, as a stream.",
      returns: { type: 'string', contentMediaType: 'application/octet-stream' },
      stream: true,
    });
  }
  if (paths.fileDelete) {
    out.push({
      method: 'delete',
      path: needsId(paths.fileDelete, 'fileDelete'),
      operationId: 'deleteFile',
      tag: 'Files',
      summary: 'Delete a file',
      errors: ['NotFound'],
      returns: 'DeleteResult',
      description: 'The response is not specified by the document; the delete result of the other deletes is shown here.',
    });
  }
  if (paths.captureIntake) {
    out.push({
      method: 'post',
      path: paths.captureIntake,
      operationId: 'createCapture',
      tag: 'Intake',
      summary: 'Submit a captured thread',
      json: 'CaptureIntake',
      returns: openObject,
      creates: true,
      description: 'Returns a pending review item with a proposed project mapping. Deduplicates on (team, source, '
        + 'external_id): a repeat capture of the same thread returns the existing item with status 200.',
    });
  }
  if (paths.openapi) {
    out.push({
      method: 'get',
      path: paths.openapi,
      operationId: 'getOpenApi',
      tag: 'Meta',
      summary: 'The machine-readable description',
      returns: {
        type: 'object',
        required: ['openapi', 'info'],
        properties: {
          openapi: { type: 'string' },
          info: { type: 'object', required: ['version'], properties: { version: { type: 'string', description: 'MAJOR equals the path version (§9).' } } },
        },
      },
    });
  }
  return out;
}

/** Component schemas the extension operations refer to (only when used). */
export function extensionSchemas(paths: ExtensionPaths): Record<string, object> {
  return paths.captureIntake
    ? { CaptureIntake: { ...openObject, description: 'A capture from the browser extension; fields not shown (deduplicated on source and external_id).' } }
    : {};
}

function needsId(path: string, option: string): string {
  if (!path.includes('{id}')) throw new Error(`extension path ${option} must contain {id}: ${path}`);
  return path;
}
