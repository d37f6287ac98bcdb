// The failure-mode benchmark: a seeded random sample, without replacement, of the product of the
// failure modes and the elements of the API (mock/faults/modes/), each run through the main job
// (the conformance run, as `npm start` runs it) against the bundled mock with that one fault on.
// A fault is killed when the run fails (or blocks) a requirement that the clean run does not; a
// run that breaks without one is run again, and counted killed only when it breaks again.
//
//   npm run failure-modes -- --seed <n> --sample <k> [--parallel 1|2] [--out <file>] [--match <regex>]
//
// `--match` runs every fault whose name matches instead of a sample: a look at one mode or element
// while writing checks, never a figure to report.
//
// It prints the product's size per category, the kills per category, and last
// `killed K of N (95% interval a–b), seed S`; it writes every survivor (fault, category, element,
// requirements, and the request that shows it) to fixtures/failure-modes/survivors-<seed>.json.
// The figure to report is from a seed no one used while writing checks: after each round of new
// checks, a new seed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failureModes, type FailureModeSummary, prng } from '../mock/index.js';
import { pooled, runConformance, type RunOutcome, selfTestSettings } from '../suites/self/runner.js';
import { wilson95 } from './mutation/figures.js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SURVIVORS_DIR = 'fixtures/failure-modes';

/** `k` faults of the product drawn without replacement by a seeded PRNG (a partial Fisher–Yates shuffle). */
export function sampleOf<T>(items: readonly T[], k: number, seed: number): T[] {
  const pool = [...items];
  const random = prng(seed);
  const n = Math.min(k, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, n);
}

/** The requirements a run failed or blocked. */
const failedIds = (o: RunOutcome) => o.requirements.filter((r) => r.status === 'failed' || r.status === 'blocked').map((r) => r.id);

export type Verdict = { kind: 'killed'; by: string[]; } | { kind: 'broke'; why: string; } | { kind: 'survived'; };

/** What a run with a fault came to, beside the clean run's failures. */
export function verdictOf(o: RunOutcome, clean: ReadonlySet<string>): Verdict {
  const by = failedIds(o).filter((id) => !clean.has(id));
  if (by.length > 0) return { kind: 'killed', by };
  if (o.exitCode !== 0 || o.requirements.length === 0) return { kind: 'broke', why: o.output.trim().split('\n').at(-1)?.slice(0, 300) ?? '' };
  return { kind: 'survived' };
}

/**
 * Survivors the document leaves open, by mode, with the sentence that leaves them so (checked to be
 * in the document): a survivor of one of these is classified "left open", every other is a check
 * still to write.
 */
export const LEFT_OPEN: Record<string, { when: (f: FailureModeSummary) => boolean; sentence: string; }> = {
  // a replay of the first answer to a key reused with another JSON body: the 422 is stated for uploads alone
  'key-without-body': {
    when: (f) => !/^upload/.test(f.element),
    sentence: 'Every mutating endpoint takes an optional header `idempotency-key` (string).',
  },
  // an upload's form field sent empty stored as not sent (null, absent): an empty form field is how a
  // form sends no value, and §4 gives uploads an optional `category` with no word on an empty one
  'empty-string-as-null': {
    when: (f) => /^upload/.test(f.element),
    sentence: 'multipart/form-data: one `file` part, optional `category`',
  },
  'empty-as-absent': {
    when: (f) => /^upload/.test(f.element),
    sentence: 'multipart/form-data: one `file` part, optional `category`',
  },
  // an id in upper case: the pattern is "the canonical UUID pattern", which one reading spells in
  // lower case only (an id outside it is reported as missing) and another reads case-insensitively
  'id-upper-case-not-found': {
    when: () => true,
    sentence: 'The path parameter `id` is a UUID matching the canonical UUID pattern',
  },
};

/** The survivor's class: left open by the quoted sentence, or a check to write. */
export function classOf(f: FailureModeSummary, document: string): { verdict: 'left open'; sentence: string; } | { verdict: 'check to write'; } {
  const open = LEFT_OPEN[f.mode];
  if (open?.when(f) && document.includes(open.sentence)) return { verdict: 'left open', sentence: open.sentence };
  return { verdict: 'check to write' };
}

/** The product split: the faults to sample, and those a reading of the document allows (LEFT_OPEN, its sentence in the document). */
export function faultsToSample(all: readonly FailureModeSummary[], document: string): { faults: FailureModeSummary[]; leftOpen: FailureModeSummary[]; } {
  const open = (f: FailureModeSummary) => classOf(f, document).verdict === 'left open';
  return { faults: all.filter((f) => !open(f)), leftOpen: all.filter(open) };
}

