// The multipart/form-data reader of the upload endpoints (§4: "multipart/form-data: one `file`
// part, ..."; RFC 7578 over RFC 2046's framing). A synchronous state machine: each chunk of the
// body in, the events it completes out (a field, the start of a file part, a slice of its bytes,
// its end), so the caller awaits its own work (the encrypted write) between chunks and the body
// is never buffered whole. Every way a body can be wrong ends in a FormError with a detail, at
// the chunk where it shows; a body that ends early is one of them. Nothing here waits for
// anything: the reader cannot stall a request.
import { decodeFilename, type FilenameResult } from './filenames.js';

/** What a body's framing or a part's headers got wrong, for a 400 (the detail names the field). */
export class FormError extends Error {
  constructor(readonly field: string, readonly problem: string) {
    super(`${field} ${problem}`);
  }
}

export interface FormLimits {
  /** Parts in all (fields and files). */
  parts: number;
  /** Field parts. */
  fields: number;
  /** Bytes of a field's value. */
  fieldBytes: number;
  /** Bytes of a part's header block. */
  headerBytes: number;
  /** Bytes before the first delimiter (the preamble), and after the closing one (the epilogue), each. */
  outsideBytes: number;
}

export const FORM_LIMITS = { parts: 30, fields: 20, fieldBytes: 65_536, headerBytes: 16_384, outsideBytes: 16_384 } as const satisfies FormLimits;

/** The most white space a delimiter may be followed by before its CRLF (RFC 2046 §5.1.1 transport padding). */
const MAX_PADDING = 64;

/**
 * The most bytes a form this reader accepts can hold besides the content of its one file part:
 * preamble and epilogue, every delimiter with its padding, every part's header block, and at most
 * `fields` field values. A body whose length is above a file limit plus this holds a file part
 * over that limit, or is refused anyway, so its declared length alone can answer it.
 */
export function formOverheadBytes(boundary: string, limits: FormLimits = FORM_LIMITS): number {
  const delimiter = 4 + boundary.length; // CRLF "--" boundary
  const opening = delimiter + MAX_PADDING + 2 + limits.headerBytes + 4;
  const parts = Math.min(limits.parts, limits.fields + 1);
  return 2 * limits.outsideBytes + parts * opening + limits.fields * limits.fieldBytes + delimiter + 2;
}

export type FormEvent =
  | { kind: 'field'; name: string; value: string; }
  | { kind: 'file-start'; name: string; filename: FilenameResult; mime: string | undefined; }
  | { kind: 'file-data'; bytes: Buffer; }
  | { kind: 'file-end'; };

/** RFC 2046 §5.1.1: 1 to 70 characters of bchars, the last not a space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;
const CRLF = Buffer.from('\r\n');
const EMPTY = Buffer.alloc(0);
const HEADER_END = Buffer.from('\r\n\r\n');
/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The parameters of a header value `type; a=b; c="d"` (names lowercased), or undefined when it does not parse. */
export function headerParams(value: string): { type: string; params: Map<string, string>; } | undefined {
  let i = value.indexOf(';');
  const type = (i < 0 ? value : value.slice(0, i)).trim().toLowerCase();
  const params = new Map<string, string>();
  if (i < 0) return { type, params };
  const n = value.length;
  while (i < n) {
    i++; // past ';'
    while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
    if (i >= n) break;
    const eq = value.indexOf('=', i);
    if (eq < 0) return undefined;
    const name = value.slice(i, eq).trim().toLowerCase();
    if (!TOKEN.test(name)) return undefined;
    i = eq + 1;
    while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
    let v = '';
    if (value[i] === '"') {
      i++;
      let closed = false;
      while (i < n) {
        const ch = value[i]!;
        if (ch === '\\' && i + 1 < n) {
          v += value[i + 1];
          i += 2;
        } else if (ch === '"') {
          closed = true;
          i++;
          break;
        } else {
          v += ch;
          i++;
        }
      }
      if (!closed) return undefined;
      while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
      if (i < n && value[i] !== ';') return undefined;
    } else {
      const end = value.indexOf(';', i);
      v = (end < 0 ? value.slice(i) : value.slice(i, end)).trim();
      i = end < 0 ? n : end;
    }
    // The first of a repeated parameter counts, as for the boundary in every common parser.
    if (!params.has(name)) params.set(name, v);
  }
  return { type, params };
}

