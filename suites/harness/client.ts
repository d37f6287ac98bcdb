// The HTTP client of every check: one keep-alive undici Agent, a timeout on every request,
// bounded concurrency, bounded 429 retries, a redacted transcript of each exchange.
// Traffic of the whole worker can be stopped (a signal, the run deadline, or the target no
// longer answering: CONFORMANCE_STOP_AFTER_NO_RESPONSE requests in a row without a response):
// then requests in flight are aborted and only cleanup requests are sent. Per-worker state, owned
// here: the response inspectors and the traffic stop (the fault sweep resets it per fault,
// resetTrafficForTests); each ApiClient is the session's (session.ts).
import { Agent, request as undiciRequest } from 'undici';
import { API_PREFIX, type KeyName, keySettingNames, type Settings } from '../../contract/settings.js';
import { redactString, type Secret } from '../../reports/redact.js';
import { judge, type Violation } from './audit.js';
import { curlCommand } from './curl.js';
import { currentCheck, type Exchange, recordExchange, recordFinding, recordJudged } from './current.js';
import { excerptAt } from './excerpt.js';
import { noteRecords } from './references.js';
import { encodeBody } from './request-body.js';
import { readResponse } from './response-body.js';
import { retryAfterMs, Semaphore } from './retry.js';
import type { UploadFile } from './upload.js';

export type Auth = KeyName | 'none' | { authorization: string; };

export interface ApiRequest {
  method: string;
  /** Relative to /api/public/v1 unless it starts with /api/. */
  path: string;
  query?: Record<string, string | number | undefined>;
  auth?: Auth; // default: team
  headers?: Record<string, string>;
  /** Headers the client sends by default that this request leaves out (an absent Accept). */
  omit?: readonly string[];
  json?: unknown;
  rawBody?: string;
  idempotencyKey?: string;
  upload?: { fields: Record<string, string>; file: UploadFile; fileFirst?: boolean; };
  /** 'hash': stream the response body into a sha256 instead of keeping it. */
  consume?: 'text' | 'hash';
  timeoutMs?: number;
  /** Cleanup of what the run changed: still sent after traffic was stopped. */
  cleanup?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
  sha256?: string;
  length?: number;
  exchange: Exchange;
  /** What the response violates of what the document says of every response (audit.ts): readers stop short of these. */
  findings?: readonly Violation[];
}

export type ResponseInspector = (exchange: Exchange) => string | undefined;

const inspectors: ResponseInspector[] = [];

/** Every response of every client passes through fn; a returned string fails the running check. */
export function addResponseInspector(fn: ResponseInspector): void {
  inspectors.push(fn);
}

/** Why this worker stopped sending check traffic. */
export interface TrafficStop {
  cause: 'interrupted' | 'deadline' | 'target-unresponsive';
  message: string;
}

let stopped: TrafficStop | undefined;
let stopController = new AbortController();
let noResponseInARow = 0;
const stopListeners: ((s: TrafficStop) => void)[] = [];

/** Stops check traffic of this worker for the rest of the run (the first reason wins). */
export function stopTraffic(stop: TrafficStop): void {
  if (stopped) return;
  stopped = stop;
  stopController.abort(new RunStopped(stop));
  for (const fn of stopListeners) fn(stop);
}

export function trafficStop(): TrafficStop | undefined {
  return stopped;
}

export function onTrafficStop(fn: (s: TrafficStop) => void): void {
  stopListeners.push(fn);
}

/** For harness unit tests: traffic flows again. */
export function resetTrafficForTests(): void {
  stopped = undefined;
  stopController = new AbortController();
  noResponseInARow = 0;
}

/** A request refused because traffic was stopped; the check it belongs to could not run. */
export class RunStopped extends Error {
  constructor(readonly stop: TrafficStop) {
    super(`the run stopped: ${stop.message}`);
    this.name = 'RunStopped';
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const BODY_LIMIT = 4000;
const truncate = (s: string) => (s.length > BODY_LIMIT ? `${s.slice(0, BODY_LIMIT)}… (${s.length} chars)` : s);

export class ApiClient {
  private readonly agent: Agent;
  private readonly gate: Semaphore;
  /** The run's keys: transcripts and curl commands show each one's setting instead. */
  private readonly keys: Secret[];
  sent = 0;

  constructor(private readonly settings: Settings & { baseUrl: string; }) {
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: settings.concurrency });
    this.gate = new Semaphore(settings.concurrency);
    this.keys = (Object.keys(keySettingNames) as KeyName[]).flatMap((k) => {
      const value = settings.keys[k];
      return value ? [{ value, replacement: `$${keySettingNames[k]}` }] : [];
    });
  }

  private redact(text: string): string {
    return redactString(text, this.keys);
  }

  /** Whether the run has the key (a check may be given fewer). */
  hasKey(key: KeyName): boolean {
    return this.settings.keys[key] !== undefined;
  }

