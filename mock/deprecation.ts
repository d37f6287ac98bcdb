// Deprecation signalling (§9): responses of deprecated operations carry
// `Deprecation: @<unix-seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594, never
// before the Deprecation date) and `Link` with rel="deprecation" and rel="sunset".
import { type AppContext, DEPRECATION_DATE, SUNSET_DATE } from './context.js';
import type { Faults } from './faults.js';
import { CHOSEN_PATHS } from './openapi.js';

export type HeaderSet = [name: string, value: string][];

export function deprecationHeaders(basePath: string, faults: Faults): HeaderSet {
  const deprecation = `@${Math.floor(DEPRECATION_DATE.getTime() / 1000)}`;
  let sunset = SUNSET_DATE.toUTCString();
  if (faults.on('sunset-malformed')) sunset = SUNSET_DATE.toISOString().slice(0, 10);
  if (faults.on('sunset-before-deprecation')) sunset = new Date(DEPRECATION_DATE.getTime() - 180 * 86_400_000).toUTCString();
  const doc = `${basePath}${CHOSEN_PATHS.openapi}`;
  const headers: HeaderSet = [
    ['sunset', sunset],
    ['link', `<${doc}>; rel="deprecation"; type="application/json", <${doc}>; rel="sunset"; type="application/json"`],
  ];
  if (!faults.on('deprecation-header-missing')) headers.unshift(['deprecation', deprecation]);
  return headers;
}

/** Built once per mock: the dates and the fault are fixed at start. */
const builtHeaders = new WeakMap<AppContext, HeaderSet>();

/** The signalling headers of every response of `operationId`: none unless it is deprecated. */
export function operationHeaders(ctx: AppContext, operationId: string | undefined): HeaderSet {
  const deprecated = ctx.faults.on('deprecation-everywhere') || (operationId !== undefined && ctx.deprecated.has(operationId));
  if (!deprecated) return [];
  let headers = builtHeaders.get(ctx);
  if (!headers) builtHeaders.set(ctx, headers = deprecationHeaders(ctx.basePath, ctx.faults));
  return headers;
}
