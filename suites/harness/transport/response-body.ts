// Reading a response: headers flattened to strings, the body as text, or — for downloads — only
// its length and sha256, so a 25 MB body is never held in memory.
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';

export interface ReadBody {
  headers: Record<string, string>;
  text: string;
  body: unknown;
  sha256?: string;
  length?: number;
}

export async function readResponse(res: Dispatcher.ResponseData, hash: boolean): Promise<ReadBody> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  if (hash && res.statusCode < 300) {
    const digest = createHash('sha256');
    let length = 0;
    for await (const chunk of res.body) {
      digest.update(chunk as Buffer);
      length += (chunk as Buffer).length;
    }
    const sha256 = digest.digest('hex');
    return { headers, text: `<${length} bytes, sha256 ${sha256}>`, body: undefined, sha256, length };
  }
  const text = await res.body.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { headers, text, body };
}