  url(path: string, query?: ApiRequest['query']): string {
    const url = new URL(this.settings.baseUrl + (path.startsWith('/api/') ? path : API_PREFIX + path));
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  async send(req: ApiRequest): Promise<ApiResponse> {
    // the last line of defence of CONFORMANCE_READ_ONLY=1: nothing but reads leaves the process
    if (this.settings.readOnly && !SAFE_METHODS.has(req.method.toUpperCase())) {
      throw new Error(`CONFORMANCE_READ_ONLY=1: refusing to send ${req.method} ${req.path}`);
    }
    if (stopped && !req.cleanup) throw new RunStopped(stopped);
    for (let attempt = 0;; attempt += 1) {
      const res = await this.gate.run(() => this.once(req));
      if (res.status !== 429 || attempt >= this.settings.maxRetries) return res;
      const wait = retryAfterMs(res.headers['retry-after'], attempt);
      if (wait > this.settings.maxRetryAfterMs) return res;
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private headersFor(req: ApiRequest): { real: Record<string, string>; shown: Record<string, string>; } {
    const real: Record<string, string> = { accept: 'application/json', ...req.headers };
    for (const name of req.omit ?? []) delete real[name];
    const shown: Record<string, string> = { ...real };
    const auth = req.auth ?? 'team';
    if (typeof auth === 'object') {
      real.authorization = auth.authorization;
      shown.authorization = this.redact(auth.authorization);
    } else if (auth !== 'none') {
      const key = this.settings.keys[auth];
      if (key === undefined) throw new Error(`${keySettingNames[auth]} is not set`);
      real.authorization = `Bearer ${key}`;
      shown.authorization = `Bearer $${keySettingNames[auth]}`;
    }
    if (req.idempotencyKey !== undefined) real['idempotency-key'] = shown['idempotency-key'] = req.idempotencyKey;
    return { real, shown };
  }

  private async once(req: ApiRequest): Promise<ApiResponse> {
    const url = this.url(req.path, req.query);
    const { real, shown } = this.headersFor(req);
    const encoded = encodeBody(req);
    Object.assign(real, encoded.headers);
    Object.assign(shown, encoded.headers);
    const shownBody = encoded.shown === undefined ? undefined : this.redact(encoded.shown);
    const request: Exchange['request'] = { method: req.method, url, headers: shown, ...(shownBody !== undefined ? { body: truncate(shownBody) } : {}) };
    const curl = curlCommand({
      method: req.method,
      url,
      headers: shown,
      ...(encoded.multipart ? { multipart: encoded.multipart } : shownBody !== undefined ? { body: shownBody } : {}),
    });
    const started = Date.now();
    const timeout = req.timeoutMs ?? this.settings.timeoutMs;
    this.sent += 1;
    const signal = req.cleanup ? AbortSignal.timeout(timeout) : AbortSignal.any([AbortSignal.timeout(timeout), stopController.signal]);
    try {
      const res = await undiciRequest(url, {
        dispatcher: this.agent,
        method: req.method as 'GET',
        headers: real,
        body: encoded.body,
        signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      noResponseInARow = 0;
      const read = await readResponse(res, req.consume === 'hash');
      const exchange: Exchange = {
        request,
        response: { status: res.statusCode, headers: read.headers, body: truncate(this.redact(read.text)) },
        curl,
        durationMs: Date.now() - started,
      };
      this.finish(exchange);
      return { status: res.statusCode, exchange, ...read, findings: this.audit(req, exchange, read) };
    } catch (e) {
      // aborted because traffic was stopped: not the target's silence
      if (signal.aborted && signal.reason instanceof RunStopped) throw signal.reason;
      const exchange: Exchange = { request, error: this.redact(String((e as Error).message ?? e)), curl, durationMs: Date.now() - started };
      this.finish(exchange);
      this.noResponse(`${req.method} ${req.path}: ${exchange.error}`);
      throw new TransportError(`${req.method} ${url}: ${exchange.error}`, exchange);
    }
  }

  /** One more request in a row without a response; enough of them stop the run. */
  private noResponse(what: string): void {
    noResponseInARow += 1;
    const limit = this.settings.stopAfterNoResponse ?? Infinity;
    if (noResponseInARow >= limit) {
      stopTraffic({
        cause: 'target-unresponsive',
        message: `the target stopped answering: ${noResponseInARow} requests in a row got no response (last: ${what})`,
      });
    }
  }

  /**
   * The response judged for what the document says of every response: its violations recorded
   * in the running check (once per kind, with the part of the body around each), the records it
   * shows handed on for their references. Returned for the check's own reading of the body.
   */
  private audit(req: ApiRequest, exchange: Exchange, read: { headers: Record<string, string>; text: string; body: unknown; }): Violation[] {
    let j: ReturnType<typeof judge>;
    try {
      j = judge(this.settings, { method: req.method, url: exchange.request.url, status: exchange.response!.status, ...read });
    } catch {
      return []; // judging needs a run's target (the served shape); a client used without one is not judged
    }
    if (!j.operation) return [];
    const operation = j.operation;
    recordJudged(j.judged);
    for (const { readable: _readable, ...v } of j.violations) {
      recordFinding(() => ({
        ...v,
        seenIn: [operation],
        count: 1,
        request: exchange.request,
        ...(exchange.response ? { response: exchange.response } : {}),
        curl: exchange.curl,
        ...(read.body !== undefined ? { excerpt: this.redact(excerptAt(read.body, v.pointer)) } : {}),
      }), v.key, operation);
    }
    if (j.records.length > 0) noteRecords(req.auth, j.records, { exchange, body: read.body, operation, redact: (t) => this.redact(t) });
    return j.violations;
  }

  private finish(exchange: Exchange): void {
    recordExchange(exchange);
    const state = currentCheck();
    if (!exchange.response || !state) return;
    for (const inspect of inspectors) {
      const problem = inspect(exchange);
      if (problem) state.inspections.push(`${exchange.request.method} ${exchange.request.url}: ${problem}`);
    }
  }
}

/** No response arrived (timeout, refused or reset connection). */
export class TransportError extends Error {
  constructor(message: string, readonly exchange: Exchange) {
    super(message);
    this.name = 'TransportError';
  }
}
