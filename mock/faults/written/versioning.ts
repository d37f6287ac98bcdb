// Written faults of versioning (§9): the major version in the path, deprecation signalling, the
// served description.
import type { Rec } from '../../../contract/json.js';
import { DEPRECATION_DATE, SUNSET_DATE } from '../../reference/context.js';
import { deprecationHeaders } from '../../reference/deprecation.js';
import type { Answer } from '../../reference/hooks.js';
import { fault } from '../fault.js';
import { editBody } from '../records.js';

const withHeaders = (answer: Answer, edit: (h: Record<string, string>) => void): Answer => {
  const headers = { ...answer.headers };
  edit(headers);
  return { ...answer, headers };
};

export const versioningFaults = [
  fault('v1-path-missing', ['GEN-BASE-PATH', 'VER-MAJOR-IN-PATH', 'CHANGELOG-1-0-0-INITIAL-SURFACE'],
    'the API answers under /api/public/v2 instead of /api/public/v1', () => ({
      routes: (t) => ({ ...t, basePath: '/api/public/v2' }),
    })),
  fault('deprecation-header-missing', ['VER-DEPRECATION-HEADER'], 'deprecated operations carry Sunset but no Deprecation header', () => ({
    respond: (_ex, a) => withHeaders(a, (h) => delete h.deprecation),
  })),
  fault('deprecation-missing-with-query', ['VER-DEPRECATION-HEADER'], 'deprecated operations carry no Deprecation header when the request has a query string',
    () => ({
      respond: (ex, a) => (ex?.url.includes('?') ? withHeaders(a, (h) => ['deprecation', 'sunset', 'link'].forEach((k) => delete h[k])) : a),
    })),
  fault('deprecation-everywhere', ['VER-DEPRECATION-ONLY-AFFECTED'], 'every response carries a Deprecation header', (ctx) => ({
    respond: (_ex, a) => withHeaders(a, (h) => deprecationHeaders(ctx.basePath).forEach(([k, v]) => (h[k] = v))),
  })),
  fault('sunset-malformed', ['VER-SUNSET-HEADER'], 'the Sunset header is an ISO date instead of an HTTP-date', () => ({
    respond: (_ex, a) => (a.headers.sunset ? withHeaders(a, (h) => (h.sunset = SUNSET_DATE.toISOString().slice(0, 10))) : a),
  })),
  fault('sunset-before-deprecation', ['VER-SUNSET-NOT-BEFORE-DEPRECATION'], 'the Sunset date is earlier than the Deprecation date', () => ({
    respond: (_ex, a) => (a.headers.sunset ? withHeaders(a, (h) => (h.sunset = new Date(DEPRECATION_DATE.getTime() - 180 * 86_400_000).toUTCString())) : a),
  })),
  fault('openapi-deprecated-missing', ['VER-OPENAPI-DEPRECATED-FLAG'], 'the served OpenAPI document omits deprecated: true', () => ({
    respond: editBody(['getOpenApi'], (doc) => {
      for (const item of Object.values(doc.paths as Record<string, Record<string, Rec>>)) for (const op of Object.values(item)) delete op.deprecated;
      return doc;
    }),
  })),
  fault('info-version-wrong', ['VER-INFO-VERSION-SEMVER'], 'the served OpenAPI info.version is 2.0.0', () => ({
    respond: editBody(['getOpenApi'], (doc) => ({ ...doc, info: { ...(doc.info as Rec), version: '2.0.0' } })),
  })),
] as const;