/** The boundary of a multipart/form-data Content-Type, or the FormError of one without a usable one. */
export function boundaryOf(contentType: string): string {
  const parsed = headerParams(contentType);
  const boundary = parsed?.params.get('boundary');
  if (boundary === undefined) throw new FormError('content-type', 'needs a boundary parameter');
  if (!BOUNDARY.test(boundary)) throw new FormError('content-type', 'has a boundary that is not 1 to 70 characters RFC 2046 allows');
  return boundary;
}

/** Whether a Content-Type names multipart/form-data. */
export const isFormData = (contentType: string | undefined): boolean => contentType !== undefined && headerParams(contentType)?.type === 'multipart/form-data';

type State = 'preamble' | 'delimiter' | 'headers' | 'body' | 'done';

/** A media type `type/subtype` of token characters, lowercased, its parameters dropped; undefined when it is none. */
function mediaType(value: string): string | undefined {
  const semicolon = value.indexOf(';');
  const type = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  const slash = type.indexOf('/');
  return slash > 0 && TOKEN.test(type.slice(0, slash)) && TOKEN.test(type.slice(slash + 1)) ? type : undefined;
}

export class FormReader {
  private readonly delimiter: Buffer;
  // The body is read as if it began with CRLF, so a first delimiter at its very start is found like every other.
  private pending: Buffer = CRLF;
  private state: State = 'preamble';
  private parts = 0;
  private fields = 0;
  private part: { kind: 'field'; name: string; chunks: Buffer[]; bytes: number; } | { kind: 'file'; } | undefined;
  private sawBytes = false;
  /** Bytes of the preamble read so far (with the CRLF the body is read as if it began with), then of the epilogue. */
  private outside = 0;

  constructor(boundary: string, private readonly limits: FormLimits = FORM_LIMITS) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** Whether the closing delimiter has been read (what follows it is ignored). */
  get complete(): boolean {
    return this.state === 'done';
  }

