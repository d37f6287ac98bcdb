// Attachments (§4): files bound to an entity (project, organization, employee or contact of the
// caller's team). The upload rules of §4 (multipart, size, idempotent replays), the entity chosen
// by `entity_type`, the encrypted bytes a delete removes and a download (chosen path
// GET /attachments/{id}/download) decrypts are rules of their own; the list is generic.ts's.
import { schema } from '../../../specs/index.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import type { Exchange } from '../exchange.js';
import { findOwn, ownReference } from '../lookup.js';
import type { RouteHandler } from '../pipeline.js';
import type { ResourceName } from '../store.js';
import { handleUpload, type Upload } from '../uploads.js';
import { downloadOf, removeUploaded, uploadRow } from './uploaded.js';

/** The entity types of §2 ("one of: project, organization, employee, contact"), from the attachment schema. */
export const ENTITY_TYPES = (schema('attachment') as { properties: { entity_type: { enum: string[]; }; }; }).properties.entity_type.enum;

const collectionOf = (type: string): ResourceName | undefined => (ENTITY_TYPES.includes(type) ? (`${type}s` as ResourceName) : undefined);

/** The entity fields of an upload: a listed type, a UUID, and a record of the caller's team. */
function checkEntity(ctx: AppContext, ex: Exchange, u: Upload): void {
  const { entity_type: type, entity_id: id } = u.fields;
  const detail: Record<string, string> = {};
  if (!type) detail.entity_type = 'required';
  else if (!collectionOf(type)) detail.entity_type = `must be one of ${ENTITY_TYPES.join(', ')}`;
  if (!id) detail.entity_id = 'required';
  else if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) detail.entity_id = 'must be a UUID';
  if (Object.keys(detail).length) throw badRequest('Invalid attachment fields', detail);
  ownReference(ctx, ex, ctx.store.collections[collectionOf(type!)!], id!, 'entity_id');
}

export const attachmentRoutes: RouteHandler[] = [
  {
    operationId: 'uploadAttachment',
    scope: 'attachments:write',
    kind: 'multipart',
    handler: (ctx, input) =>
      handleUpload(ctx, input, (u) => checkEntity(ctx, input, u), (u) => {
        const row = {
          ...uploadRow(ctx, input, { ...u.file, size: u.file.blob.size }, u.fields),
          entity_type: u.fields.entity_type,
          entity_id: u.fields.entity_id!.toLowerCase(),
        };
        const entry = ctx.store.collections.attachments.put(input.principal.team, row, { blobId: u.file.blob.blobId, size: u.file.blob.size });
        return ctx.render.show('attachment', entry);
      }),
  },
  {
    operationId: 'deleteAttachment',
    scope: 'attachments:write',
    handler: (ctx, ex) => removeUploaded(ctx, ex, 'attachments'),
  },
  {
    operationId: 'downloadAttachment',
    scope: 'attachments:read',
    kind: 'stream',
    handler: (ctx, ex) => downloadOf(ctx, ex, findOwn(ctx, ex, ctx.store.collections.attachments, ex.params.id!, 'read')),
  },
];
