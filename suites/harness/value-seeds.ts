// The seeds of the values the harness makes up (record bodies, texts, upload files), per worker.
// They advance with every value made; a property run starts them afresh from its input, so the
// values of a run depend on its input alone — not on which checks or runs came before it — and a
// replay of the run's seed and path sends the very same values.

let body = 1;
let file = 1;
let upload = 40;

export const nextBodySeed = (): number => body++;
export const nextFileSeed = (): number => file++;
/** The next file seed, not taken: a file of a given seed does not advance the others. */
export const currentFileSeed = (): number => file;

/** The size of the next upload a made-up record carries (a few tens of bytes, each a little larger). */
export const nextUploadSize = (): number => upload++;

/**
 * Runs `fn` (a shared fixture made once per suite file) on seeds of its own, and gives the caller
 * its own back: whether a run made the fixture or found it made does not shift the values the run
 * makes next, so a replay that makes it sends what the failing run sent.
 */
export async function onOwnSeeds<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const saved = { body, file, upload };
  reseedValues(hashOf(name));
  try {
    return await fn();
  } finally {
    ({ body, file, upload } = saved);
  }
}

/** A stable 32-bit hash of a text (FNV-1a). */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Starts the seeds from `base` (a property run's input): the same input makes the same values. */
export function reseedValues(base: number): void {
  body = 1 + (base >>> 0) % 1_000_003;
  file = 1 + (base >>> 0) % 1_000_033;
  upload = 40 + (base >>> 0) % 1_000;
}
