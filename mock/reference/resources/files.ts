// Files (§4): free-standing uploads. The upload rules of §4 and the delete (chosen path
// DELETE /files/{id}; its bytes removed, its answer not specified) are rules of their own; the get
// is generic.ts's.
import type { RouteHandler } from '../pipeline.js';
import { handleUpload } from '../uploads.js';
import { removeUploaded, uploadRow } from './uploaded.js';

export const fileRoutes: RouteHandler[] = [
  {
    operationId: 'uploadFile',
    scope: 'files:write',
    kind: 'multipart',
    handler: (ctx, input) =>
      handleUpload(ctx, input, () => undefined, (u) => {
        const row = uploadRow(ctx, input, { ...u.file, size: u.file.blob.size }, u.fields);
        return ctx.render.show('file', ctx.store.collections.files.put(input.principal.team, row, { blobId: u.file.blob.blobId, size: u.file.blob.size }));
      }),
  },
  {
    operationId: 'deleteFile',
    scope: 'files:write',
    handler: (ctx, ex) => removeUploaded(ctx, ex, 'files'),
  },
];
