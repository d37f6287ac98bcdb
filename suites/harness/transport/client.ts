// The HTTP client of every check: one keep-alive undici Agent, a timeout on every request,
// bounded concurrency, bounded 429 retries, a redacted transcript of each exchange.
// Traffic of the whole worker can be stopped (a signal, the run deadline, or the target no
// longer answering: CONFORMANCE_STOP_AFTER_NO_RESPONSE requests in a row without a response):
// then requests in flight are aborted and only cleanup requests are sent. Per-worker state, owned
// here: the response inspectors and the traffic stop (the fault sweep resets it per fault,
// resetTrafficForTests); each ApiClient is the session's (session.ts).
import { Agent, request as undiciRequest } from 'undici';
import { API_PREFIX, type KeyName, keySettingNames, type Settings } from '../../../contract/settings.js';
import { redactString, type Secret } from '../../../reports/redact.js';
import { RunContext, RunStopped, workerRun } from '../run/context.js';
import { currentCheck, type Exchange, recordExchange } from '../run/current.js';

import { noteCreated } from '../run/names-seen.js';
import { curlCommand } from './curl.js';
import { encodeBody } from './request-body.js';
import { readResponse } from './response-body.js';
import { retryAfterMs, Semaphore } from './retry.js';
import type { UploadFile } from './upload.js';

/**
 * A key of the run sent otherwise than as is: under another spelling of the scheme (`bearer`), or
 * altered (`case`: every letter's case changed; `tail`: the last character changed, the first ones
 * kept). The transcript shows the key's setting name, never the key or its altered form.
 */
export interface KeyVariant {
  key: KeyName;
  scheme?: string;
  alter?: KeyAlteration;
}
export type KeyAlteration = 'case' | 'tail';
export type Auth = KeyName | 'none' | { authorization: string; } | KeyVariant;

const ALTERATION_WORDS: Record<KeyAlteration, string> = { case: 'letter case changed', tail: 'last character changed' };

/** `key` altered as `alter` says (the same string when it cannot be: a key without letters keeps its case). */
export function alteredKey(key: string, alter: KeyAlteration): string {
  if (alter === 'case') return [...key].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
  const last = key.at(-1);
  return last === undefined ? key : `${key.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}

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

/** What an observer of responses found wrong with one (the audit, judge/audit.ts): readers stop short of these. */
export interface Violation {
  key: string;
  requirements: string[];
  message: string;
  pointer: string;
  /** The value is still there to read (a record in the other shape, a JSON body labelled otherwise): no reader is stopped by it. */
  readable?: true;
}

/**
 * Sees every response a client receives, with the client's redaction, and says what is wrong
 * with it. The transport knows no rule of the document: the session gives it the audit.
 */
export type ResponseObserver = (
  req: ApiRequest,
  exchange: Exchange,
  read: { headers: Record<string, string>; text: string; body: unknown; },
  redact: (text: string) => string,
) => readonly Violation[];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const BODY_LIMIT = 4000;
const truncate = (s: string) => (s.length > BODY_LIMIT ? `${s.slice(0, BODY_LIMIT)}… (${s.length} chars)` : s);

export class ApiClient {
  private readonly agent: Agent;
  private readonly gate: Semaphore;
  /** The run's keys: transcripts and curl commands show each one's setting instead. */
  private readonly keys: Secret[];
  sent = 0;

  private readonly run: RunContext;
  private readonly observe: ResponseObserver | undefined;

  constructor(private readonly settings: Settings & { baseUrl: string; }, o: { run?: RunContext; observe?: ResponseObserver; } = {}) {
    this.run = o.run ?? workerRun();
    this.observe = o.observe;
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: settings.concurrency });
    this.gate = new Semaphore(settings.concurrency);
    // an altered key is nearly the key: it is kept out of transcripts as the key is
    this.keys = (Object.keys(keySettingNames) as KeyName[]).flatMap((k) => {
      const value = settings.keys[k];
      if (!value) return [];
      const variants = (Object.keys(ALTERATION_WORDS) as KeyAlteration[]).map((a) => ({
        value: alteredKey(value, a),
        replacement: `$${keySettingNames[k]}(${ALTERATION_WORDS[a]})`,
      }));
      return [{ value, replacement: `$${keySettingNames[k]}` }, ...variants.filter((v) => v.value !== value && v.value.length >= 6)];
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
    if (this.run.stopped && !req.cleanup) throw new RunStopped(this.run.stopped);
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
    if (typeof auth === 'object' && 'key' in auth) {
      const key = this.settings.keys[auth.key];
      if (key === undefined) throw new Error(`${keySettingNames[auth.key]} is not set`);
      const scheme = auth.scheme ?? 'Bearer';
      real.authorization = `${scheme} ${auth.alter ? alteredKey(key, auth.alter) : key}`;
      shown.authorization = `${scheme} $${keySettingNames[auth.key]}${auth.alter ? ` (${ALTERATION_WORDS[auth.alter]})` : ''}`;
    } else if (typeof auth === 'object') {
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
    const request: Exchange['request'] = {
      method: req.method,
      url,
      headers: shown,
      ...(shownBody !== undefined ? { body: truncate(shownBody) } : {}),
      ...(encoded.multipart ? { file: encoded.multipart.file } : {}),
    };
    const curl = curlCommand({
      method: req.method,
      url,
      headers: shown,
      ...(encoded.multipart ? { multipart: encoded.multipart } : shownBody !== undefined ? { body: shownBody } : {}),
    });
    const started = Date.now();
    const timeout = req.timeoutMs ?? this.settings.timeoutMs;
    this.sent += 1;
    const signal = req.cleanup ? AbortSignal.timeout(timeout) : AbortSignal.any([AbortSignal.timeout(timeout), this.run.signal]);
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
      this.run.noResponseInARow = 0;
      const read = await readResponse(res, req.consume === 'hash');
      if (req.method === 'POST' && res.statusCode >= 200 && res.statusCode < 300) noteCreated(read.body);
      const exchange: Exchange = {
        request,
        response: { status: res.statusCode, headers: read.headers, body: truncate(this.redact(read.text)) },
        curl,
        durationMs: Date.now() - started,
      };
      this.finish(exchange);
      return { status: res.statusCode, exchange, ...read, findings: this.observe?.(req, exchange, read, (t) => this.redact(t)) ?? [] };
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
    this.run.noResponseInARow += 1;
    const limit = this.settings.stopAfterNoResponse ?? Infinity;
    if (this.run.noResponseInARow >= limit) {
      this.run.stop({
        cause: 'target-unresponsive',
        message: `the target stopped answering: ${this.run.noResponseInARow} requests in a row got no response (last: ${what})`,
      });
    }
  }

  private finish(exchange: Exchange): void {
    recordExchange(exchange);
    const state = currentCheck();
    if (!exchange.response || !state) return;
    for (const inspect of this.run.inspectors) {
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
