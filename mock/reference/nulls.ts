// The text of a body as the server keeps it (reading text-normal-form): as sent, or composed.
// (A null sent for a field §2 does not type as nullable is no reading: the request schemas refuse
// it as a value of the wrong type, on every field of every write.)
import type { AppContext } from './context.js';

type Node = Record<string, unknown>;

/** Strings of a JSON body as the server keeps them (reading text-normal-form=nfc: composed). */
export function keptText<T>(ctx: AppContext, value: T): T {
  if (ctx.readings.value('text-normal-form') !== 'nfc') return value;
  const walk = (v: unknown): unknown =>
    typeof v === 'string'
      ? v.normalize('NFC')
      : Array.isArray(v)
      ? v.map(walk)
      : v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v as Node).map(([k, x]) => [k, walk(x)]))
      : v;
  return walk(value) as T;
}
