// The audit as the session hands it to the transport: each response a client receives is judged
// for what the document says of every response (audit.ts), its violations recorded in the
// running check (once per kind, with the part of the body around each), the records it shows
// handed on for their references (references.ts). The transport imports none of this.
import type { Settings } from '../../../contract/settings.js';
import { recordFinding, recordJudged } from '../run/current.js';
import type { ResponseObserver } from '../transport/client.js';
import { excerptAt } from '../transport/excerpt.js';
import { judge, type Judgement } from './audit.js';
import { noteRecords } from './references.js';

export function auditResponses(settings: Settings & { baseUrl: string; }): ResponseObserver {
  return (req, exchange, read, redact) => {
    let j: Judgement;
    try {
      j = judge(settings, { method: req.method, url: exchange.request.url, status: exchange.response!.status, ...read });
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
        ...(read.body !== undefined ? { excerpt: redact(excerptAt(read.body, v.pointer)) } : {}),
      }), v.key, operation);
    }
    if (j.records.length > 0) noteRecords(req.auth, j.records, { exchange, body: read.body, operation, redact });
    return j.violations;
  };
}
