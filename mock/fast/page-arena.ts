// Memory that list pages answered before the framework are built in and sent from, reused from
// one page to the next. A fresh buffer per page (25 KB on average under the benchmark's read
// mix, outside V8's heap) drove garbage collection to about a tenth of the mock's main thread.
// Pages are carved one after another from a slab; once a response is out of node's hands (the
// kernel took every byte), what was carved for it is free again. A page node still holds (a
// pipelined request waiting its turn, a client reading late) keeps its bytes, and the next pages
// go after it, in a new slab when this one is full. Only a caller that writes a page at once can
// tell, so only direct-reads.ts uses an arena; the page cache keeps copies (page-cache.ts).

/** Bytes of a slab: the largest page of 100 records is about 140 KB; a larger one is allocated on its own. */
const SLAB_BYTES = 256 * 1024;

/** A position in the arena, to free what is taken after it. */
export interface ArenaMark {
  slab: Buffer | undefined;
  used: number;
}

export class PageArena {
  private slab: Buffer | undefined;
  private used = 0;

  /** `size` bytes to build a page in; undefined when the page is larger than a slab. */
  take(size: number): Buffer | undefined {
    if (size > SLAB_BYTES) return undefined;
    if (!this.slab || this.used + size > SLAB_BYTES) {
      this.slab = Buffer.allocUnsafe(SLAB_BYTES);
      this.used = 0;
    }
    const start = this.used;
    this.used += size;
    return this.slab.subarray(start, this.used);
  }

  mark(): ArenaMark {
    return { slab: this.slab, used: this.used };
  }

  /** Frees what was taken since `mark`: nothing reads it any more. */
  rewind(mark: ArenaMark): void {
    this.used = mark.slab === this.slab ? mark.used : 0;
  }
}
