// File names of uploads (§2 Attachment and File: `filename`, a string): which names an upload
// may give, and how a download gives them back. The rule is that every name the mock stores is
// one it can always serve back unchanged: a name is stored exactly as decoded (no normalization,
// so accents, CJK, emoji and combining marks come back as sent) unless it cannot be, and then the
// upload is refused with 400 and `detail.filename` saying why:
//   - it is not text: raw bytes of `filename="…"` that are not UTF-8, or a `filename*` (RFC 8187)
//     in a charset other than UTF-8 or ISO-8859-1, or not a well-formed ext-value;
//   - it holds a control character (U+0000–U+001F, U+007F–U+009F): no file system or terminal
//     shows one safely, and no quoted header parameter can carry it;
//   - it is longer than 255 bytes in UTF-8, the limit of common file systems: a client could
//     not save the download under its name.
// As every common multipart parser does, a name that carries a path keeps its last segment
// (`../../x` and `C:\x` are stored as `x`; `.` and `..` as the empty name). A download answers
// `Content-Disposition: attachment; filename="<ASCII fallback>"; filename*=UTF-8''<name>`
// (RFC 6266 §4.3, RFC 8187): the fallback replaces every character outside printable ASCII,
// and `"`, `\` and `%`, with `_`; the ext-value percent-encodes every UTF-8 byte that is not an
// attr-char. An upload without a name downloads as `attachment` alone.

/** The longest name stored, in bytes of UTF-8. */
export const MAX_FILENAME_BYTES = 255;

export type FilenameResult = { ok: true; name: string; } | { ok: false; problem: string; };

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// ignoreBOM: a name that starts with U+FEFF keeps it, as every other character.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The last segment of a path, and no `.` or `..` (what common multipart parsers store, busboy's among them). */
function lastSegment(name: string): string {
  const i = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  const last = i < 0 ? name : name.slice(i + 1);
  return last === '.' || last === '..' ? '' : last;
}

/** RFC 8187 §3.2.1 ext-value: charset'language'value-chars, the value percent-decoded into bytes. */
function extValueBytes(ext: string): { charset: string; bytes: Buffer; } | undefined {
  const m = /^([!#$%&+\-^_`{}~0-9A-Za-z]+)'([0-9A-Za-z-]*)'(.*)$/s.exec(ext);
  if (!m) return undefined;
  const value = m[3]!;
  if (!/^(?:%[0-9A-Fa-f]{2}|[!#$&+\-.^_`|~0-9A-Za-z])*$/.test(value)) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '%') {
      bytes.push(parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(value.charCodeAt(i));
  }
  return { charset: m[1]!.toLowerCase(), bytes: Buffer.from(bytes) };
}

/**
 * The name a file part gives in its Content-Disposition parameters (read as latin1, so each char
 * is one byte of the header): `filename*` over `filename` (RFC 6266 §4.3), checked as above.
 */
export function decodeFilename(params: ReadonlyMap<string, string>): FilenameResult {
  const ext = params.get('filename*');
  const plain = params.get('filename');
  let decoded: string;
  if (ext !== undefined) {
    const parsed = extValueBytes(ext);
    if (!parsed) return { ok: false, problem: "filename* is not an RFC 8187 ext-value (charset'language'percent-encoded bytes)" };
    if (parsed.charset === 'iso-8859-1') decoded = parsed.bytes.toString('latin1');
    else if (parsed.charset !== 'utf-8') return { ok: false, problem: 'filename* must be in UTF-8 or ISO-8859-1' };
    else {
      try {
        decoded = UTF8.decode(parsed.bytes);
      } catch {
        return { ok: false, problem: 'filename* does not decode as UTF-8' };
      }
    }
  } else if (plain !== undefined) {
    try {
      decoded = UTF8.decode(Buffer.from(plain, 'latin1'));
    } catch {
      return { ok: false, problem: 'is not UTF-8' };
    }
  } else {
    return { ok: true, name: '' };
  }
  const name = lastSegment(decoded);
  if (CONTROL.test(name)) return { ok: false, problem: 'holds a control character' };
  if (Buffer.byteLength(name) > MAX_FILENAME_BYTES) return { ok: false, problem: `is longer than ${MAX_FILENAME_BYTES} bytes in UTF-8` };
  return { ok: true, name };
}

/** RFC 8187 attr-char: what an ext-value carries as is. */
const ATTR_CHAR = /^[!#$&+\-.^_`|~0-9A-Za-z]$/;

/** The Content-Disposition of a download of a file stored under `name` (RFC 6266, RFC 8187). */
export function contentDisposition(name: string): string {
  if (name === '') return 'attachment';
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  let ext = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const ch = String.fromCharCode(byte);
    ext += ATTR_CHAR.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `attachment; filename="${fallback}"; filename*=UTF-8''${ext}`;
}
