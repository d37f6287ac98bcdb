// §3 States and transitions: archiving records the prior stage and status, closing sets its
// fields, a stage change is stamped. Pre-existing projects are patched and restored afterwards.
import { ensure, expectStatus, is2xx } from './harness/assert.js';
import { check, type CheckContext } from './harness/check.js';
import { detectedShape } from './harness/shape.js';
import { expectResource } from './harness/validate.js';
import { lists, walk } from './harness/walk.js';

type Rec = Record<string, unknown>;
const RESTORED = ['status', 'stage', 'archived_at', 'closed_at', 'close_reason', 'close_reason_category'];

/** Open projects (not archived, not closed), a different one per check where there are enough. */
async function openProject(c: CheckContext, index: number): Promise<Rec> {
  const { items } = await walk(c, lists.projects, { limit: 100 });
  const open = items.filter((p) => !p.archived_at && !p.closed_at);
  const project = open[index % Math.max(open.length, 1)];
  if (!project) c.skip('the team has no open project');
  c.ledger.patching('projects', project, RESTORED.filter((f) => project[f] !== undefined));
  return project;
}

const fullShapeOnly = (c: CheckContext) => { if (detectedShape() === 'legacy') c.skip('the legacy project shape has no such fields'); };

check(['STATE-STAGE-CHANGE-STAMPED'], 'a stage change stamps stage_changed_at', async (c) => {
  const { items } = await walk(c, lists.projects, { limit: 100 });
  fullShapeOnly(c);
  const project = await openProject(c, 0);
  const current = project.stage as Rec;
  const other = items.map((p) => p.stage as Rec).find((s) => s && s.id !== current?.id);
  if (!other) return c.skip('all projects share one stage: no other stage to change to');
  const started = Date.now();
  const res = await c.api.send({ method: 'PATCH', path: `/projects/${project.id}`, json: { stage: { id: other.id, key: other.key } } });
  if (!is2xx(res)) c.skip(`the stage change body { stage: { id, key } } was refused (${res.status}); the stage field's write form is not shown`);
  const after = expectResource(res, 'project');
  ensure((after.stage as Rec)?.id === other.id, 'the stage did not change', res);
  const stamp = Date.parse(String(after.stage_changed_at));
  ensure(!Number.isNaN(stamp), `stage_changed_at ${JSON.stringify(after.stage_changed_at)} is not a timestamp`, res);
  ensure(stamp >= started - 5_000, `stage_changed_at ${String(after.stage_changed_at)} is earlier than the request`, res);
  const before = Date.parse(String(project.stage_changed_at ?? ''));
  if (!Number.isNaN(before)) ensure(stamp >= before, 'stage_changed_at went back in time', res);
}, { mutates: true });

check(['STATE-CLOSE-SETS-FIELDS'], 'closing a project with close_reason and close_reason_category sets closed_at and both values', async (c) => {
  await walk(c, lists.projects, { limit: 1 });
  fullShapeOnly(c);
  const project = await openProject(c, 1);
  const body = { close_reason: `conformance ${c.target.runId}`, close_reason_category: 'other' };
  const res = await c.api.send({ method: 'PATCH', path: `/projects/${project.id}`, json: body });
  expectStatus(res, '2xx', 'PATCH closing the project');
  const after = expectResource(res, 'project');
  ensure(after.close_reason === body.close_reason && after.close_reason_category === body.close_reason_category, 'close_reason or close_reason_category not stored', res);
  ensure(typeof after.closed_at === 'string' && after.closed_at !== '', 'closed_at is not set', res);
}, { mutates: true });

check(['STATE-ARCHIVE-RECORDS-PRIOR'], 'archiving a project records the prior stage and status', async (c) => {
  const project = await openProject(c, 2);
  const res = await c.api.send({ method: 'PATCH', path: `/projects/${project.id}`, json: { archived_at: new Date().toISOString() } });
  expectStatus(res, '2xx', 'PATCH archiving the project');
  const after = expectResource(res, 'project');
  ensure(typeof after.archived_at === 'string' && after.archived_at !== '', 'archived_at is not set', res);
  ensure((after.archived_from_stage as Rec | undefined)?.id === (project.stage as Rec | undefined)?.id, 'archived_from_stage is not the stage held before', res);
  ensure(after.archived_from_status === project.status, `archived_from_status ${JSON.stringify(after.archived_from_status)} is not the prior status ${JSON.stringify(project.status)}`, res);
}, { mutates: true });
