// The mutation benchmark: Stryker mutates the mock's behaviour (mock/reference/) and its speed layer
// (mock/fast/), and the conformance run against the bundled mock (`npm start`, runner.ts) has to
// notice each mutant: a mutant of mock/reference/ is tested with the speed layer off (every request
// through the reference pipeline), one of mock/fast/ with it on. A figure, never an assertion: it is
// not part of `npm test`.
//
//   npm run mutation                     incremental, on the default sample (settings.ts SAMPLE: the seed of the
//                                        figures reported last, at the fraction its checked-in results hold):
//                                        only mutants whose code changed run again
//   npm run mutation -- --sample 0.1     a seeded sample of about a tenth of the mutants; the others are marked
//                                        Ignored ("outside this run's sample"), and a later run with a larger
//                                        fraction and the same seed tests only what it adds
//   npm run mutation -- --sample-seed 9  another sample: a fresh seed, never used while writing checks, is the one
//                                        whose score to report; its results go to fixtures/mutation/sample-9/
//   npm run mutation -- --force          every mutant of the sample again
//   npm run mutation -- --seed 7         another conformance seed, apart from the checked-in results (for the spread)
//   npm run mutation -- --mutate 'mock/reference/lookup.ts:10-20'   only these files or lines (the others keep their results)
//   npm run mutation -- --concurrency 1  conformance runs at a time (default 2, stryker.config.ts): 1 on a loaded machine
//
// With the default conformance seed, the results are checked in under fixtures/mutation/sample-<sample
// seed>/: Stryker's incremental file, and the survivors (survivors.json, each classified by hand) with
// the run's figures, Stryker's own score beside the project's, and both per folder. The files directly
// in fixtures/mutation/ are sample seed 1's, of mock/reference/ alone at ac637d2: history, which no run
// rewrites. Stryker reuses a mutant's result when the code it mutates did not change; it cannot see a
// change of the suites, of the rest of the mock or of how a mutant is tested, so those are
// fingerprinted here (fingerprint.json), and a change of any of them runs every mutant again.
// Reports (HTML and JSON) go to out/mutation/.
import type { PartialStrykerOptions, schema } from '@stryker-mutator/api/core';
import { Stryker } from '@stryker-mutator/core';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { dataDirOf, dataFiles, DEFAULT_SEED, HISTORY_SAMPLE_SEED, inSample, KILL_REASON, OUTSIDE_SAMPLE, REPORT_DIR, SAMPLE } from './settings.js';

type Report = schema.MutationTestResult;
import { classify, figureLines, figuresOf, headCommit, readReport, readSurvivors, survivorsOf, writeSurvivors } from './figures.js';

const CONFIG_FILE = 'bench/mutation/stryker.config.ts';

/**
 * What a kill depends on besides the mutated code: the suites and everything they run on (the
 * command line, the harness, the contracts, the document and its schemas, the reporter, the build),
 * the rest of the mock (its entry, faults, seed data), the test data the checks read,
 * the locked packages, and how a mutant is tested here. Tests and prose are left out: they are not
 * part of a run; so are the mutation results themselves.
 */
const DEPENDS_ON =
  /^(bin|build|contract|fixtures|reports|specs|suites|mock)\/|^package-lock\.json$|^bench\/mutation\/(runner|probe|settings|stryker\.config)\./;
const LEFT_OUT = /\.test\.ts$|\.md$|^mock\/(reference|fast)\/.*\.ts$|^mock\/testing\/|^fixtures\/mutation\//;

interface Fingerprint {
  seed: string;
  files: number;
  sha256: string;
}

function fingerprint(seed: string): Fingerprint {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' });
  const files = listed.split('\n').filter((f) => DEPENDS_ON.test(f) && !LEFT_OUT.test(f) && existsSync(f)).sort();
  const hash = createHash('sha256').update(seed);
  for (const file of files) hash.update(`\u0000${file}\u0000`).update(readFileSync(file));
  return { seed, files: files.length, sha256: hash.digest('hex') };
}

/** At most this many requirement ids in a killed mutant's reason, in the checked-in file. */
const REASON_IDS = 6;

/** A kill's reason, its list of failed requirements cut short. */
export function shortReason(reason: string): string {
  if (!reason.startsWith(KILL_REASON.requirement)) return reason.length > 300 ? `${reason.slice(0, 299)}…` : reason;
  const ids = reason.slice(KILL_REASON.requirement.length).split(',').map((id) => id.trim());
  return ids.length <= REASON_IDS ? reason : `${KILL_REASON.requirement} ${ids.slice(0, REASON_IDS).join(', ')} and ${ids.length - REASON_IDS} more`;
}

/**
 * Marks the mutants this run's sample left out as Ignored, with the reason: the runner answered them
 * with an error (a test runner cannot answer "ignored"), and those the run never reached were not
 * looked at either. Stryker tests a mutant it finds Ignored in the incremental file again, so a later
 * run with a larger sample takes them up; a result from an earlier, larger sample stays.
 */
function markOutsideSample(report: Report, sample: { fraction: number; seed: string; }): void {
  for (const [file, result] of Object.entries(report.files)) {
    for (const m of result.mutants) {
      const place = { file, line: m.location.start.line, column: m.location.start.column, mutatorName: m.mutatorName, replacement: m.replacement ?? '' };
      const inside = inSample(place, sample.fraction, sample.seed);
      const left = m.status === 'RuntimeError' && m.statusReason === OUTSIDE_SAMPLE;
      if (left && inside) throw new Error(`${file}:${place.line}:${place.column}: the runner and run.ts disagree on the sample`);
      if (left || (m.status === 'NoCoverage' && !inside)) {
        m.status = 'Ignored';
        m.statusReason = OUTSIDE_SAMPLE;
      }
    }
  }
}

