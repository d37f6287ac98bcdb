// `npm run bench`: the throughput comparison, the upload figures, then the soak, each in
// its own process so one's memory does not count against the other.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

for (const script of ['throughput.ts', 'upload.ts', 'soak.ts']) {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', path], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
