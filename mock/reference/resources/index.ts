// Every resource's routes: the generic list, get, create, patch and delete of each resource in the
// registry (generic.ts), and the overrides where the document gives an operation a rule of its
// own. Each override file says which rule:
//   projects.ts       the PATCH of §3 (stage and state transitions; null clears a field)
//   employees.ts      the create: §2 shows `is_active` and `skills` on every employee
//   organizations.ts  the create and PATCH: §2 Address ids, assigned by the server
//   attachments.ts    the upload, delete and download: §4 upload rules, the entity, encrypted bytes
//   files.ts          the upload and delete: §4 upload rules, the delete whose answer is not specified
//   intake.ts         the capture intake: §1 deduplication on (team, source, external_id)
import { type Resource, resources } from '../../../specs/registry.js';
import type { RouteHandler } from '../pipeline.js';
import { attachmentRoutes } from './attachments.js';
import { employeeRoutes } from './employees.js';
import { fileRoutes } from './files.js';
import { genericRoutes } from './generic.js';
import { intakeRoutes } from './intake.js';
import { organizationRoutes } from './organizations.js';
import { projectRoutes } from './projects.js';

export const OVERRIDES: readonly RouteHandler[] = [
  ...projectRoutes,
  ...employeeRoutes,
  ...organizationRoutes,
  ...attachmentRoutes,
  ...fileRoutes,
  ...intakeRoutes,
];

/**
 * The routes of the given resources: each operation's override, or its generic route. An operation
 * with neither (an upload, a download or an intake has no generic form) is a resource added without
 * the rule the document gives it, and fails at start.
 */
export function resourceRoutes(of: readonly Resource[] = resources(), overrides: readonly RouteHandler[] = OVERRIDES): RouteHandler[] {
  const own = new Map(overrides.map((h) => [h.operationId, h]));
  const generic = new Map(of.flatMap(genericRoutes).map((h) => [h.operationId, h]));
  return of.flatMap((r) =>
    Object.values(r.operations).map((o) => {
      const h = own.get(o.op) ?? generic.get(o.op);
      if (!h) throw new Error(`${o.op} (${r.collection}) has no generic route and no override: say which rule of the document it follows`);
      return h;
    })
  );
}
