// `npm run bench`: the cached best case (one URL), the mixed workloads, start-up, a page deep
// in a large collection, the upload figures, the soak, then the fuzz under hostile clients, each
// in its own process so one's memory does not count against another's. BENCH_ONLY=mixed,startup
// runs some of them.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const only = (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
for (const script of ['throughput.ts', 'mixed.ts', 'startup.ts', 'pages.ts', 'upload.ts', 'soak.ts', 'fuzz.ts']) {
  if (only.length > 0 && !only.includes(script.replace(/\.ts$/, ''))) continue;
  const path = fileURLToPath(new URL(script, import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', path], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
