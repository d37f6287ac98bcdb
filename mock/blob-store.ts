// Encrypted blob store: every stored byte is AES-256-GCM ciphertext; plaintext never
// touches the disk. Layout of a blob file: 12-byte IV | ciphertext | 16-byte auth tag.
// Writes stream through the cipher into a temporary file that is renamed on success
// and removed on failure, so an aborted or oversize upload leaves nothing behind.
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SizeLimitExceeded extends Error {
  constructor(readonly limit: number) {
    super(`stream exceeds ${limit} bytes`);
  }
}

export interface StoredBlob {
  blobId: string;
  size: number;
  sha256: string;
}

export class BlobStore {
  private constructor(readonly dir: string, private readonly key: Buffer) {}

  static async open(dir: string, key: Buffer): Promise<BlobStore> {
    if (key.length !== 32) throw new Error('the encryption key must be 32 bytes (AES-256)');
    await mkdir(join(dir, 'blobs'), { recursive: true });
    return new BlobStore(dir, key);
  }

  private path(blobId: string): string {
    return join(this.dir, 'blobs', `${blobId}.bin`);
  }

  /**
   * Streams `source` into a new encrypted blob while counting and hashing the plaintext.
   * Rejects with SizeLimitExceeded as soon as more than `limit` bytes arrive (when a
   * limit is given); the partial file is removed.
   */
  async write(source: Readable, limit?: number): Promise<StoredBlob> {
    const blobId = randomUUID();
    const tmp = `${this.path(blobId)}.part`;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (limit !== undefined && size > limit) return done(new SizeLimitExceeded(limit));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const out = createWriteStream(tmp);
    out.write(iv);
    try {
      await pipeline(source, meter, cipher, out);
      const fh = await open(tmp, 'a');
      try {
        await fh.write(cipher.getAuthTag());
      } finally {
        await fh.close();
      }
      await rename(tmp, this.path(blobId));
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { blobId, size, sha256: hash.digest('hex') };
  }

  /** The decrypted bytes of a blob as a stream (the tag is read first, so tampering fails the stream). */
  async read(blobId: string): Promise<Readable> {
    const file = this.path(blobId);
    const fh = await open(file, 'r');
    let iv: Buffer, tag: Buffer, size: number;
    try {
      size = (await fh.stat()).size;
      iv = Buffer.alloc(IV_BYTES);
      tag = Buffer.alloc(TAG_BYTES);
      await fh.read(iv, 0, IV_BYTES, 0);
      await fh.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
    } finally {
      await fh.close();
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    const cipherLen = size - IV_BYTES - TAG_BYTES;
    if (cipherLen === 0) {
      decipher.end();
      return decipher;
    }
    return createReadStream(file, { start: IV_BYTES, end: size - TAG_BYTES - 1 }).pipe(decipher);
  }

  /** The bytes as stored, still encrypted (without iv and tag): only the download-encrypted fault serves them. */
  async readStored(blobId: string): Promise<Readable> {
    const file = this.path(blobId);
    const size = (await stat(file)).size;
    return size - IV_BYTES - TAG_BYTES === 0 ? Readable.from([]) : createReadStream(file, { start: IV_BYTES, end: size - TAG_BYTES - 1 });
  }

  async remove(blobId: string): Promise<void> {
    await unlink(this.path(blobId)).catch(() => undefined);
  }
}
