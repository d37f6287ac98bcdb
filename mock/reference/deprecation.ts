// Deprecation signalling (§9): responses of deprecated operations carry
// `Deprecation: @<unix-seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594, never
// before the Deprecation date) and `Link` with rel="deprecation" and rel="sunset".
import { type AppContext, DEPRECATION_DATE, SUNSET_DATE } from './context.js';
import { CHOSEN_PATHS } from './openapi.js';

export type HeaderSet = [name: string, value: string][];

export function deprecationHeaders(basePath: string): HeaderSet {
  const doc = `${basePath}${CHOSEN_PATHS.openapi}`;
  return [
    ['deprecation', `@${Math.floor(DEPRECATION_DATE.getTime() / 1000)}`],
    ['sunset', SUNSET_DATE.toUTCString()],
    ['link', `<${doc}>; rel="deprecation"; type="application/json", <${doc}>; rel="sunset"; type="application/json"`],
  ];
}

/** Built once per mock: the dates are fixed at start. */
const builtHeaders = new WeakMap<AppContext, HeaderSet>();

/** The signalling headers of every response of `operationId`: none unless it is deprecated. */
export function operationHeaders(ctx: AppContext, operationId: string | undefined): HeaderSet {
  if (operationId === undefined || !ctx.deprecated.has(operationId)) return [];
  let headers = builtHeaders.get(ctx);
  if (!headers) builtHeaders.set(ctx, headers = deprecationHeaders(ctx.basePath));
  return headers;
}
