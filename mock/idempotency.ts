// Idempotency keys for every mutating endpoint.
// Scope: (team, operation, key) — the same key on another operation or team is a
// different key. Fingerprint: the request path plus the canonical JSON body (for
// uploads: the SHA-256 of the file bytes plus the form fields). A completed entry is
// kept for RETENTION_MS (24 h, in memory) and replays the original status and body;
// a different fingerprint answers 422 idempotency_key_reused; an entry still in flight
// answers 409 idempotency_in_flight, so two concurrent requests never both create.
import { createHash } from 'node:crypto';

export const RETENTION_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse { status: number; json: string | Buffer }

interface Slot {
  fingerprint: string | undefined;
  response?: StoredResponse;
  expires: number;
}

export type Claim =
  | { kind: 'claimed'; complete(fingerprint: string, response: StoredResponse): void; release(): void }
  | { kind: 'replay'; response: StoredResponse; fingerprint: string }
  | { kind: 'in-flight' }
  | { kind: 'reused' };

export class IdempotencyStore {
  private readonly slots = new Map<string, Slot>();
  private writes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Claims `key` in `scope`. With a fingerprint (JSON requests) a completed entry is
   * compared at once; without one (uploads, whose digest is known only after the
   * stream) a completed entry is returned for the caller to compare.
   */
  claim(scope: string, key: string, fingerprint: string | undefined): Claim {
    const id = `${scope}\u0000${key}`;
    const t = this.now();
    const slot = this.slots.get(id);
    if (slot && slot.expires > t) {
      if (!slot.response) return { kind: 'in-flight' };
      if (fingerprint !== undefined && slot.fingerprint !== fingerprint) return { kind: 'reused' };
      return { kind: 'replay', response: slot.response, fingerprint: slot.fingerprint ?? '' };
    }
    const fresh: Slot = { fingerprint, expires: t + RETENTION_MS };
    this.slots.set(id, fresh);
    if (++this.writes % 1000 === 0) this.sweep(t);
    return {
      kind: 'claimed',
      complete: (fp, response) => {
        fresh.fingerprint = fp;
        fresh.response = response;
        fresh.expires = this.now() + RETENTION_MS;
      },
      release: () => {
        if (this.slots.get(id) === fresh) this.slots.delete(id);
      },
    };
  }

  private sweep(t: number): void {
    for (const [id, slot] of this.slots) if (slot.expires <= t) this.slots.delete(id);
  }
}

/** Canonical JSON: object keys sorted recursively, so key order does not change the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const fingerprintOf = (...parts: string[]): string => createHash('sha256').update(parts.join('\u0000')).digest('hex');
