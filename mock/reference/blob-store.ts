// Encrypted blob store: every stored byte is AES-256-GCM ciphertext; plaintext never
// touches the disk. Layout of a blob file: 12-byte IV | ciphertext | 16-byte auth tag.
// Writes go through the cipher into a temporary file that is renamed on success
// and removed on failure, so an aborted or oversize upload leaves nothing behind.
// Every file handle is closed on every way its use can end: a writer by finish() or
// abort(), a download's stream when it ends, fails or is destroyed (a client gone).
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline, type Readable } from 'node:stream';

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

/**
 * A blob being written, one chunk at a time (each write awaited before the next): the plaintext
 * is counted, hashed and encrypted; ciphertext is held until WRITE_BYTES gather, so a small
 * upload is one write of iv | ciphertext | tag (each file operation is a round trip through
 * libuv's pool). finish() puts the blob in place; abort() removes it; either closes the file,
 * and abort() after finish() or a second abort() does nothing.
 */
export class BlobWriter {
  private readonly cipher;
  private readonly hash = createHash('sha256');
  private held: Buffer[];
  private heldBytes = IV_BYTES;
  private size = 0;
  private settled = false;

  constructor(
    private readonly file: FileHandle,
    private readonly tmp: string,
    private readonly path: string,
    readonly blobId: string,
    key: Buffer,
    private readonly limit: number | undefined,
  ) {
    const iv = randomBytes(IV_BYTES);
    this.cipher = createCipheriv('aes-256-gcm', key, iv);
    this.held = [iv];
  }

  /** Takes the next chunk; rejects with SizeLimitExceeded once more than the limit has arrived. */
  async write(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    if (this.limit !== undefined && this.size > this.limit) throw new SizeLimitExceeded(this.limit);
    this.hash.update(chunk);
    const encrypted = this.cipher.update(chunk);
    this.held.push(encrypted);
    this.heldBytes += encrypted.length;
    if (this.heldBytes >= WRITE_BYTES) {
      const held = this.held;
      this.held = [];
      this.heldBytes = 0;
      await writeAll(this.file, held);
    }
  }

  /** Writes what is held and the tag, closes the file and puts the blob in place. */
  async finish(): Promise<StoredBlob> {
    if (this.settled) throw new Error('blob writer already settled');
    this.held.push(this.cipher.final(), this.cipher.getAuthTag());
    try {
      await writeAll(this.file, this.held);
    } catch (err) {
      await this.abort();
      throw err;
    }
    this.settled = true;
    try {
      await this.file.close();
      await rename(this.tmp, this.path);
    } catch (err) {
      await rm(this.tmp, { force: true });
      throw err;
    }
    return { blobId: this.blobId, size: this.size, sha256: this.hash.digest('hex') };
  }

  /** Closes the file and removes the partial blob. */
  async abort(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.file.close().catch(() => undefined);
    await rm(this.tmp, { force: true });
  }
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

  /** A new blob to write chunk by chunk; at most `limit` plaintext bytes (when given). */
  async create(limit?: number): Promise<BlobWriter> {
    const blobId = randomUUID();
    const path = this.pathOf(blobId);
    const tmp = `${path}.part`;
    const file = await open(tmp, 'wx');
    return new BlobWriter(file, tmp, path, blobId, this.key, limit);
  }

  /**
   * Streams `source` into a new encrypted blob while counting and hashing the plaintext.
   * Rejects with SizeLimitExceeded as soon as more than `limit` bytes arrive (when a
   * limit is given); the partial file is removed and the source destroyed.
   */
  async write(source: Readable, limit?: number): Promise<StoredBlob> {
    const writer = await this.create(limit);
    try {
      for await (const chunk of source) await writer.write(chunk as Buffer);
      return await writer.finish();
    } catch (err) {
      await writer.abort();
      source.destroy();
      throw err;
    }
  }

  /**
   * The decrypted bytes of a blob as a stream (the tag is read first, so tampering fails the
   * stream). One file handle serves the header and the bytes; it is closed when the stream ends,
   * fails or is destroyed, whoever destroys it (a download whose client went away).
   */
  async read(blobId: string): Promise<Readable> {
    const fh = await open(this.pathOf(blobId), 'r');
    let iv: Buffer, tag: Buffer, size: number;
    try {
      size = (await fh.stat()).size;
      iv = Buffer.alloc(IV_BYTES);
      tag = Buffer.alloc(TAG_BYTES);
      await fh.read(iv, 0, IV_BYTES, 0);
      await fh.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
    } catch (err) {
      await fh.close();
      throw err;
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    if (size - IV_BYTES - TAG_BYTES === 0) {
      await fh.close();
      decipher.end();
      return decipher;
    }
    // pipeline(), not pipe(): destroying the decipher (what the framework does when the client
    // goes away) destroys the file stream too, which closes the handle.
    const bytes = fh.createReadStream({ start: IV_BYTES, end: size - TAG_BYTES - 1 });
    return pipeline(bytes, decipher, () => undefined);
  }

  async remove(blobId: string): Promise<void> {
    await unlink(this.pathOf(blobId)).catch(() => undefined);
  }
}
