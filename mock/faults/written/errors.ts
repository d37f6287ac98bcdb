// Written faults of the error envelopes (§7).
import type { Rec } from '../../../contract/json.js';
import { badRequest } from '../../reference/errors.js';
import type { Answer, Hooks } from '../../reference/hooks.js';
import { fault } from '../fault.js';

/** A respond hook editing the JSON body of error answers (`short`: only those in the short envelope). */
const editError = (edit: (body: Rec, answer: Answer) => Rec, short = false): NonNullable<Hooks['respond']> => (_ex, answer) => {
  if (!answer.error || (short && answer.error.envelope !== 'short')) return answer;
  const body = JSON.parse(String(answer.body)) as Rec;
  return { ...answer, body: JSON.stringify(edit({ ...body, error: { ...(body.error as Rec) } }, answer)) };
};

export const errorFaults = [
  fault('wrong-error-code', ['ERR-NOT-FOUND', 'ISO-GET-MISSING-404', 'ISO-GET-OTHER-TEAM-404', 'CHANGELOG-1-6-0-NOT-FOUND', 'ID-NIL-MAX-NOT-FOUND'],
    'not_found is reported as code missing', () => ({
      respond: editError((b) => ((b.error as Rec).code === 'not_found' ? { ...b, error: { ...(b.error as Rec), code: 'missing' } } : b)),
    })),
  fault('detail-not-strings', ['ERR-DETAIL-MAP', 'ERR-ENVELOPES', 'ERR-FULL-ENVELOPE'], 'detail values are objects instead of strings', () => ({
    respond: editError((b) => (b.detail ? { ...b, detail: Object.fromEntries(Object.entries(b.detail as Rec).map(([k, v]) => [k, { message: v }])) } : b)),
  })),
  fault('error-envelope-broken', ['ERR-ENVELOPES', 'ERR-FULL-ENVELOPE'], 'errors are served as { message } without the error object', () => ({
    respond: editError((b, a) => ({ message: (b.error as Rec).message, status: a.status })),
  })),
  fault('short-envelope-broken', ['ERR-SHORT-ENVELOPE'], 'in the legacy shape, short-envelope errors lack error.code', () => ({
    respond: editError((b) => {
      const { code: _code, ...error } = b.error as Rec;
      return { ...b, error };
    }, true),
  }), 'legacy'),
  fault('json-brackets-in-strings-nest', ['EP-PROJECTS-PATCH'],
    'a JSON body whose text holds more than 64 opening brackets, inside strings too, is refused as nested too deeply', () => ({
      validate: (ex, next) => {
        if (JSON.stringify(ex.body ?? {}).split('[').length - 1 > 64) {
          throw badRequest('The JSON body is nested too deeply', { body: 'nested deeper than 64 levels' });
        }
        next();
      },
    })),
  fault('patch-not-an-object-5xx', ['EP-PROJECTS-PATCH'], 'a JSON body that is not an object (null, an array, a scalar) answers 500', () => ({
    respond: (_ex, answer) =>
      answer.error?.api.status === 400 && String(answer.error.api.detail?.body ?? '').startsWith('must be a JSON object')
        ? {
          status: 500,
          contentType: answer.contentType,
          headers: answer.headers,
          body: JSON.stringify({ error: { code: 'internal_error', message: 'Internal error' } }),
        }
        : answer,
  })),
  fault('json-5xx', ['GEN-JSON-BODIES', 'ERR-ENVELOPES'], 'malformed JSON bodies answer 500 with a text/plain body', () => ({
    respond: (_ex, answer) => {
      const body = answer.error?.api.detail?.body;
      const malformed = answer.error?.api.status === 400 && (body === 'is not valid JSON' || body === 'is empty');
      return malformed ? { status: 500, contentType: 'text/plain; charset=utf-8', headers: answer.headers, body: 'Internal Server Error' } : answer;
    },
  })),
  fault('plan-limit-fields-missing', ['LIMIT-PLAN-ERROR-FIELDS', 'AUTH-PLAN-NO-API-ACCESS'], 'the plan-limit error lacks feature, plan, current and limit',
    () => ({
      respond: editError((b) => {
        const { feature: _f, plan: _p, current: _c, limit: _l, ...error } = b.error as Rec;
        return { ...b, error };
      }),
    })),
] as const;