/** The request that shows a fault, from its element: the operation, and what of it the mode breaks. */
export function requestOf(f: FailureModeSummary): { request: string; shows: string; } {
  const [op, rest = ''] = f.element.split(/(?<=^[A-Za-z]+)(?=[.?#:>])/);
  const where = rest.replace(/^[.?#:>]/, '');
  return {
    request: `${op}${rest ? ` (${where})` : ''}, then every view of the record it writes or shows`,
    shows: f.description,
  };
}

function parseArgs(argv: string[]): { seed: number; sample: number; parallel: number; out?: string; match?: RegExp; } {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const seedArg = get('seed');
  const seed = seedArg === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(seedArg);
  const sample = Number(get('sample') ?? 100);
  const parallel = Number(get('parallel') ?? 2);
  if (!Number.isInteger(seed) || !Number.isInteger(sample) || sample < 1 || ![1, 2].includes(parallel)) {
    throw new Error('usage: npm run failure-modes -- --seed <integer> --sample <k> [--parallel 1|2] [--out <file>] [--match <regex>]');
  }
  const match = get('match');
  return { seed, sample, parallel, ...(get('out') ? { out: get('out')! } : {}), ...(match ? { match: new RegExp(match) } : {}) };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

async function main(): Promise<void> {
  const { seed, sample, parallel, out, match } = parseArgs(process.argv.slice(2));
  const document = readFileSync(join(root, 'specs/public-api-v1.md'), 'utf8');
  // a behaviour a reading of the document allows is no fault: the sample is drawn from the others
  const { faults: product, leftOpen } = faultsToSample(failureModes(), document);
  console.log(
    `left out of the sample: ${leftOpen.length} faults of the modes the document leaves open (${
      Object.keys(LEFT_OPEN).map((m) => `${m} ${leftOpen.filter((f) => f.mode === m).length}`).join(', ')
    })`,
  );
  const categories = [...new Set(product.map((f) => f.category))];
  const count = (fs: readonly FailureModeSummary[], c: string) => fs.filter((f) => f.category === c).length;
  console.log(`failure modes × elements: ${product.length} faults (${categories.map((c) => `${c} ${count(product, c)}`).join(', ')})`);
  // --match: every fault whose name matches, for a look at one mode or element (no figure to report)
  const chosen = match ? product.filter((f) => match.test(f.name)) : sampleOf(product, sample, seed);
  console.log(`sample of ${chosen.length}, seed ${seed}, ${parallel} at a time; the clean run first`);
  const started = Date.now();
  const cleanRun = await runConformance(selfTestSettings, 300_000);
  if (cleanRun.exitCode !== 0) throw new Error(`the clean run does not pass:\n${cleanRun.output.slice(-2000)}`);
  const clean = new Set(failedIds(cleanRun));
  let done = 0;
  const verdicts = await pooled(chosen, parallel, async (f) => {
    const run = () => runConformance({ ...selfTestSettings, CONFORMANCE_MOCK_FAULT: f.name }, 300_000);
    let v = verdictOf(await run(), clean);
    if (v.kind === 'broke') {
      const again = verdictOf(await run(), clean);
      if (again.kind !== 'broke') v = again;
    }
    // A run on a loaded machine can fail a timing-bound check by itself: a kill by none of the
    // requirements the fault names stands only when a second run fails the same requirement again
    // (or one the fault names).
    if (v.kind === 'killed' && !v.by.some((id) => f.requirements.includes(id))) {
      const first = v.by;
      const again = verdictOf(await run(), clean);
      const both = again.kind === 'killed' ? again.by.filter((id) => first.includes(id) || f.requirements.includes(id)) : [];
      v = both.length > 0 ? { kind: 'killed', by: both } : { kind: 'survived' };
    }
    done += 1;
    console.log(`[${done}/${chosen.length}] ${v.kind === 'survived' ? 'SURVIVED' : v.kind === 'killed' ? 'killed  ' : 'broke   '} ${f.name}${
      v.kind === 'killed'
        ? `  (${[...v.by.filter((id) => f.requirements.includes(id)), ...v.by.filter((id) => !f.requirements.includes(id))].slice(0, 4).join(', ')})`
        : v.kind === 'broke'
        ? `  (${v.why})`
        : ''
    }`);
    return { fault: f, verdict: v };
  });
  const killed = verdicts.filter((x) => x.verdict.kind !== 'survived');
  const survivors = verdicts.filter((x) => x.verdict.kind === 'survived');
  console.log('\nper category (killed of sampled):');
  for (const c of categories) {
    const n = verdicts.filter((x) => x.fault.category === c).length;
    if (n === 0) continue;
    const k = killed.filter((x) => x.fault.category === c).length;
    console.log(`  ${c.padEnd(12)} ${String(k).padStart(3)} of ${String(n).padStart(3)}  (${pct(k / n)})`);
  }
  const broke = verdicts.filter((x) => x.verdict.kind === 'broke').length;
  if (broke > 0) console.log(`  (${broke} of the kills are runs that broke twice without a failed requirement)`);
  const file = out ?? join(SURVIVORS_DIR, `survivors-${seed}.json`);
  const open = survivors.filter(({ fault: f }) => classOf(f, document).verdict === 'left open').length;
  console.log(`survivors: ${survivors.length} (${open} left open by the document, ${survivors.length - open} checks to write)`);
  mkdirSync(join(root, SURVIVORS_DIR), { recursive: true });
  writeFileSync(
    resolve(root, file),
    `${
      JSON.stringify(
        {
          seed,
          sample: chosen.length,
          product: product.length,
          killed: killed.length,
          minutes: Math.round((Date.now() - started) / 60_000),
          survivors: survivors.map(({ fault: f }) => ({
            fault: f.name,
            category: f.category,
            mode: f.mode,
            element: f.element,
            requirements: f.requirements,
            ...requestOf(f),
            ...classOf(f, document),
          })),
        },
        null,
        2,
      )
    }\n`,
  );
  console.log(`survivors written to ${file}`);
  const [lo, hi] = wilson95(killed.length, verdicts.length);
  console.log(`killed ${killed.length} of ${verdicts.length} (95% interval ${lo}%–${hi}%), seed ${seed}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