/**
 * Stryker's incremental file without what it does not read back: the options of the run and the
 * project's absolute path (the mutants, their results and the sources they were found in stay),
 * and each kill's list of failed requirements cut short (the full list is in the run's report).
 */
function slimIncremental(file: string, sample: { fraction: number; seed: string; }): void {
  const { config: _config, projectRoot: _root, ...kept } = JSON.parse(readFileSync(file, 'utf8')) as Report;
  markOutsideSample(kept as Report, sample);
  for (const result of Object.values(kept.files)) {
    for (const m of result.mutants) if (m.statusReason) m.statusReason = shortReason(m.statusReason);
  }
  writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`);
}

const readJson = <T>(file: string): T | undefined => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      force: { type: 'boolean' },
      mutate: { type: 'string', multiple: true },
      sample: { type: 'string' },
      'sample-seed': { type: 'string' },
      concurrency: { type: 'string' },
    },
  });
  const seed = values.seed ?? DEFAULT_SEED;
  if (!/^\d+$/.test(seed)) throw new Error(`--seed takes a number, not ${seed}`);
  const sampleSeed = values['sample-seed'] ?? SAMPLE.seed;
  if (!/^\d+$/.test(sampleSeed)) throw new Error(`--sample-seed takes a number, not ${sampleSeed}`);
  const checkedIn = seed === DEFAULT_SEED;
  if (checkedIn && sampleSeed === HISTORY_SAMPLE_SEED) {
    throw new Error(
      `sample seed ${HISTORY_SAMPLE_SEED} is history (fixtures/mutation/, measured at ac637d2 and used while writing checks): take a fresh --sample-seed`,
    );
  }
  // The checked-in results of this sample seed; another conformance seed keeps its own, out of them.
  const dataDir = checkedIn ? dataDirOf(sampleSeed) : `${REPORT_DIR}/seed-${seed}/sample-${sampleSeed}`;
  const files = dataFiles(dataDir);
  const reportDir = checkedIn ? `${REPORT_DIR}/sample-${sampleSeed}` : dataDir;
  // By default the fraction the results already hold, so that a plain run stays incremental.
  const heldFraction = readSurvivors(dataFiles(dataDirOf(sampleSeed)).survivors)?.figures.sample.fraction;
  const sample = { fraction: values.sample === undefined ? heldFraction ?? SAMPLE.fraction : Number(values.sample), seed: sampleSeed };
  if (!(sample.fraction > 0 && sample.fraction <= 1)) throw new Error(`--sample takes a fraction of the mutants (0 < f ≤ 1), not ${values.sample}`);
  const incrementalFile = files.incremental;
  const fingerprintFile = files.fingerprint;
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(reportDir, { recursive: true });

  const now = fingerprint(seed);
  const before = readJson<Fingerprint>(fingerprintFile);
  const changed = existsSync(incrementalFile) && before?.sha256 !== now.sha256;
  if (changed) console.log(`mutation: the suites, the rest of the mock or the way mutants are tested changed since the last run: every mutant runs again`);
  const force = values.force === true || changed;

  // Stryker's worker processes inherit the environment: the runner reads the seed from it (settings.ts).
  process.env.MUTATION_SEED = seed;
  process.env.MUTATION_PROJECT_ROOT = process.cwd();
  process.env.MUTATION_SAMPLE = String(sample.fraction);
  process.env.MUTATION_SAMPLE_SEED = sample.seed;
  const options = {
    configFile: CONFIG_FILE,
    incrementalFile,
    force,
    ...(values.mutate ? { mutate: values.mutate } : {}),
    ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
    jsonReporter: { fileName: `${reportDir}/mutation.json` },
    htmlReporter: { fileName: `${reportDir}/mutation.html` },
  };
  // The commit whose code the sandbox copies: work committed while the run goes on is not what it measured.
  const measured = headCommit();
  const started = Date.now();
  await new Stryker(options as PartialStrykerOptions).runMutationTest();
  const wallMs = Date.now() - started;
  writeFileSync(fingerprintFile, `${JSON.stringify(now, null, 2)}\n`);
  slimIncremental(incrementalFile, sample);

  const report = readReport(`${reportDir}/mutation.json`);
  markOutsideSample(report, sample);
  // The classification is the checked-in list's: another conformance seed's new survivors show as unclassified.
  const figures = checkedIn
    ? writeSurvivors(report, { sample, commit: measured, file: files.survivors }).figures
    : figuresOf(report, classify(survivorsOf(report), readSurvivors(dataFiles(dataDirOf(sampleSeed)).survivors)?.survivors ?? []), seed, sample, measured);
  console.log('');
  for (const line of figureLines(figures)) console.log(`mutation: ${line}`);
  console.log(`mutation: wall time ${Math.round(wallMs / 1000)} s${force ? '' : ' (incremental)'}; report ${reportDir}/mutation.html`);
  if (figures.unclassified > 0 && checkedIn) {
    console.log(`mutation: ${figures.unclassified} survivors are not classified yet: give each a verdict and a reason in ${files.survivors}`);
  }
}

await main();
