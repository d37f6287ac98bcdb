// Keyset pagination with opaque, signed cursors.
// A cursor is base64url(JSON {s: sort, o: order, v: last sort value, i: last id})
// + "." + base64url(HMAC-SHA256 over that JSON with a per-start secret). The MAC makes
// tampered cursors undecodable; the embedded sort/order bind the cursor to its listing.
// Order is total: (sort value, id), nulls first, so ties never reorder between pages.
// Reading cursor-format=plain drops the MAC (a tampered cursor that still decodes is honoured).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, badRequest } from './errors.js';
import type { PageBuffers } from './exchange.js';
import type { Readings } from './readings.js';
import { type Collection, compareKeys, type Entry, type TeamId } from './store.js';

export type Order = 'asc' | 'desc';
export type SortValue = string | number | boolean | null;
/** What a cursor says: the sort and order it was issued for, and the sort value and id of the last item shown. */
export interface CursorPayload {
  s: string;
  o: Order;
  v: SortValue;
  i: string;
}

/** Cursors remembered per codec, each way; the memo is emptied when full. */
const CURSOR_MEMO_SIZE = 4096;

export class CursorCodec {
  // The same cursors come back again and again (every client walks the same pages), and an
  // HMAC costs more than the rest of a cached page's answer: both directions are memoised.
  private readonly encoded = new Map<string, string>();
  private readonly decoded = new Map<string, CursorPayload | undefined>();

  constructor(private readonly secret: Buffer = randomBytes(32), private readonly signed = true) {}

  private mac(json: string): Buffer {
    return createHmac('sha256', this.secret).update(json).digest();
  }

  encode(p: CursorPayload): string {
    const json = JSON.stringify(p);
    let cursor = this.encoded.get(json);
    if (cursor === undefined) {
      cursor = this.signed ? `${Buffer.from(json).toString('base64url')}.${this.mac(json).toString('base64url')}` : Buffer.from(json).toString('base64url');
      remember(this.encoded, json, cursor);
    }
    return cursor;
  }

  /** The payload (shared: callers must not change it), or undefined when the cursor is not one this server issued. */
  decode(cursor: string): CursorPayload | undefined {
    if (this.decoded.has(cursor)) return this.decoded.get(cursor);
    const payload = this.verify(cursor);
    remember(this.decoded, cursor, payload);
    return payload;
  }

  private verify(cursor: string): CursorPayload | undefined {
    if (!this.signed) return /^[A-Za-z0-9_-]+$/.test(cursor) ? payloadOf(Buffer.from(cursor, 'base64url').toString('utf8')) : undefined;
    const dot = cursor.indexOf('.');
    if (dot <= 0 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
    const json = Buffer.from(cursor.slice(0, dot), 'base64url').toString('utf8');
    const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = this.mac(json);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return payloadOf(json);
  }
}

function remember<V>(memo: Map<string, V>, key: string, value: V): void {
  if (memo.size >= CURSOR_MEMO_SIZE) memo.clear();
  memo.set(key, value);
}

function payloadOf(json: string): CursorPayload | undefined {
  try {
    const p = JSON.parse(json) as CursorPayload;
    const value = p?.v === null || ['string', 'number', 'boolean'].includes(typeof p?.v);
    return p && typeof p.s === 'string' && (p.o === 'asc' || p.o === 'desc') && typeof p.i === 'string' && value ? p : undefined;
  } catch {
    return undefined;
  }
}

export interface ListQuery {
  limit: number;
  sort: string;
  order: Order;
  after?: CursorPayload;
  q?: string;
}

/** Parses limit/cursor/sort/order/q (§4 list parameters); every problem is a 400 with `detail`. */
export function parseListQuery(query: Record<string, unknown>, sortFields: readonly string[], codec: CursorCodec, readings: Readings): ListQuery {
  const detail: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (Array.isArray(v)) detail[k] = 'must be given at most once';
  if (Object.keys(detail).length) throw badRequest('Invalid query parameters', detail);
  const str = (k: string) => (typeof query[k] === 'string' ? (query[k] as string) : undefined);

  const defaultLimit = Number(readings.value('default-limit'));
  const maxLimit = Number(readings.value('max-limit'));
  let limit = defaultLimit;
  const rawLimit = str('limit');
  let overMax = false;
  if (rawLimit !== undefined) {
    const valid = /^[0-9]{1,9}$/.test(rawLimit) && Number(rawLimit) > 0;
    const refuse = readings.value('limit-over-max');
    if (valid && Number(rawLimit) > maxLimit && refuse === '400') detail.limit = `must be at most ${maxLimit}`;
    else if (valid && Number(rawLimit) > maxLimit && refuse === '422') overMax = true;
    else if (valid) limit = Math.min(Number(rawLimit), maxLimit);
    else detail.limit = `must be a positive integer (maximum ${maxLimit})`;
  }
  const sort = str('sort') || sortFields[0]!;
  if (!sortFields.includes(sort)) detail.sort = `must be one of: ${sortFields.join(', ')}`;
  const rawOrder = str('order') || readings.value('default-order');
  if (rawOrder !== 'asc' && rawOrder !== 'desc') detail.order = 'must be asc or desc';
  const order: Order = rawOrder === 'desc' ? 'desc' : 'asc';
  if (Object.keys(detail).length) throw badRequest('Invalid query parameters', detail);
  // reading limit-over-max=422: a well-formed limit the server will not serve, told apart from a malformed one
  if (overMax) throw new ApiError(422, 'unprocessable_entity', 'The limit is above the maximum page size', { limit: `must be at most ${maxLimit}` });

  let after: CursorPayload | undefined;
  const cursor = str('cursor');
  // §4: absent or empty, the first page; rule 1: one that cannot be decoded, 400; rule 2: one issued for another sort or order, 400.
  if (cursor) {
    after = codec.decode(cursor);
    if (!after) throw badRequest('The cursor cannot be decoded', { cursor: 'is not a valid cursor' });
    if (after.s !== sort || after.o !== order) {
      throw badRequest('The cursor was issued for another sort or order', { cursor: `was issued for sort=${after.s}&order=${after.o}` });
    }
  }
  const q = str('q');
  return { limit, sort, order, after, q: q ? q.toLowerCase() : undefined };
}

export interface Page {
  items: Entry[];
  hasMore: boolean;
  nextCursor: string;
}

/** How a page is cut, beyond the query (readings). */
export interface PageOptions {
  /** false (reading empty-last-page=after-full-page): a full page says hasMore without looking for one more record. */
  lookAhead?: boolean;
  /**
   * true (reading page-scan=window): a page examines at most `limit` entries and answers those
   * passing `keep`, its cursor after the last one examined, so a filtered or searched list can
   * answer pages with no items and hasMore true.
   */
  window?: boolean;
}

/** One page of `sorted` (ascending) in the query's order, after the cursor, passing `keep`. */
export function paginate(sorted: readonly Entry[], lq: ListQuery, keep: (e: Entry) => boolean, codec: CursorCodec, o: PageOptions = {}): Page {
  const { lookAhead = true, window = false } = o;
  const n = sorted.length;
  const asc = lq.order === 'asc';
  let start = asc ? 0 : n - 1;
  const a = lq.after;
  if (a) {
    // Binary search for the first position strictly after the cursor in walking order.
    let lo = 0, hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = compareKeys(a.v, a.i, sorted[mid]!, lq.sort);
      // asc: find first e with key > cursor; desc: first e with key >= cursor, then step back.
      if (asc ? c >= 0 : c > 0) lo = mid + 1;
      else hi = mid;
    }
    start = asc ? lo : lo - 1;
  }
  const want = lq.limit;
  const items: Entry[] = [];
  let hasMore = false;
  let scanned = 0;
  let lastScanned: Entry | undefined;
  for (let i = start; asc ? i < n : i >= 0; i += asc ? 1 : -1) {
    const e = sorted[i]!;
    if (window) {
      if (scanned === want) {
        hasMore = true;
        break;
      }
      scanned += 1;
      lastScanned = e;
      if (keep(e)) items.push(e);
      continue;
    }
    if (!keep(e)) continue;
    if (items.length === want) {
      hasMore = true;
      break;
    }
    items.push(e);
  }
  if (!lookAhead && (window ? scanned : items.length) === want) hasMore = true;
  const last = window ? lastScanned : items[items.length - 1];
  const nextCursor = hasMore && last ? cursorAfter(codec, lq, last) : '';
  return { items, hasMore, nextCursor };
}