  /** The events the next chunk of the body completes. */
  push(chunk: Buffer): FormEvent[] {
    const out: FormEvent[] = [];
    if (chunk.length === 0) return out;
    if (this.state === 'done') {
      this.addOutside(chunk.length, 'after its closing delimiter');
      return out;
    }
    this.sawBytes = true;
    const buf = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let pos = 0;
    for (;;) {
      if (this.state === 'preamble' || this.state === 'body') {
        const at = buf.indexOf(this.delimiter, pos);
        if (at < 0) {
          // Keep what could be the start of a delimiter; what is before it is the part's (or the preamble's).
          const safe = Math.max(pos, buf.length - (this.delimiter.length - 1));
          if (this.state === 'body') this.data(buf.subarray(pos, safe), out);
          else this.addOutside(safe - pos, 'before its first delimiter');
          pos = safe;
          break;
        }
        if (this.state === 'body') {
          this.data(buf.subarray(pos, at), out);
          this.endPart(out);
        } else this.addOutside(at - pos, 'before its first delimiter');
        pos = at + this.delimiter.length;
        this.state = 'delimiter';
      }
      if (this.state === 'delimiter') {
        // "--" closes the body; otherwise optional white space and CRLF open a part.
        if (buf.length - pos < 2) break;
        if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) {
          this.state = 'done';
          this.outside = 0;
          this.addOutside(buf.length - pos - 2, 'after its closing delimiter');
          pos = buf.length;
          break;
        }
        let i = pos;
        while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x09) && i - pos < MAX_PADDING) i++;
        if (buf.length - i < 2) {
          if (i - pos >= MAX_PADDING) throw new FormError('body', 'has a delimiter followed by something other than CRLF or --');
          break;
        }
        if (buf[i] !== 0x0d || buf[i + 1] !== 0x0a) throw new FormError('body', 'has a delimiter followed by something other than CRLF or --');
        pos = i + 2;
        this.state = 'headers';
        if (++this.parts > this.limits.parts) throw new FormError('body', `has more than ${this.limits.parts} parts`);
      }
      if (this.state === 'headers') {
        // An empty header block is CRLF alone; otherwise the block ends at CRLF CRLF.
        let block: string;
        if (buf.length - pos >= 2 && buf[pos] === 0x0d && buf[pos + 1] === 0x0a) {
          block = '';
          pos += 2;
        } else {
          const end = buf.indexOf(HEADER_END, pos);
          if (end < 0) {
            if (buf.length - pos > this.limits.headerBytes) throw new FormError('body', `has a part whose headers exceed ${this.limits.headerBytes} bytes`);
            break;
          }
          if (end - pos > this.limits.headerBytes) throw new FormError('body', `has a part whose headers exceed ${this.limits.headerBytes} bytes`);
          block = buf.toString('latin1', pos, end);
          pos = end + 4;
        }
        out.push(...this.openPart(block));
        this.state = 'body';
      }
    }
    this.pending = pos >= buf.length ? EMPTY : Buffer.from(buf.subarray(pos));
    return out;
  }

  /** The body has ended: a FormError unless it ended after the closing delimiter (an empty body is an empty form). */
  end(): void {
    if (this.state === 'done' || !this.sawBytes) return;
    throw new FormError('body', 'ends before the closing delimiter of its multipart form');
  }

  /** Bytes outside every part (the preamble, or the epilogue), bounded so a body's length bounds its file part (formOverheadBytes). */
  private addOutside(bytes: number, where: string): void {
    this.outside += bytes;
    // The preamble counts the CRLF the body is read as if it began with.
    if (this.outside > this.limits.outsideBytes + (this.state === 'done' ? 0 : 2)) {
      throw new FormError('body', `has more than ${this.limits.outsideBytes} bytes ${where}`);
    }
  }

  private data(bytes: Buffer, out: FormEvent[]): void {
    if (bytes.length === 0) return;
    const part = this.part!;
    if (part.kind === 'file') {
      out.push({ kind: 'file-data', bytes });
      return;
    }
    part.bytes += bytes.length;
    if (part.bytes > this.limits.fieldBytes) throw new FormError(part.name, `is longer than ${this.limits.fieldBytes} bytes`);
    // A copy: the chunk it is cut from is the caller's.
    part.chunks.push(Buffer.from(bytes));
  }

  private endPart(out: FormEvent[]): void {
    const part = this.part!;
    this.part = undefined;
    if (part.kind === 'file') out.push({ kind: 'file-end' });
    else out.push({ kind: 'field', name: part.name, value: Buffer.concat(part.chunks).toString('utf8') });
  }

  /** A part's headers read: a field or a file part opened (RFC 7578 §4.2: Content-Disposition form-data with a name). */
  private openPart(block: string): FormEvent[] {
    const headers = new Map<string, string>();
    for (const line of block.split('\r\n')) {
      if (line === '') continue;
      const colon = line.indexOf(':');
      if (colon <= 0 || !TOKEN.test(line.slice(0, colon))) throw new FormError('body', 'has a part header that is not a "Name: value" line');
      const name = line.slice(0, colon).toLowerCase();
      if (headers.has(name)) throw new FormError('body', `has a part with two ${name} headers`);
      headers.set(name, line.slice(colon + 1).trim());
    }
    const disposition = headers.get('content-disposition');
    const parsed = disposition === undefined ? undefined : headerParams(disposition);
    const name = parsed?.params.get('name');
    if (parsed?.type !== 'form-data' || name === undefined) {
      throw new FormError('body', 'has a part without Content-Disposition: form-data and a name (RFC 7578 §4.2)');
    }
    const fieldName = Buffer.from(name, 'latin1').toString('utf8');
    const type = headers.get('content-type');
    const mime = type === undefined ? undefined : mediaType(type);
    if (type !== undefined && mime === undefined) throw new FormError(fieldName, 'has a Content-Type that is not a media type (type/subtype)');
    // A part is a file when it names a file, or when it is bytes (what every common parser reads as a file).
    const named = parsed.params.has('filename') || parsed.params.has('filename*');
    if (!named && mime !== 'application/octet-stream') {
      if (++this.fields > this.limits.fields) throw new FormError('body', `has more than ${this.limits.fields} fields`);
      this.part = { kind: 'field', name: fieldName, chunks: [], bytes: 0 };
      return [];
    }
    this.part = { kind: 'file' };
    return [{ kind: 'file-start', name: fieldName, filename: decodeFilename(parsed.params), mime }];
  }
}
