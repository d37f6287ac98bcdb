// Memory that list pages answered before the framework are built in and sent from, reused from
// one page to the next. A fresh buffer per page (25 KB on average under the benchmark's read
// mix) cost about a fifth of the mock's CPU in garbage collection, measured A/B. A page built
// here holds only until the next one is built, so only a caller that writes it at once uses an
// arena (mock/direct-reads.ts), and it gives the memory up whenever node still holds the bytes
// after the write (a slow or pipelining client); the page cache keeps copies (mock/page-cache.ts).

/** Bytes of an arena: the largest page of 100 records is about 140 KB; a larger one is allocated on its own. */
const ARENA_BYTES = 256 * 1024;

export class PageArena {
  private buffer: Buffer | undefined;

  /** `size` bytes to build a page in, valid until the next call; undefined when the page is larger than the arena. */
  take(size: number): Buffer | undefined {
    if (size > ARENA_BYTES) return undefined;
    this.buffer ??= Buffer.allocUnsafe(ARENA_BYTES);
    return this.buffer.subarray(0, size);
  }

  /** The last page taken may still be read: the next one is built in new memory. */
  release(): void {
    this.buffer = undefined;
  }
}
