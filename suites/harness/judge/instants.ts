// Timestamps and dates as the suite reads them. §2: "Formats of timestamps and dates ... are not
// shown", so every common spelling is accepted — what the platform's Date.parse reads (RFC 3339 and
// ISO 8601 with any fraction or offset, a space for the T, RFC 2822 and HTTP dates, …), epoch
// seconds or milliseconds written as digits, and a compact date (20260102). The audit of every
// response asks only that a value reads as some instant; views compare instants, not spellings;
// orderings compare instants first.

/** Milliseconds since the epoch the value reads as, or undefined when it is no string or reads as no instant. */
export function instantOf(v: unknown): number | undefined {
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const s = v.trim();
  if (/^\d{10}$/.test(s)) return Number(s) * 1000;
  if (/^\d{13}$/.test(s)) return Number(s);
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (compact) {
    const [, y, m, d] = compact.map(Number) as [number, number, number, number];
    const t = Date.UTC(y, m - 1, d);
    return new Date(t).getUTCDate() === d && m >= 1 && m <= 12 ? t : undefined;
  }
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

/** Two spellings of one instant (or two equal texts). */
export function sameInstant(a: unknown, b: unknown): boolean {
  const x = instantOf(a);
  return x !== undefined && x === instantOf(b);
}
