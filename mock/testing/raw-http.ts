// Test support: raw HTTP/1.1 exchanges over a TCP socket, for the inputs an HTTP client
// refuses to send (malformed request lines, unknown methods, oversize heads, bodies
// that stop part-way). Only ever connects to 127.0.0.1.
import { connect } from 'node:net';

export interface RawReply {
  /** Everything the server sent, as latin1 text. */
  text: string;
  /** Status of the first response, if one arrived. */
  status?: number;
  headers: Record<string, string>;
  body: string;
  /** The first response's body as JSON, when it parses. */
  json?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Whether the server closed the connection before `waitMs` ran out. */
  closed: boolean;
  /** Milliseconds from the first byte sent to the close (or to the end of the wait). */
  ms: number;
}

export interface RawOptions {
  /** How long to wait for the server to close the connection; default 2000 ms. */
  waitMs?: number;
  /** Chunks sent after the first one, each after its delay in ms. */
  then?: { afterMs: number; data: string | Buffer; }[];
}

/** Sends `data` to the server at `url` and collects what comes back until it closes or `waitMs` passes. */
export function rawExchange(url: string, data: string | Buffer, opts: RawOptions = {}): Promise<RawReply> {
  const { port } = new URL(url);
  const waitMs = opts.waitMs ?? 2000;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks).toString('latin1'), closed, Date.now() - started));
    };
    socket.on('data', (d) => chunks.push(d));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    socket.write(data);
    for (const next of opts.then ?? []) timers.push(setTimeout(() => !socket.destroyed && socket.write(next.data), next.afterMs));
    timers.push(setTimeout(() => finish(false), waitMs));
  });
}

function parse(all: string, closed: boolean, ms: number): RawReply {
  const reply: RawReply = { text: all, headers: {}, body: '', closed, ms };
  // Interim answers (100 Continue) come before the response itself.
  const text = all.replace(/^(HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');
  const end = text.indexOf('\r\n\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  if (!m || end < 0) return reply;
  reply.status = Number(m[1]);
  for (const line of text.slice(0, end).split('\r\n').slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) reply.headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = reply.headers['content-length'];
  const rest = text.slice(end + 4);
  reply.body = length === undefined ? rest : Buffer.from(rest, 'latin1').subarray(0, Number(length)).toString('utf8');
  try {
    reply.json = JSON.parse(reply.body);
  } catch {
    reply.json = undefined;
  }
  return reply;
}
