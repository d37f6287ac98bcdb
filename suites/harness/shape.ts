// Which shape of projects and organizations the deployment serves. With CONFORMANCE_SHAPE=auto
// it is read from the first project or organization seen and then held for the whole worker.
import { recordReading } from './current.js';
import type { Shape } from './settings.js';
import { target } from './target.js';

const LEGACY_PROJECT_FIELDS = ['client_org_id', 'end_client_org_id', 'recruiter_org_id'];

let detected: { shape: Shape; from: string; } | undefined;

/** Legacy iff a legacy-only field is present (project) or last_activity_at is absent (organization). */
export function shapeOfRecord(kind: 'project' | 'organization', record: Record<string, unknown>): Shape {
  if (kind === 'project') return LEGACY_PROJECT_FIELDS.some((f) => f in record) ? 'legacy' : 'full';
  return 'last_activity_at' in record ? 'full' : 'legacy';
}

export function servedShape(kind: 'project' | 'organization', record: unknown): Shape {
  const configured = target().settings.shape;
  if (configured !== 'auto') return configured;
  if (!detected && record && typeof record === 'object') {
    const r = record as Record<string, unknown>;
    detected = { shape: shapeOfRecord(kind, r), from: `${kind} ${String(r.id)}` };
  }
  recordReading('shape', detected ? `${detected.shape} (detected from ${detected.from})` : 'full (nothing seen yet)');
  return detected?.shape ?? 'full';
}

export function detectedShape(): Shape | undefined {
  return target().settings.shape === 'auto' ? detected?.shape : (target().settings.shape as Shape);
}

/** Forgets the detected shape: the fault sweep runs one process against many targets. */
export function forgetDetectedShape(): void {
  detected = undefined;
}
