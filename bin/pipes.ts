// A reader that goes away early (`conformance requirements | head -1`) is no error: once stdout or
// stderr is closed, further output is dropped instead of crashing the process with EPIPE.

const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

export function tolerateClosedPipes(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (!GONE.has(e.code ?? '')) throw e;
      // Nothing reads any more: stop writing (a later write would only raise the same error).
      stream.write = (() => true) as typeof stream.write;
    });
  }
}
