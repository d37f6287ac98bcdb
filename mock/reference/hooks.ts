// The points where the reference's behaviour can be changed from outside it, and nowhere else.
// Each hook is optional; absent, the reference behaves as written. A hook that wraps a stage is
// given `next`, the reference's own stage: it may call it and change what it gives, catch what it
// throws (a refusal let through), or not call it at all. The mock's switchable faults (mock/faults/)
// are made of these hooks; the reference itself never asks which fault is on. The one edit made at
// start, of the served routes (which operations exist, at which path, under which base path), is
// RoutesEdit of app.ts: the routes name the context these hooks are part of.
import type { Readable } from 'node:stream';
import type { Principal } from './auth.js';
import type { ApiError } from './errors.js';
import type { Exchange, Result } from './exchange.js';
import type { ReceivedUpload } from './exchange.js';
import type { Claim } from './idempotency-store.js';
import type { ListPlan, Page } from './pagination.js';
import type { Collection, Entry } from './store.js';

/** What a lookup is for: reading, changing or deleting the record a path id names, or a body's reference to one. */
export type Access = 'read' | 'write' | 'delete' | 'reference';

/** A record looked for by id, within the caller's team. */
export interface Find {
  collection: Collection;
  id: string;
  access: Access;
  /** For a reference: the body field that gives it. */
  field?: string;
}

/** An answer about to be sent: the status, the headers beside the content type, and a JSON body (none for a stream). */
export interface Answer {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  /** The error answered, when the answer is one (its envelope: full or short, §7). */
  error?: { api: ApiError; envelope: 'full' | 'short'; };
}

export interface IdempotencyHooks {
  /** The scope a key is claimed in (the reference's: the team and the operation). */
  scope?(ex: Exchange, scope: readonly string[]): readonly string[];
  /** The parts a request's fingerprint is taken over (the path and the body, or the file's digest and the fields). */
  fingerprint?(ex: Exchange, parts: readonly string[]): readonly string[];
  /** Claiming a key in the store. */
  claim?(ex: Exchange, scope: readonly string[], key: string, next: () => Claim): Promise<Claim>;
  /** A key reused with another request: refused (the reference's way), or run as a new request. */
  reused?(ex: Exchange, refusal: ApiError, key: { scope: readonly string[]; key: string; }): 'refuse' | 'run';
}

export interface Hooks {
  /** The most bytes an upload may hold (the reference's: the reading upload-limit); undefined: no limit. */
  uploadLimit?(limit: number): number | undefined;
  /** A fresh id of a record created through the API. */
  newId?(next: () => string): string;
  /** Who a request is served as: `next` is the reference's answer, a principal or a refusal thrown. */
  authenticate?(ex: Exchange, next: () => Principal): Principal;
  /** The path id a handler looks up: `next` gives it or throws the refusal of a malformed one. */
  pathId?(ex: Exchange, id: string, next: () => string): string;
  /** The checks of a request's input (its body, its query, an upload's fields): `next` throws the refusal. */
  validate?(ex: Exchange, next: () => void): void;
  /** A route's work after its input is checked (idempotency and handler): may change the exchange before, the result after, or answer otherwise. */
  handle?(ex: Exchange, next: () => Promise<Result>): Promise<Result>;
  /** Finding a record within the caller's team: `next` gives it or throws the refusal (404, or 400 for a reference). */
  lookup?(ex: Exchange, find: Find, next: () => Entry): Entry;
  /** What a list draws from and keeps, before its page is cut. */
  list?(ex: Exchange, plan: ListPlan): ListPlan;
  /** A list's page, once cut. */
  page?(ex: Exchange, page: Page, plan: ListPlan): Page;
  idempotency?: IdempotencyHooks;
  /** An upload as received, before its fields are checked. */
  received?(ex: Exchange, upload: ReceivedUpload): Promise<ReceivedUpload>;
  /** The bytes of a download. */
  download?(ex: Exchange, entry: Entry, next: () => Promise<Readable>): Promise<Readable>;
  /** Every answer of a route, result or error, before it is sent (`ex` is absent before a route is matched). */
  respond?(ex: Exchange | undefined, answer: Answer): Answer;
}
