// Encrypted blob store: every stored byte is AES-256-GCM ciphertext; plaintext never
// touches the disk. Layout of a blob file: 12-byte IV | ciphertext | 16-byte auth tag.
// Writes go through the cipher into a temporary file that is renamed on success
// and removed on failure, so an aborted or oversize upload leaves nothing behind.
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Ciphertext gathered before a write to the blob file. */
const WRITE_BYTES = 64 * 1024;

/** Writes every byte of `buffers` (a write may take fewer bytes than it was given). */
async function writeAll(file: FileHandle, buffers: Buffer[]): Promise<void> {
  let rest = buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers);
  while (rest.length > 0) {
    const { bytesWritten } = await file.write(rest);
    rest = rest.subarray(bytesWritten);
  }
}

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

  /** Where a blob is stored: IV, ciphertext, tag. */
  pathOf(blobId: string): string {
    return join(this.dir, 'blobs', `${blobId}.bin`);
  }

  /** Bytes before and after the ciphertext in a blob file. */
  readonly ivBytes = IV_BYTES;
  readonly tagBytes = TAG_BYTES;

  /**
   * Streams `source` into a new encrypted blob while counting and hashing the plaintext.
   * Rejects with SizeLimitExceeded as soon as more than `limit` bytes arrive (when a
   * limit is given); the partial file is removed.
   */
  async write(source: Readable, limit?: number): Promise<StoredBlob> {
    const blobId = randomUUID();
    const tmp = `${this.pathOf(blobId)}.part`;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const hash = createHash('sha256');
    let size = 0;
    const file = await open(tmp, 'wx');
    let isOpen = true;
    try {
      // Through pipeline(): on a refusal the source is destroyed with the error and settled before
      // this rejects, so the multipart parser discards the rest of the body and the connection
      // stays usable. Ciphertext is held until WRITE_BYTES gather, so a small upload is one write
      // of iv | ciphertext | tag: each file operation is a round trip through libuv's pool.
      await pipeline(source, async (chunks: AsyncIterable<Buffer>) => {
        let held: Buffer[] = [iv];
        let heldBytes = IV_BYTES;
        for await (const chunk of chunks) {
          size += chunk.length;
          if (limit !== undefined && size > limit) throw new SizeLimitExceeded(limit);
          hash.update(chunk);
          const encrypted = cipher.update(chunk);
          held.push(encrypted);
          heldBytes += encrypted.length;
          if (heldBytes >= WRITE_BYTES) {
            await writeAll(file, held);
            held = [];
            heldBytes = 0;
          }
        }
        held.push(cipher.final(), cipher.getAuthTag());
        await writeAll(file, held);
      });
      isOpen = false;
      await file.close();
      await rename(tmp, this.pathOf(blobId));
    } catch (err) {
      if (isOpen) await file.close().catch(() => undefined);
      await rm(tmp, { force: true });
      throw err;
    }
    return { blobId, size, sha256: hash.digest('hex') };
  }

  /** The decrypted bytes of a blob as a stream (the tag is read first, so tampering fails the stream). */
  async read(blobId: string): Promise<Readable> {
    const file = this.pathOf(blobId);
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

  async remove(blobId: string): Promise<void> {
    await unlink(this.pathOf(blobId)).catch(() => undefined);
  }
}
