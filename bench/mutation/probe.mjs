// Loaded with `node --import` into every conformance run of the mutation benchmark
// (bench/mutation/runner.ts), before the run loads the mock that Stryker instrumented. The
// instrumented code keeps its state on globalThis.__stryker__, and reads the active mutant from
// __STRYKER_ACTIVE_MUTANT__ itself; this module adds the two things a plain process lacks:
// - the hit limit (MUTATION_HIT_LIMIT): the active mutant may be reached that many times, then it
//   throws, so a mutant that loops for ever ends instead of holding the run until its timeout;
// - at exit, what the run covered and whether the limit was reached, written to MUTATION_PROBE_FILE.
import { writeFileSync } from 'node:fs';

const ns = (globalThis.__stryker__ ??= {});
const hitLimit = Number(process.env.MUTATION_HIT_LIMIT);
if (hitLimit > 0) {
  ns.hitCount = 0;
  ns.hitLimit = hitLimit;
}

const out = process.env.MUTATION_PROBE_FILE;
if (out) {
  process.on('exit', () => {
    const hitLimitReached = ns.hitLimit !== undefined && ns.hitCount > ns.hitLimit;
    writeFileSync(out, JSON.stringify({ covered: ns.mutantCoverage?.static ?? {}, hitLimitReached }));
  });
}
