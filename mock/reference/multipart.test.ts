// The multipart reader: the same events however the body is cut into chunks, and a FormError for
// every way the framing or a part's headers can be wrong, at the chunk where it shows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentDisposition, decodeFilename } from './filenames.js';
import { boundaryOf, FORM_LIMITS, FormError, type FormEvent, formOverheadBytes, FormReader, headerParams, isFormData } from './multipart.js';

const B = 'XyZ-boundary';

/** Every event of a body read in the given chunks, file data joined per file, or the FormError's detail. */
function read(chunks: Buffer[]): (FormEvent | { kind: 'error'; field: string; })[] {
  const reader = new FormReader(B);
  const out: (FormEvent | { kind: 'error'; field: string; })[] = [];
  try {
    for (const chunk of chunks) {
      for (const e of reader.push(chunk)) {
        const last = out.at(-1);
        if (e.kind === 'file-data' && last?.kind === 'file-data') last.bytes = Buffer.concat([last.bytes, e.bytes]);
        else out.push(e.kind === 'file-data' ? { kind: 'file-data', bytes: Buffer.from(e.bytes) } : e);
      }
    }
    reader.end();
  } catch (err) {
    if (!(err instanceof FormError)) throw err;
    out.push({ kind: 'error', field: err.field });
  }
  return out;
}

const cut = (body: Buffer, at: number[]) => {
  const points = [...new Set(at.map((p) => Math.floor(p * body.length)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    out.push(body.subarray(from, p));
    from = p;
  }
  out.push(body.subarray(from));
  return out;
};

const part = (headers: string, content: Buffer | string) =>
  Buffer.concat([Buffer.from(`--${B}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
const close = Buffer.from(`--${B}--\r\n`);

describe('FormReader', () => {
  it('gives the same events however the body is cut', () => {
    const content = fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b));
    // Bytes that look like a delimiter, or part of one, inside a file.
    const tricky = fc.constantFrom(`\r\n--${B.slice(0, 5)}`, `\r\n-`, `z--${B}`, `\r\n--${B.slice(0, -1)}`).map((s) => Buffer.from(s));
    const body = fc.array(
      fc.oneof(
        fc.tuple(fc.constantFrom('a', 'entity_type', 'x y'), fc.string({ maxLength: 40 })).map(([n, v]) =>
          part(`Content-Disposition: form-data; name="${n}"`, v)
        ),
        fc.tuple(content, tricky, content).map(([a, t, b]) => Buffer.concat([a, t, b])).filter((c) => !c.includes(`\r\n--${B}`)).map((c) =>
          part('Content-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/pdf', c)
        ),
      ),
      { maxLength: 4 },
    ).map((parts) => Buffer.concat([Buffer.from('preamble\r\n'), ...parts, close, Buffer.from('epilogue')]));
    fc.assert(fc.property(body, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }), (b, at) => {
      expect(read(cut(b, at))).toEqual(read([b]));
      expect(read(cut(b, at)).some((e) => e.kind === 'error')).toBe(false);
    }), { seed: 11, numRuns: 400 });
  });

  it('reads fields, a file with its name and type, and ignores the preamble and epilogue', () => {
    const body = Buffer.concat([
      Buffer.from('ignored\r\n'),
      part('Content-Disposition: form-data; name="category"', 'contract'),
      part('content-disposition: form-data; name="file"; filename="a.txt"; filename*=UTF-8\'\'%C3%A9.txt\r\nContent-Type: Text/Plain; charset=utf-8', 'hello'),
      close,
      Buffer.from('ignored too'),
    ]);
    expect(read([body])).toEqual([
      { kind: 'field', name: 'category', value: 'contract' },
      { kind: 'file-start', name: 'file', filename: { ok: true, name: 'é.txt' }, mime: 'text/plain' },
      { kind: 'file-data', bytes: Buffer.from('hello') },
      { kind: 'file-end' },
    ]);
  });

  it.each([
    ['a part that is not form-data', part('Content-Disposition: attachment; name="file"', 'x'), 'body'],
    ['no closing delimiter', part('Content-Disposition: form-data; name="a"', 'x'), 'body', 'unclosed'],
    ['a part without a name', part('Content-Disposition: form-data; filename="a"', 'x'), 'body'],
    ['a part without Content-Disposition', part('Content-Type: text/plain', 'x'), 'body'],
    ['a header line without a colon', part('Content-Disposition: form-data; name="a"\r\nnonsense', 'x'), 'body'],
    ['two Content-Type headers', part('Content-Disposition: form-data; name="file"\r\nContent-Type: a/b\r\nContent-Type: c/d', 'x'), 'body'],
    ['a Content-Type that is no media type', part('Content-Disposition: form-data; name="file"; filename="a"\r\nContent-Type: html', 'x'), 'file'],
    ['a delimiter followed by junk', Buffer.from(`--${B}junk\r\n`), 'body'],
    ['a body without any delimiter', Buffer.from('just bytes'), 'body'],
    ['a field over 64 KiB', part('Content-Disposition: form-data; name="a"', 'x'.repeat(65_537)), 'a'],
    ['part headers over 16 KiB', part(`Content-Disposition: form-data; name="a"\r\nX-Pad: ${'p'.repeat(16_400)}`, 'x'), 'body'],
    ['31 parts', Buffer.concat(Array.from({ length: 31 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"; filename="x"`, ''))), 'body'],
    ['21 fields', Buffer.concat(Array.from({ length: 21 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, ''))), 'body'],
    ['a preamble over 16 KiB', Buffer.concat([Buffer.from(`${'p'.repeat(16_385)}\r\n`), part('Content-Disposition: form-data; name="a"', 'x')]), 'body'],
    [
      'an epilogue over 16 KiB',
      Buffer.concat([part('Content-Disposition: form-data; name="a"', 'x'), close, Buffer.from('e'.repeat(16_383))]),
      'body',
      'closed already',
    ],
  ] as [string, Buffer, string, string?][])('%s is a FormError, cut anywhere', (_, bytes, field, unclosed) => {
    const body = unclosed ? bytes : Buffer.concat([bytes, close]);
    for (const chunks of [[body], cut(body, [0.1, 0.5, 0.9]), [...body].map((b) => Buffer.from([b])).slice(0, 200_000)]) {
      expect(read(chunks).at(-1), JSON.stringify(_)).toEqual({ kind: 'error', field });
    }
  });

  it('reads an empty body as an empty form', () => {
    expect(read([])).toEqual([]);
  });

  it('reads a preamble and an epilogue of 16 KiB each', () => {
    const body = Buffer.concat([
      Buffer.from(`${'p'.repeat(16_384)}\r\n`),
      part('Content-Disposition: form-data; name="a"', 'x'),
      close,
      Buffer.from('e'.repeat(16_382)),
    ]);
    expect(read(cut(body, [0.3, 0.6]))).toEqual([{ kind: 'field', name: 'a', value: 'x' }]);
  });

  it('accepts no form holding more than formOverheadBytes besides its file, the largest one it accepts included', () => {
    const L = FORM_LIMITS;
    const header = (name: string, extra = '') => {
      const base = `Content-Disposition: form-data; name="${name}"${extra}`;
      return `${base}\r\nX-Pad: ${'p'.repeat(L.headerBytes - base.length - 9)}`;
    };
    const padded = (headers: string, content: string | Buffer) =>
      Buffer.concat([Buffer.from(`\r\n--${B}${' '.repeat(64)}\r\n${headers}\r\n\r\n`), Buffer.from(content)]);
    const file = Buffer.alloc(1_000, 0x61);
    const largest = Buffer.concat([
      Buffer.from('p'.repeat(L.outsideBytes)),
      ...Array.from({ length: L.fields }, (_, i) => padded(header(`f${i}`), 'v'.repeat(L.fieldBytes))),
      padded(header('file', '; filename="a"'), file),
      Buffer.from(`\r\n--${B}--`),
      Buffer.from('e'.repeat(L.outsideBytes)),
    ]);
    const events = read([largest]);
    expect(events.filter((e) => e.kind === 'field')).toHaveLength(L.fields);
    expect(events.find((e) => e.kind === 'file-data')).toEqual({ kind: 'file-data', bytes: file });
    expect(largest.length - file.length).toBe(formOverheadBytes(B));
    // One byte more anywhere but in the file is refused.
    expect(read([Buffer.concat([Buffer.from('p'), largest])]).at(-1)).toEqual({ kind: 'error', field: 'body' });
    expect(read([Buffer.concat([largest, Buffer.from('e')])]).at(-1)).toEqual({ kind: 'error', field: 'body' });
  });
});