/** The cursor of the page after `last`, for the query's sort and order. */
export function cursorAfter(codec: CursorCodec, lq: Pick<ListQuery, 'sort' | 'order'>, last: Entry): string {
  return codec.encode({ s: lq.sort, o: lq.order, v: (last.row[lq.sort] ?? null) as SortValue, i: last.row.id });
}

/** The envelope's text after the items; reading last-page-cursor=absent omits an empty nextCursor. */
function pageTail(page: Page, readings?: Readings): string {
  const cursor = page.nextCursor === '' && readings?.value('last-page-cursor') === 'absent' ? '' : `,"nextCursor":${JSON.stringify(page.nextCursor)}`;
  return `],"page":{"hasMore":${page.hasMore}${cursor}}}`;
}

const PAGE_HEAD = '{"data":[';

/** Serializes a page envelope from pre-serialized items. */
export function pageJson(itemsJson: string[], page: Page, readings?: Readings): string {
  return `${PAGE_HEAD}${itemsJson.join(',')}${pageTail(page, readings)}`;
}

/**
 * The UTF-8 bytes of pageJson, assembled from each item's bytes (no page-sized string is built or
 * encoded); in `buffers`' memory when given.
 */
export function pageBytes(items: readonly Buffer[], page: Page, readings?: Readings, buffers?: PageBuffers): Buffer {
  const tail = pageTail(page, readings);
  let size = PAGE_HEAD.length + Buffer.byteLength(tail) + Math.max(0, items.length - 1);
  for (const item of items) size += item.length;
  const out = buffers?.take(size) ?? Buffer.allocUnsafe(size);
  let at = out.write(PAGE_HEAD, 0, 'latin1');
  items.forEach((item, i) => {
    if (i > 0) out[at++] = 0x2c; // ,
    at += item.copy(out, at);
  });
  out.write(tail, at);
  return out;
}

/** A filter of a list: only entries whose `field` equals `value` (the query parameter has the field's name). */
export interface Filter {
  field: string;
  value: string;
}

/** What a list endpoint lists: its collection, orders, search, filters and how an item is shown. */
export interface ListSource {
  col: Collection;
  sortFields: readonly string[];
  /** The name-like field `q` searches (case-insensitive substring). */
  searchField: string;
  /** The filters the query gives. */
  filters: readonly Filter[];
  view: (e: Entry) => string;
  /** Other collections the items embed (assignments embed employees). */
  dependsOn?: readonly Collection[];
}

/** A list request about to be cut into a page. */
export interface ListPlan {
  source: ListSource;
  query: ListQuery;
  /** Whose records are listed. */
  team: TeamId;
  /** The entries to cut the page from, ascending by (sort value, id), when drawn otherwise than from the team's index. */
  entries?: readonly Entry[];
}
