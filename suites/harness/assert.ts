// Failures that carry their evidence: the exchange that shows the problem.
import type { ApiResponse } from './client.js';
import type { Exchange } from './current.js';

export class CheckFailure extends Error {
  constructor(message: string, readonly exchange?: Exchange) {
    super(message);
    this.name = 'CheckFailure';
  }
}

export function fail(message: string, res?: ApiResponse): never {
  throw new CheckFailure(res ? `${message} (${res.exchange.request.method} ${res.exchange.request.url} → ${res.status})` : message, res?.exchange);
}

export function ensure(condition: unknown, message: string, res?: ApiResponse): asserts condition {
  if (!condition) fail(message, res);
}

export type StatusRule = number | readonly number[] | '2xx' | '4xx';

const matches = (status: number, rule: StatusRule) =>
  rule === '2xx' ? status >= 200 && status < 300
  : rule === '4xx' ? status >= 400 && status < 500
  : typeof rule === 'number' ? status === rule
  : rule.includes(status);

export function expectStatus(res: ApiResponse, rule: StatusRule, what: string): void {
  if (!matches(res.status, rule)) {
    const excerpt = res.text.length > 300 ? `${res.text.slice(0, 300)}…` : res.text;
    fail(`${what}: expected ${Array.isArray(rule) ? rule.join('|') : rule}, got ${res.status} ${excerpt}`, res);
  }
}

export const is2xx = (res: ApiResponse) => res.status >= 200 && res.status < 300;
export const is4xx = (res: ApiResponse) => res.status >= 400 && res.status < 500;

/** The `error.code` of an error body, when there is one. */
export function errorCode(res: ApiResponse): string | undefined {
  const body = res.body as { error?: { code?: unknown } } | undefined;
  return typeof body?.error?.code === 'string' ? body.error.code : undefined;
}
