// Everything the run changes on the target, undone at the end where the API allows:
// created assignments, attachments and files are deleted; patched fields of pre-existing
// projects (and organizations, employees) are restored. Records that cannot be deleted
// (organizations, employees) carry the run id in a name field.
import type { ApiClient } from './client.js';
import type { KeyName } from './redact.js';
import type { ProvidedTarget } from './target.js';

export type Deletable = 'assignment' | 'attachment' | 'file';
type Patchable = 'projects' | 'organizations' | 'employees' | 'assignments';

export class Ledger {
  private readonly created = new Map<string, { kind: Deletable; auth: KeyName }>();
  private readonly kept: string[] = [];
  private readonly originals = new Map<string, { resource: Patchable; id: string; fields: Record<string, unknown> }>();

  constructor(private readonly api: () => ApiClient, private readonly target: ProvidedTarget) {}

  /** A record this run created and must delete. */
  add(kind: Deletable, id: string, auth: KeyName = 'team'): void {
    this.created.set(id, { kind, auth });
  }

  /** A record this run created that the API offers no way to delete. */
  keep(kind: 'organization' | 'employee', id: string): void {
    this.kept.push(`${kind} ${id}`);
  }

  /** The record was deleted by a check. */
  gone(id: string): void {
    this.created.delete(id);
  }

  /** Before patching a record the run did not create: its current values of the patched fields. */
  patching(resource: Patchable, record: Record<string, unknown>, fields: readonly string[]): void {
    const id = String(record.id);
    const entry = this.originals.get(`${resource}/${id}`) ?? { resource, id, fields: {} };
    for (const f of fields) if (!(f in entry.fields)) entry.fields[f] = record[f] ?? null;
    this.originals.set(`${resource}/${id}`, entry);
  }

  async cleanup(): Promise<void> {
    const api = this.api();
    const problems: string[] = [];
    const order: Deletable[] = ['attachment', 'assignment', 'file'];
    for (const kind of order) {
      for (const [id, { kind: k, auth }] of [...this.created]) {
        if (k !== kind) continue;
        const path = this.deletePath(kind, id);
        if (!path) { problems.push(`${kind} ${id} left (CONFORMANCE_PATH_FILE_DELETE not set)`); continue; }
        const res = await api.send({ method: path.method, path: path.path, auth }).catch(() => undefined);
        if (!res || (res.status >= 300 && res.status !== 404)) problems.push(`${kind} ${id} not deleted (${res?.status ?? 'no response'})`);
        this.created.delete(id);
      }
    }
    for (const { resource, id, fields } of this.originals.values()) {
      const res = await api.send({ method: 'PATCH', path: `/${resource}/${id}`, json: fields }).catch(() => undefined);
      if (!res || res.status >= 300) problems.push(`${resource} ${id} not restored (${res?.status ?? 'no response'})`);
    }
    this.originals.clear();
    if (problems.length) console.warn(`[conformance] cleanup: ${problems.join('; ')}`);
    if (this.kept.length && this.target.kind === 'deployment') {
      console.warn(`[conformance] cleanup: ${this.kept.length} record(s) cannot be deleted through the API; they are named with run id ${this.target.runId}`);
    }
    this.kept.length = 0;
  }

  private deletePath(kind: Deletable, id: string): { method: string; path: string } | undefined {
    if (kind === 'assignment') return { method: 'DELETE', path: `/assignments/${id}` };
    if (kind === 'attachment') return { method: 'DELETE', path: `/attachments/${id}` };
    const e = this.target.settings.paths.fileDelete;
    return e ? { method: e.method, path: e.path.replace('{id}', id) } : undefined;
  }
}
