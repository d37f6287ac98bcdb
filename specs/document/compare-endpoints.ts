// Changes of the endpoint tables of §4: endpoints added or removed (a shown path replacing
// `(path under /x)` is documentation), their responses, and the inputs their payloads name.
import type { Change } from '../diff/index.js';
import { escapeToken } from '../diff/pointer.js';
import type { ApiDocument } from './api-document.js';
import { cellChange } from './compare-prose.js';
import { type Endpoint, endpointKey, type Input, type Payload } from './endpoints.js';
import { documentChange, endpointKinds, inputKinds } from './kinds.js';

const UNSPECIFIED = /^not (specified|shown)$/i;

export function compareEndpoints(a: ApiDocument, b: ApiDocument): Change[] {
  const changes: Change[] = [];
  // Each endpoint under the base path of its own document (a new major moves every path).
  const majors = new Map<Endpoint, number | undefined>([
    ...[...a.endpoints.values()].map((e) => [e, a.major] as const),
    ...[...b.endpoints.values()].map((e) => [e, b.major] as const),
  ]);
  const fullPath = (e: Endpoint) => (e.path.startsWith('/') ? `/api/public/v${majors.get(e)}${e.path}` : e.path);
  const at = (e: Endpoint, ...rest: string[]) => [`/paths/${escapeToken(fullPath(e))}/${e.method.toLowerCase()}`, ...rest].join('/');
  const emit: Emit = (kind, e, message, ...rest) => {
    const location = at(e, ...rest.map(escapeToken));
    const operation = `${e.method} ${fullPath(e)}`;
    changes.push(typeof kind === 'string'
      ? documentChange(kind, location, message, operation)
      : cellChange(kind.before || undefined, kind.after || undefined, location, message, { operation }));
  };
  const added = [...b.endpoints.values()].filter((e) => !a.endpoints.has(endpointKey(e)));
  for (const old of a.endpoints.values()) {
    const now = b.endpoints.get(endpointKey(old));
    if (now) {
      compareEndpoint(old, now, emit);
      continue;
    }
    // `(path under /files)` → a path under /files with the same method: the path is now shown.
    const under = /^\(path under (\/\S+)\)$/.exec(old.path)?.[1];
    const shown = under === undefined ? -1 : added.findIndex((e) => e.method === old.method && e.path.startsWith(under));
    if (shown < 0) emit(endpointKinds.removed, old, `endpoint ${old.method} ${old.path} removed`);
    else {
      const [now] = added.splice(shown, 1);
      emit(endpointKinds['path-shown'], now!, `the path of ${old.method} ${old.path} is now shown: ${now!.path}`);
      compareEndpoint(old, now!, emit);
    }
  }
  for (const e of added) emit(endpointKinds.added, e, `endpoint ${e.method} ${e.path} added (${e.group})`);
  return changes;
}

type Emit = (kind: Parameters<typeof documentChange>[0] | PayloadWording, e: Endpoint, message: string, ...rest: string[]) => void;
/** A payload's remark changed: judged as a statement (`an empty object is accepted` → `… is refused`). */
type PayloadWording = { before: string; after: string; };

function compareEndpoint(old: Endpoint, now: Endpoint, emit: Emit): void {
  if (old.response !== now.response) {
    const kind = UNSPECIFIED.test(old.response) ? endpointKinds['response-specified'] : endpointKinds['response-changed'];
    emit(kind, now, `response ${old.response} → ${now.response}`, 'response');
  }
  comparePayload(old.payload, now.payload, now, emit);
}

function comparePayload(old: Payload, now: Payload, e: Endpoint, emit: Emit): void {
  compareInputs('query', old.query, now.query, e, emit);
  const [was, is] = [old.body, now.body];
  if (was && is && was.mediaType !== is.mediaType) {
    emit(endpointKinds['media-type-changed'], e, `request body ${was.mediaType} → ${is.mediaType}`, 'requestBody');
  } else if (was || is) {
    // A body that was (or is) described in words only (`JSON subset of fields`) compares field by field.
    const worded = (was ? now : old).remarks.length > 0;
    if (!was && !worded) {
      emit([...is!.fields.values()].some((f) => f.required) ? endpointKinds['body-added-required'] : endpointKinds['body-added'], e,
        `request body (${is!.mediaType}) added`, 'requestBody');
    } else if (!is && !worded) emit(endpointKinds['body-removed'], e, `request body (${was!.mediaType}) removed`, 'requestBody');
    else compareInputs('body', was?.fields ?? new Map(), is?.fields ?? new Map(), e, emit);
  }
  const [before, after] = [old.remarks.join('; '), now.remarks.join('; ')];
  if (before !== after) emit({ before, after }, e, `payload wording "${before}" → "${after}"`, 'payload');
}

function compareInputs(where: 'query' | 'body', old: Map<string, Input>, now: Map<string, Input>, e: Endpoint, emit: Emit): void {
  const kinds = inputKinds[where];
  const label = where === 'query' ? 'query parameter' : 'body field';
  const place = where === 'query' ? 'query' : 'requestBody';
  for (const name of new Set([...old.keys(), ...now.keys()])) {
    const [was, is] = [old.get(name), now.get(name)];
    const say = (kind: (typeof kinds)[keyof typeof kinds], message: string) => emit(kind, e, `${label} "${name}" ${message}`, place, name);
    if (!was) say(is!.required ? kinds['added-required'] : kinds.added, is!.required ? 'added, required' : 'added');
    else if (!is) say(kinds.removed, 'removed');
    else {
      if (was.required !== is.required) {
        say(is.required ? kinds['became-required'] : kinds['became-optional'], is.required ? 'is now required' : 'is now optional');
      }
      if (was.types.join() !== is.types.join()) say(kinds['type-changed'], `type ${was.types.join(', ') || '(none)'} → ${is.types.join(', ') || '(none)'}`);
      for (const v of is.values) if (!was.values.includes(v)) say(kinds['value-added'], `accepts "${v}"`);
      for (const v of was.values) if (!is.values.includes(v)) say(kinds['value-removed'], `no longer accepts "${v}"`);
    }
  }
}