describe('Content-Type parameters', () => {
  it('reads tokens and quoted strings with escapes, names lowercased, the first of a repeated one', () => {
    expect(headerParams('form-data; NAME="a\\"b"; filename=x.txt; name=second')).toEqual({
      type: 'form-data',
      params: new Map([['name', 'a"b'], ['filename', 'x.txt']]),
    });
    expect(headerParams('form-data; name="unclosed')).toBeUndefined();
  });

  it('finds the boundary, and refuses one RFC 2046 does not allow', () => {
    expect(boundaryOf('multipart/form-data; boundary="a b:c"')).toBe('a b:c');
    expect(isFormData('Multipart/Form-Data; boundary=x')).toBe(true);
    expect(isFormData('multipart/mixed; boundary=x')).toBe(false);
    for (
      const type of [
        'multipart/form-data',
        'multipart/form-data; boundary=',
        `multipart/form-data; boundary=${'b'.repeat(71)}`,
        'multipart/form-data; boundary="x "',
      ]
    ) {
      expect(() => boundaryOf(type), type).toThrow(FormError);
    }
  });
});

describe('file names', () => {
  const named = (params: Record<string, string>) => decodeFilename(new Map(Object.entries(params)));
  it('prefer filename* and keep the last segment of a path', () => {
    expect(named({ filename: 'fallback', 'filename*': "UTF-8''%E6%97%A5.txt" })).toEqual({ ok: true, name: '日.txt' });
    expect(named({ 'filename*': "iso-8859-1'fr'%E9t%E9" })).toEqual({ ok: true, name: 'été' });
    expect(named({ filename: '../x/..\\y.txt' })).toEqual({ ok: true, name: 'y.txt' });
    expect(named({ filename: '..' })).toEqual({ ok: true, name: '' });
    expect(named({})).toEqual({ ok: true, name: '' });
  });

  it('are given back as an ASCII fallback and an RFC 8187 value of every byte', () => {
    expect(contentDisposition('')).toBe('attachment');
    expect(contentDisposition('a.txt')).toBe('attachment; filename="a.txt"; filename*=UTF-8\'\'a.txt');
    expect(contentDisposition('é "x" 50%(1)\\\'.txt')).toBe(
      "attachment; filename=\"_ _x_ 50_(1)_'.txt\"; filename*=UTF-8''%C3%A9%20%22x%22%2050%25%281%29%5C%27.txt",
    );
    expect(contentDisposition('😀')).toBe('attachment; filename="_"; filename*=UTF-8\'\'%F0%9F%98%80');
  });
});
