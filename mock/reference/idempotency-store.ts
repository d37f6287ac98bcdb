// Idempotency keys for every mutating endpoint.
// Scope: (team, operation, key) — the same key on another operation or team is a
// different key. Fingerprint: the request path plus the canonical JSON body (for
// uploads: the SHA-256 of the file bytes plus the form fields). A completed entry
// replays the original status and body; a different fingerprint answers 422
// idempotency_key_reused; an entry still in flight answers 409 idempotency_in_flight,
// so two concurrent requests never both create.
// Memory is bounded: a completed entry is kept for 24 h, and only while it is among the
// newest 10,000 entries holding at most 16 MiB of stored responses (IDEMPOTENCY_DEFAULTS);
// beyond that the oldest completed entries are forgotten first. Entries in flight are
// never forgotten: there is at most one per request being served.
// Keys, scopes and fingerprint parts are encoded as JSON arrays, never joined with a
// separator, so no data can make two different requests look alike.
import { createHash } from 'node:crypto';

export const RETENTION_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyLimits {
  /** Completed entries kept at most (the oldest go first). */
  maxKeys: number;
  /** Bytes of stored response bodies kept at most (the oldest go first). */
  maxBytes: number;
  /** How long a completed entry replays. */
  retentionMs: number;
}

export const IDEMPOTENCY_DEFAULTS = { maxKeys: 10_000, maxBytes: 16 * 1024 * 1024, retentionMs: RETENTION_MS } as const satisfies IdempotencyLimits;

export interface StoredResponse {
  status: number;
  json: string | Buffer;
  contentType?: string;
}

interface Slot {
  fingerprint: string | undefined;
  response?: StoredResponse;
  bytes: number;
  expires: number;
}

export type Claim =
  | { kind: 'claimed'; complete(fingerprint: string, response: StoredResponse): void; release(): void; }
  | { kind: 'replay'; response: StoredResponse; fingerprint: string; }
  | { kind: 'in-flight'; }
  | { kind: 'reused'; };

/** An idempotency scope: one string, or its parts (e.g. team and operation). */
export type Scope = string | readonly string[];

const byteLength = (json: string | Buffer) => (typeof json === 'string' ? Buffer.byteLength(json) : json.length);

export class IdempotencyStore {
  // Insertion order is claim order, so the first entries are the oldest.
  private readonly slots = new Map<string, Slot>();
  private readonly limits: IdempotencyLimits;
  private completed = 0;
  private storedBytes = 0;

  constructor(private readonly now: () => number = Date.now, limits: Partial<IdempotencyLimits> = {}) {
    this.limits = { ...IDEMPOTENCY_DEFAULTS, ...limits };
  }

  /** Entries held (completed and in flight). */
  get size(): number {
    return this.slots.size;
  }

  /** Bytes of stored response bodies held. */
  get bytes(): number {
    return this.storedBytes;
  }

  /**
   * Claims `key` in `scope`. With a fingerprint (JSON requests) a completed entry is
   * compared at once; without one (uploads, whose digest is known only after the
   * stream) a completed entry is returned for the caller to compare.
   */
  claim(scope: Scope, key: string, fingerprint: string | undefined): Claim {
    const id = JSON.stringify([...(typeof scope === 'string' ? [scope] : scope), key]);
    const t = this.now();
    this.expire(t);
    const slot = this.slots.get(id);
    if (slot && slot.expires > t) {
      if (!slot.response) return { kind: 'in-flight' };
      if (fingerprint !== undefined && slot.fingerprint !== fingerprint) return { kind: 'reused' };
      return { kind: 'replay', response: slot.response, fingerprint: slot.fingerprint ?? '' };
    }
    if (slot) this.drop(id, slot);
    const fresh: Slot = { fingerprint, bytes: 0, expires: t + this.limits.retentionMs };
    this.slots.set(id, fresh);
    return {
      kind: 'claimed',
      complete: (fp, response) => {
        if (this.slots.get(id) !== fresh || fresh.response) return;
        fresh.fingerprint = fp;
        fresh.response = response;
        fresh.bytes = byteLength(response.json);
        fresh.expires = this.now() + this.limits.retentionMs;
        this.completed++;
        this.storedBytes += fresh.bytes;
        this.evict();
      },
      release: () => {
        // Only a claim still in flight: a completed entry stays to replay.
        if (this.slots.get(id) === fresh && !fresh.response) this.drop(id, fresh);
      },
    };
  }

  /** Forgets `key` in `scope`, completed or not. */
  forget(scope: Scope, key: string): void {
    const id = JSON.stringify([...(typeof scope === 'string' ? [scope] : scope), key]);
    const slot = this.slots.get(id);
    if (slot) this.drop(id, slot);
  }

  private drop(id: string, slot: Slot): void {
    this.slots.delete(id);
    if (slot.response) {
      this.completed--;
      this.storedBytes -= slot.bytes;
    }
  }

  /** Forgets expired entries from the oldest end (claim order is close to expiry order). */
  private expire(t: number): void {
    for (const [id, slot] of this.slots) {
      if (slot.expires > t) break;
      this.drop(id, slot); // a slot in flight for the whole retention is a claim nobody will finish
    }
  }

  /** Forgets the oldest completed entries while a cap is exceeded. */
  private evict(): void {
    if (this.completed <= this.limits.maxKeys && this.storedBytes <= this.limits.maxBytes) return;
    for (const [id, slot] of this.slots) {
      if (this.completed <= this.limits.maxKeys && this.storedBytes <= this.limits.maxBytes) return;
      if (slot.response) this.drop(id, slot);
    }
  }
}

/** Canonical JSON: object keys sorted at every level, so key order does not change the fingerprint. Iterative: any depth. */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Work items: a value to write, or literal text (closing brackets, commas, keys).
  const stack: ({ v: unknown; } | string)[] = [{ v: value }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const v = item.v;
    if (Array.isArray(v)) {
      out.push('[');
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ v: v[i] });
        if (i > 0) stack.push(',');
      }
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).sort();
      out.push('{');
      stack.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ v: o[keys[i]!] });
        stack.push(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`);
      }
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  }
  return out.join('');
}

/** SHA-256 of the parts as a JSON array: no separator that a part could contain. */
export const fingerprintOf = (...parts: readonly string[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex');
