// Upload bodies generated on the fly from (seed, size): never held in memory as a whole,
// reproducible for a retry and for comparing a download byte for byte.
import { createHash, randomBytes } from 'node:crypto';

export interface UploadFile {
  filename: string;
  contentType: string;
  size: number;
  seed: number;
}

const BLOCK = 64 * 1024;

function block(seed: number): Buffer {
  // xorshift32: cheap, deterministic, different for every seed
  let x = (seed | 0) || 0x9e3779b9;
  const out = Buffer.allocUnsafe(BLOCK);
  for (let i = 0; i < BLOCK; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.writeInt32LE(x | 0, i);
  }
  return out;
}

export async function* fileBytes(file: UploadFile): AsyncGenerator<Buffer> {
  const base = block(file.seed);
  for (let offset = 0, k = 0; offset < file.size; offset += BLOCK, k += 1) {
    const chunk = Buffer.from(base);
    chunk.writeUInt32LE(k, 0); // every 64 KiB block differs, so a misplaced block is noticed
    yield offset + BLOCK <= file.size ? chunk : chunk.subarray(0, file.size - offset);
  }
}

export async function sha256Of(file: UploadFile): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fileBytes(file)) hash.update(chunk);
  return hash.digest('hex');
}

export interface MultipartBody {
  contentType: string;
  length: number;
  /** A fresh stream of the whole body (a retry needs another one). */
  open: () => AsyncGenerator<Buffer>;
}

export function multipartBody(fields: Record<string, string>, file: UploadFile, fileFirst = false): MultipartBody {
  const boundary = `conformance${randomBytes(12).toString('hex')}`;
  const fieldParts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join(
    '',
  );
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`;
  const head = Buffer.from(fileFirst ? fileHead : fieldParts + fileHead);
  const tail = Buffer.from(fileFirst ? `\r\n${fieldParts}--${boundary}--\r\n` : `\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + file.size + tail.length,
    open: async function*() {
      yield head;
      yield* fileBytes(file);
      yield tail;
    },
  };
}
