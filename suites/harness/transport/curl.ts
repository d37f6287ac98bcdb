// The command that reproduces one exchange. Header values were redacted before they get here, so
// `$CONFORMANCE_API_KEY` stays a shell variable: such values are double-quoted, everything else single-quoted.

export interface CurlInput {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Multipart fields; the file part is read from a local file named `file`. */
  multipart?: { fields: Record<string, string>; file: { name: string; size: number; contentType: string; }; fileFirst?: boolean; };
}

const single = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const double = (s: string) => `"${s.replace(/(["\\`])/g, '\\$1')}"`;
const quote = (s: string) => (/\$CONFORMANCE_[A-Z_]+/.test(s) ? double(s) : single(s));

export function curlCommand(input: CurlInput): string {
  const parts = ['curl', '-sS', '-i', '-X', input.method, single(input.url)];
  for (const [name, value] of Object.entries(input.headers)) {
    if (input.multipart && name.toLowerCase() === 'content-type') continue;
    if (name.toLowerCase() === 'content-length') continue;
    parts.push('-H', quote(`${name}: ${value}`));
  }
  if (input.multipart) {
    const f = input.multipart.file;
    const fields = Object.entries(input.multipart.fields).flatMap(([name, value]) => ['-F', single(`${name}=${value}`)]);
    const file = ['-F', single(`file=@${f.name};type=${f.contentType}`)];
    parts.push(...(input.multipart.fileFirst ? [...file, ...fields] : [...fields, ...file]));
    return `head -c ${f.size} /dev/urandom > ${single(f.name)} && ${parts.join(' ')}`;
  }
  if (input.body !== undefined) parts.push('--data-raw', single(input.body));
  return parts.join(' ');
}
