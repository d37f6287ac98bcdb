// Files (§4): free-standing uploads: upload, get the record, delete (chosen path DELETE /files/{id}).
import { findOwn } from '../lookup.js';
import type { RouteHandler } from '../pipeline.js';
import { handleUpload } from '../uploads.js';
import { raw } from './common.js';
import { removeUploaded, uploadRow } from './uploaded.js';

export const fileRoutes: RouteHandler[] = [
  {
    operationId: 'uploadFile',
    scope: 'files:write',
    kind: 'multipart',
    handler: (ctx, input) =>
      handleUpload(ctx, input, () => undefined, (u) => {
        const row = uploadRow(ctx, input, { ...u.file, size: u.file.blob.size }, u.fields);
        return ctx.render.file(ctx.store.collections.files.put(input.principal.team, row, { blobId: u.file.blob.blobId, size: u.file.blob.size }));
      }),
  },
  {
    operationId: 'getFile',
    scope: 'files:read',
    kind: 'read',
    handler: (ctx, ex) => raw(200, ctx.render.file(findOwn(ctx, ex, ctx.store.collections.files, ex.params.id!, 'read'))),
  },
  {
    operationId: 'deleteFile',
    scope: 'files:write',
    handler: (ctx, ex) => removeUploaded(ctx, ex, 'files'),
  },
];
