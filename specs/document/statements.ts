// What an edit of a normative statement does to clients, read from its wording: the API document states
// much of its behaviour in sentences and in table cells (a parameter's rule, a condition, a limit, a
// payload's remark), so a change there is a change of behaviour, classified by its direction under §9
// (a new obligation on clients or a narrower accepted input is breaking; a wider input or a new optional
// capability is a MINOR addition), or reported as a change of unknown direction when the wording does not
// tell. Only an edit that leaves every meaning-bearing token in place (numbers, status codes, names in code
// spans, modal and polarity words, content words up to synonyms and inflection) is a wording fix.
import type { ChangeKind } from '../diff/index.js';

export type StatementKind = Extract<ChangeKind, `statement.${string}`>;

export interface Judgement {
  kind: StatementKind;
  /** Why, in a few words: what moved in the text. */
  reason: string;
}

/** Word classes whose presence decides a direction; the words of a class are interchangeable. */
type Mark = 'must' | 'may' | 'neg' | 'only' | 'max' | 'min' | 'refuse' | 'accept' | 'deprecate' | 'all' | 'default' | 'always' | 'silent';

const PHRASES: [RegExp, Mark | ''][] = [
  [/\bnot (?:shown|specified|documented)\b/g, 'silent'],
  [/\b(?:at most|no more than|up to|not more than)\b/g, 'max'],
  [/\b(?:at least|no less than|not less than)\b/g, 'min'],
  [/\b(?:do|does|did|is|are|was|were) not\b|\bcannot\b|\bcan not\b|\bn't\b/g, 'neg'],
  [/\b(?:for example|such as|e\.g\.|i\.e\.|that is)\b/g, ''],
];

const WORDS: Record<string, Mark> = {
  must: 'must',
  required: 'must',
  requires: 'must',
  require: 'must',
  need: 'must',
  needs: 'must',
  mandatory: 'must',
  shall: 'must',
  may: 'may',
  can: 'may',
  optional: 'may',
  optionally: 'may',
  not: 'neg',
  no: 'neg',
  never: 'neg',
  none: 'neg',
  nothing: 'neg',
  without: 'neg',
  only: 'only',
  exclusively: 'only',
  solely: 'only',
  maximum: 'max',
  max: 'max',
  within: 'max',
  capped: 'max',
  minimum: 'min',
  refused: 'refuse',
  rejected: 'refuse',
  refuse: 'refuse',
  reject: 'refuse',
  refuses: 'refuse',
  rejects: 'refuse',
  denied: 'refuse',
  forbidden: 'refuse',
  accepted: 'accept',
  accepts: 'accept',
  accept: 'accept',
  allowed: 'accept',
  allows: 'accept',
  allow: 'accept',
  tolerated: 'accept',
  tolerate: 'accept',
  deprecated: 'deprecate',
  deprecation: 'deprecate',
  deprecate: 'deprecate',
  sunset: 'deprecate',
  every: 'all',
  all: 'all',
  each: 'all',
  any: 'all',
  default: 'default',
  defaults: 'default',
  always: 'always',
};

/** Verbs the document uses for the same thing. */
const SYNONYMS: Record<string, string> = {
  return: 'answer',
  returns: 'answer',
  answers: 'answer',
  give: 'answer',
  gives: 'answer',
  respond: 'answer',
  responds: 'answer',
  replies: 'answer',
  take: 'take',
  takes: 'take',
  carry: 'take',
  carries: 'take',
  accept: 'take',
};

const STOP = new Set(
  'a an the of to in on for that which who whom whose it its is are be been being was were this these those and or as with by at from there their they them than then so also any its into per via its one'
    .split(' '),
);

const UNIT =
  /^(b|bytes?|kb|kib|mb|mib|gb|gib|ms|milliseconds?|s|seconds?|minutes?|hours?|days?|weeks?|months?|years?|requests?|items?|records?|characters?|times?)$/;

interface Reading {
  marks: Set<Mark>;
  statuses: Set<string>;
  /** Number and unit (`6 months`, `25 mb`), or the number alone. */
  numbers: { n: number; unit: string; }[];
  /** Names in code spans, paths and words with `_`, `:` or `-` inside. */
  names: Set<string>;
  /** The remaining words, stemmed. */
  words: Set<string>;
  /** The text is only a list of values (`asc or desc`, `project, organization or contact`). */
  values?: string[];
}

const stem = (w: string): string => {
  const s = SYNONYMS[w] ?? w;
  for (const suffix of ['ies', 'ing', 'ed', 'es', 's', 'e', 'd']) {
    if (s.endsWith(suffix) && s.length - suffix.length >= 3) return suffix === 'ies' ? `${s.slice(0, -3)}y` : s.slice(0, -suffix.length);
  }
  return s;
};

const TIME = /^(ms|millisecond|s|second|minute|hour|day|week|month|year)$/;

const VALUE_LIST = /^[\w.-]+(?:\s*(?:,|\bor\b|,\s*or\b)\s*[\w.-]+)+$/;

export function readStatement(text: string): Reading {
  const names = new Set<string>();
  let rest = text.replace(/`([^`]+)`/g, (_, name: string) => {
    names.add(name.toLowerCase());
    return ' ';
  });
  rest = rest.toLowerCase();
  const trimmed = rest.trim().replace(/\.$/, '');
  const values = VALUE_LIST.test(trimmed) && !/\d{3}/.test(trimmed) ? trimmed.split(/\s*(?:,\s*or|,|\bor\b)\s*/).filter(Boolean) : undefined;
  rest = rest.replace(/(?:^|\s)(\/[\w{}./-]+)/g, (_, path: string) => {
    names.add(path);
    return ' ';
  });
  const marks = new Set<Mark>();
  for (const [pattern, mark] of PHRASES) {
    rest = rest.replace(pattern, () => {
      if (mark) marks.add(mark);
      return ' ';
    });
  }
  const statuses = new Set<string>();
  const numbers: Reading['numbers'] = [];
  rest = rest.replace(/\b(\d+(?:\.\d+)?)\s*([a-z]+)?/g, (whole, n: string, unit?: string) => {
    if (/^[1-5]\d\d$/.test(n) && (!unit || !UNIT.test(unit))) statuses.add(n);
    else numbers.push({ n: Number(n), unit: unit && UNIT.test(unit) ? unit.replace(/s$/, '') : '' });
    return unit && !UNIT.test(unit) ? ` ${unit}` : ' ';
  });
  const words = new Set<string>();
  for (const token of rest.match(/[a-z][\w:-]*[\w]|[a-z]/g) ?? []) {
    if (/[_:]|\w-\w/.test(token)) names.add(token);
    else if (WORDS[token]) marks.add(WORDS[token]);
    else if (!STOP.has(token) && token.length > 1) words.add(stem(token));
  }
  return { marks, statuses, numbers, names, words, ...(values ? { values } : {}) };
}

const minus = <T>(a: Set<T>, b: Set<T>): T[] => [...a].filter((x) => !b.has(x));
const sameSet = <T>(a: Set<T>, b: Set<T>): boolean => a.size === b.size && minus(a, b).length === 0;
const numbersKey = (r: Reading) => r.numbers.map((x) => `${x.n} ${x.unit}`).sort().join();
const clientErrors = (r: Reading) => [...r.statuses].filter((s) => s.startsWith('4'));

/** A response-side statement: what the server sends (`Every response carries …`, `… answers …`). */
const aboutResponses = (text: string) => /^\W*(?:every |all |each |the |a |an |its )?(?:responses?|answers?)\b/i.test(text) || /\bresponses? carr/i.test(text);
const restricts = (r: Reading, text: string) =>
  clientErrors(r).length > 0 || r.marks.has('refuse') || r.marks.has('only') || r.marks.has('max') || (r.marks.has('must') && !aboutResponses(text));

/** The same meaning: every meaning-bearing token in place. */
export function sameStatement(a: string, b: string): boolean {
  const [x, y] = [readStatement(a), readStatement(b)];
  return sameSet(x.marks, y.marks) && sameSet(x.statuses, y.statuses) && numbersKey(x) === numbersKey(y) && sameSet(x.names, y.names)
    && sameSet(x.words, y.words);
}

/** A statement that appeared. */
function added(text: string): Judgement {
  const r = readStatement(text);
  if (r.marks.has('deprecate')) return { kind: 'statement.deprecation', reason: 'a deprecation signal added' };
  if (restricts(r, text)) return { kind: 'statement.tightened', reason: 'a new restriction or obligation on clients' };
  if (r.marks.has('may') || r.marks.has('accept')) return { kind: 'statement.request-input-added', reason: 'a new optional input or capability' };
  if (r.statuses.size > 0) return { kind: 'statement.direction-unknown', reason: 'a new status stated' };
  if (r.names.size > 0 || r.marks.has('min') || r.marks.has('always')) {
    return aboutResponses(text)
      ? { kind: 'statement.response-added', reason: `something new in responses (${[...r.names].join(', ') || 'a guarantee'})` }
      : { kind: 'statement.capability-added', reason: `something new offered (${[...r.names].join(', ') || 'a guarantee'})` };
  }
  return { kind: 'statement.direction-unknown', reason: 'a new statement of behaviour' };
}

/** A statement that went away. */
function removed(text: string): Judgement {
  const r = readStatement(text);
  if (r.marks.has('silent')) return { kind: 'statement.reworded', reason: 'a "not shown" placeholder removed' };
  if (AUTH.test(text)) return { kind: 'statement.behaviour-changed', reason: 'a rule of authentication or scoping removed' };
  // A promise to signal deprecation (its headers) withdrawn, or one operation no longer deprecated.
  if (r.marks.has('deprecate') && /\bheaders?\b/i.test(text)) {
    return { kind: 'statement.behaviour-changed', reason: 'a deprecation signal clients watch withdrawn' };
  }
  if (r.marks.has('deprecate')) return { kind: 'statement.deprecation', reason: 'a deprecation mark removed' };
  if (restricts(r, text)) return { kind: 'statement.relaxed', reason: 'a restriction on clients removed' };
  return { kind: 'statement.behaviour-changed', reason: 'a stated behaviour removed: clients may rely on it' };
}

/** What a new name is: an optional input (a header, a parameter, a field), something in responses, or a new value. */
const additionKind = (text: string): StatementKind =>
  aboutResponses(text)
    ? 'statement.response-added'
    : /\boptional\b/i.test(text) && /\b(header|parameter|field|argument)s?\b/i.test(text)
    ? 'statement.request-input-added'
    : 'statement.value-added';

/** §9 names authentication and scoping apart: changing them observably is breaking, whatever the direction. */
const AUTH = /\b(bearer|authori[sz]ation|authentication|api keys?|scopes?|keys?)\b/i;

type Signal = { strength: 'breaking' | 'flip' | 'addition'; judgement: Judgement; };

/** A statement reworded: what moved between the two readings. */
function changed(old: string, now: string, normative: boolean): Judgement {
  const [a, b] = [readStatement(old), readStatement(now)];
  if (a.marks.has('silent') && !b.marks.has('silent')) return added(now);
  if (!a.marks.has('silent') && b.marks.has('silent')) return removed(old);
  const signals: Signal[] = [];
  const breaking = (kind: StatementKind, reason: string) => signals.push({ strength: 'breaking', judgement: { kind, reason } });
  const addition = (kind: StatementKind, reason: string) => signals.push({ strength: 'addition', judgement: { kind, reason } });

  if (a.values && b.values) {
    const gone = a.values.filter((v) => !b.values!.includes(v));
    const more = b.values.filter((v) => !a.values!.includes(v));
    if (gone.length > 0) breaking('statement.removed', `value(s) ${gone.join(', ')} removed`);
    if (more.length > 0) addition('statement.value-added', `value(s) ${more.join(', ')} added`);
    if (gone.length + more.length > 0) return strongest(signals);
  }
  // Numbers of the same unit: a bound moved.
  if (numbersKey(a) !== numbersKey(b)) {
    const bound = (r: Reading) => (r.marks.has('max') ? 'max' : r.marks.has('min') ? 'min' : r.marks.has('default') ? 'default' : undefined);
    const [x, y] = [a.numbers.map((n) => n.unit).sort().join(), b.numbers.map((n) => n.unit).sort().join()];
    const kindOf = bound(b) ?? bound(a);
    if (x === y && a.numbers.length === 1 && kindOf && kindOf === (bound(a) ?? kindOf)) {
      const [from, to] = [a.numbers[0]!.n, b.numbers[0]!.n];
      if (kindOf === 'default') breaking('statement.behaviour-changed', `a default changed: ${from} → ${to}`);
      // A lower maximum rejects input or shortens a promise; a lower minimum of time (a support window) shortens
      // a promise, a higher minimum of anything else (a length, a count) rejects input.
      else if (to < from ? kindOf === 'max' || TIME.test(a.numbers[0]!.unit) : kindOf === 'min' && !TIME.test(a.numbers[0]!.unit)) {
        breaking(kindOf === 'max' ? 'statement.tightened' : 'statement.behaviour-changed', `a bound moved: ${from} → ${to}`);
      } else addition(kindOf === 'max' ? 'statement.relaxed' : 'statement.capability-added', `a bound moved: ${from} → ${to}`);
    } else if (b.numbers.length > a.numbers.length && (b.marks.has('max') || b.marks.has('only'))) {
      breaking('statement.tightened', `a bound added (${numbersKey(b)})`);
    } else {signals.push({
        strength: 'flip',
        judgement: { kind: 'statement.direction-unknown', reason: `numbers changed: ${numbersKey(a) || 'none'} → ${numbersKey(b) || 'none'}` },
      });}
  }
  // Status codes: a different answer, a new refusal, or a refusal dropped.
  const [sa, sb] = [[...a.statuses], [...b.statuses]];
  const newRefusals = clientErrors(b).filter((x) => !a.statuses.has(x));
  if (sa.length > 0 && sa.every((x) => b.statuses.has(x)) && newRefusals.length > 0) {
    breaking('statement.tightened', `a refusal (${newRefusals.join(', ')}) added`);
  } else if (sa.length > 0 && sb.length > 0 && !sameSet(a.statuses, b.statuses)) {
    breaking('statement.behaviour-changed', `status ${sa.join(', ')} → ${sb.join(', ')}`);
  } else if (clientErrors(b).length > 0 && sa.length === 0) breaking('statement.tightened', `a refusal (${clientErrors(b).join(', ')}) added`);
  else if (clientErrors(a).length > 0 && sb.length === 0) addition('statement.relaxed', `a refusal (${clientErrors(a).join(', ')}) dropped`);
  else if (sa.length > 0 && sb.length === 0) breaking('statement.behaviour-changed', `status ${sa.join(', ')} no longer stated`);

  const gone = minus(a.names, b.names);
  const more = minus(b.names, a.names);
  if (gone.length > 0) {
    breaking('statement.removed', `${
      gone.map((n) => `\`${n}\``).join(', ')
    } removed${more.length > 0 ? ` (now ${more.map((n) => `\`${n}\``).join(', ')})` : ''}`);
  }

  if (more.length > 0 && gone.length === 0) addition(additionKind(now), `${more.map((n) => `\`${n}\``).join(', ')} added`);
  const [plus, less] = [minus(b.marks, a.marks), minus(a.marks, b.marks)];
  const restricting = (m: Mark) => m === 'refuse' || m === 'only' || m === 'max' || (m === 'must' && !aboutResponses(now));
  for (const m of plus) {
    if (restricting(m)) breaking('statement.tightened', `"${m}" added: a new restriction or obligation on clients`);
    else if (m === 'deprecate') addition('statement.deprecation', 'a deprecation signal added');
    else if (m === 'may' || m === 'accept') addition('statement.relaxed', `"${m}" added: a wider input or a new option`);
    else if (m === 'min' || m === 'always') addition('statement.capability-added', `"${m}" added: a stronger guarantee`);
    else if (m === 'neg') signals.push({ strength: 'flip', judgement: { kind: 'statement.direction-unknown', reason: 'a negation added' } });
  }
  for (const m of less) {
    if (m === 'may' || m === 'accept' || m === 'min' || m === 'always') {
      breaking('statement.behaviour-changed', `"${m}" removed: a guarantee or an option withdrawn`);
    } else if (m === 'neg') signals.push({ strength: 'flip', judgement: { kind: 'statement.direction-unknown', reason: 'a negation removed' } });
    else if (restricting(m)) addition('statement.relaxed', `"${m}" removed: a restriction lifted`);
    else if (m === 'deprecate') addition('statement.deprecation', 'a deprecation signal removed');
  }
  if (signals.length > 0) {
    const j = strongest(signals);
    return j.kind === 'statement.relaxed' && AUTH.test(old)
      ? { kind: 'statement.behaviour-changed', reason: `${j.reason}, in a rule of authentication or scoping` }
      : j;
  }
  if (!sameSet(a.marks, b.marks) || !sameSet(a.words, b.words)) {
    if (!normative) return { kind: 'statement.reworded', reason: 'wording of a text that states no requirement' };
    const words = [...minus(a.words, b.words).map((w) => `-${w}`), ...minus(b.words, a.words).map((w) => `+${w}`)].join(' ');
    return { kind: 'statement.direction-unknown', reason: `the statement says something else (${words || 'quantifier changed'})` };
  }
  return { kind: 'statement.reworded', reason: 'the same statement in other words' };
}

function strongest(signals: Signal[]): Judgement {
  for (const strength of ['breaking', 'flip', 'addition'] as const) {
    const found = signals.filter((s) => s.strength === strength);
    if (found.length > 0) return { kind: found[0]!.judgement.kind, reason: found.map((s) => s.judgement.reason).join('; ') };
  }
  throw new Error('strongest: no signal');
}

/**
 * The edit of one statement: `old` and `now` undefined when it appeared or went away. `normative`: the
 * text states a requirement (its form, or a catalog entry quotes it); a reworded text that states none is
 * wording whatever changed in it.
 */
export function judgeStatement(old: string | undefined, now: string | undefined, normative: boolean): Judgement {
  if (old === undefined && now === undefined) throw new Error('judgeStatement: nothing to judge');
  if (old === undefined) return normative ? added(now!) : { kind: 'statement.reworded', reason: 'a text that states no requirement added' };
  if (now === undefined) return normative ? removed(old) : { kind: 'statement.reworded', reason: 'a text that states no requirement removed' };
  return changed(old, now, normative);
}
