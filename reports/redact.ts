// No key value may reach the report directory or the console. Checks already write
// `$CONFORMANCE_API_KEY` in transcripts (C5); this is the second line of defence for
// everything else (error messages, echoed bodies, misbehaving targets).

import { readFileSync } from 'node:fs';

export interface Secret {
  value: string;
  /** What replaces it, e.g. `$CONFORMANCE_API_KEY`. */
  replacement: string;
}

const KEY_NAME = /(^CONFORMANCE_API_KEY|^MOCK_API_KEY|API_KEY|TOKEN|SECRET)/i;
// Shorter values would redact ordinary words; no real key is this short.
const MIN_SECRET_LENGTH = 6;

/** Secrets named by settings such as CONFORMANCE_API_KEY_OTHER_TEAM=... (environment or run settings). */
export function secretsFrom(...sources: ReadonlyArray<Record<string, string | undefined> | undefined>): Secret[] {
  const found = new Map<string, Secret>();
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) {
      if (!KEY_NAME.test(name) || typeof value !== 'string') continue;
      const v = value.trim();
      if (v.length >= MIN_SECRET_LENGTH && !found.has(v)) found.set(v, { value: v, replacement: `$${name}` });
    }
  }
  return [...found.values()];
}

/** Replaces every occurrence of every secret; longer values first so a key that contains another is replaced whole. */
export function redactString(text: string, secrets: readonly Secret[]): string {
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.value.length - a.value.length)) {
    if (out.includes(s.value)) out = out.split(s.value).join(s.replacement);
  }
  return out;
}

/** A deep copy of a JSON-like value with every string (values and property names) redacted. */
export function redactDeep<T>(value: T, secrets: readonly Secret[]): T {
  if (secrets.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactString(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [redactString(k, secrets), walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}

/** Names of the secrets that occur in a text (for the final check before writing). */
export function leakedSecrets(text: string, secrets: readonly Secret[]): string[] {
  return secrets.filter((s) => text.includes(s.value)).map((s) => s.replacement);
}

/** Key-like settings of the JSON file named by CONFORMANCE_CONFIG (unreadable file: none). */
export function secretsFromConfigFile(file: string | undefined): Secret[] {
  if (!file) return [];
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof doc !== 'object' || doc === null) return [];
    const entries = Object.entries(doc).filter((e): e is [string, string] => typeof e[1] === 'string');
    return secretsFrom(Object.fromEntries(entries));
  } catch {
    return [];
  }
}
