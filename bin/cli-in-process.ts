import { vi } from 'vitest';
import { main } from './main.js';

// Runs the command line in-process and captures what it prints (for bin/*.test.ts).
export async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string; }> {
  let stdout = '';
  let stderr = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(argv);
    return { code, stdout, stderr };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
