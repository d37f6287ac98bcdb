// The version rules of §9: `info.version` is semver, its MAJOR equals the (newest) path version,
// MINOR rises for backward-compatible additions, PATCH for documentation fixes, it never goes down,
// breaking changes never land in a served major, and an older major keeps its contract unchanged
// for its support window. A bump without a visible change is allowed: behaviour can change without
// the document changing (the 1.4.0 changelog entry is such a change).
import { pathMajors, perMajor } from './majors.js';
import { bumpOf, compareCore, higher, type Level, parseSemVer, rank, type SemVer } from './semver.js';
import type { Change, Json, VersionProblem, VersionReport } from './types.js';

const DEPRECATION = new Set(['endpoint.deprecated', 'endpoint.undeprecated', 'parameter.deprecated', 'schema.deprecated']);
// A change of unknown direction may be breaking: it needs what a breaking change needs until a person decides.
const levelOf = (c: Change): Level =>
  c.classification === 'breaking' || c.classification === 'unknown' ? 'major' : c.classification === 'non-breaking' ? 'minor' : 'patch';

export function checkVersion(oldDoc: Json, newDoc: Json, changes: Change[]): VersionReport {
  const info = (d: Json) => String((d.info as Json | undefined)?.version ?? '');
  const report: VersionReport = { old: info(oldDoc), new: info(newDoc), required: 'none', ok: true, problems: [], notes: [] };
  const problem = (code: string, message: string) => report.problems.push({ code, message });
  const note = (code: string, message: string) => report.notes.push({ code, message });
  const [a, b] = [parseSemVer(report.old), parseSemVer(report.new)];
  const [oldMajors, newMajors] = [pathMajors(oldDoc), pathMajors(newDoc)];
  const newest = newMajors.at(-1) ?? b?.major;

  if (!b) problem('VERSION_NOT_SEMVER', `new info.version "${report.new}" is not a semantic version (§9.2)`);
  if (!a) note('VERSION_OLD_NOT_SEMVER', `old info.version "${report.old}" is not a semantic version; the bump cannot be checked`);
  if (b && newMajors.length > 0 && b.major !== newest) {
    problem('VERSION_MAJOR_PATH_MISMATCH', `info.version MAJOR ${b.major} differs from the path version v${newest} (§9.2)`);
  }
  if (newMajors.length === 0) note('PATH_VERSION_UNKNOWN', 'no /api/public/vN path or server: MAJOR cannot be checked against the path');

  const olderMajorChanges = new Map<number, Change[]>();
  const breakingInServedMajor = new Set<Change>();
  const undecidedInServedMajor = new Set<Change>();
  for (const [entry, major, change] of changes.flatMap((e) => perMajor(e, newest).map(([m, c]) => [e, m, c] as const))) {
    if (major !== undefined && newest !== undefined && major < newest) {
      olderMajorChanges.set(major, [...(olderMajorChanges.get(major) ?? []), change]);
      report.required = higher(report.required, change.classification === 'documentation' ? 'patch' : 'minor');
      continue;
    }
    report.required = higher(report.required, levelOf(change));
    if (change.classification !== 'breaking' && change.classification !== 'unknown') continue;
    const served = major === undefined ? (a && b ? a.major === b.major : true) : oldMajors.includes(major) || (oldMajors.length === 0 && a?.major === b?.major);
    if (served) (change.classification === 'unknown' ? undecidedInServedMajor : breakingInServedMajor).add(entry);
  }
  if (breakingInServedMajor.size > 0) {
    problem('BREAKING_WITHIN_MAJOR',
      `${breakingInServedMajor.size} breaking change(s) within a served major version, e.g. ${
        examples([...breakingInServedMajor])
      }: breaking changes need a new major version under a new path (§9)`);
  }
  for (const change of undecidedInServedMajor) {
    problem('BEHAVIOUR_DIRECTION_UNKNOWN',
      `behaviour changed, direction unknown: ${change.message} (at ${change.location}); decide by §9 whether it breaks clients`);
  }
  for (const [major, list] of olderMajorChanges) checkOlderMajor(major, list, oldMajors, newMajors, problem, note);
  // A new path major is a new major version (§9.2 MAJOR equals the path version).
  if ((newMajors.at(-1) ?? 0) > (oldMajors.at(-1) ?? Infinity)) report.required = 'major';
  if (a && b) checkBump(a, b, report.required, problem, note);
  report.ok = report.problems.length === 0;
  return report;
}

type Report = (code: string, message: string) => void;

/** §9.1 and the support window: a served older major stays as it was, or goes away as a whole, after its window. */
function checkOlderMajor(major: number, changes: Change[], oldMajors: number[], newMajors: number[], problem: Report, note: Report): void {
  if (!newMajors.includes(major)) {
    const newerAlreadyServed = oldMajors.some((m) => m > major);
    if (newerAlreadyServed) {
      note('SUPPORT_WINDOW',
        `/api/public/v${major} removed: allowed only on or after its Sunset date, at least 6 months after the next major became stable (§9)`);
    } else {
      problem('SUPPORT_WINDOW_VIOLATED',
        `/api/public/v${major} removed in the same change that introduces its successor: the previous major must keep serving for at least 6 months after the new one is stable (§9)`);
    }
    return;
  }
  const altered = changes.filter((c) => c.classification !== 'documentation' && !DEPRECATION.has(c.kind));
  if (altered.length > 0) {
    problem('OLDER_MAJOR_CHANGED',
      `/api/public/v${major} must keep its contract unchanged once v${newMajors.at(-1)} exists (§9.1): ${altered.length} change(s), e.g. ${examples(altered)}`);
  }
}

function checkBump(a: SemVer, b: SemVer, required: Level, problem: Report, note: Report): void {
  const order = compareCore(b, a);
  const prereleaseOfReleased = order === 0 && a.prerelease === '' && b.prerelease !== '';
  if (order < 0 || prereleaseOfReleased) return problem('VERSION_DECREASED', `info.version went down: ${fmt(a)} → ${fmt(b)} (§9.2)`);
  // Releasing a pre-release (1.7.0-rc.1 → 1.7.0) or iterating one: the bump was taken by the pre-release.
  if (order === 0 && a.prerelease !== '') return;
  const actual = bumpOf(a, b);
  if (actual === 'none' && required !== 'none') {
    return problem('VERSION_NOT_RAISED', `the document changed but info.version stayed ${fmt(b)}: a ${required} bump is required (§9.2)`);
  }
  if (actual !== 'none' && required === 'none') {
    note('VERSION_RAISED_WITHOUT_CHANGE',
      `info.version rose ${fmt(a)} → ${fmt(b)} with no change in the document: the changelog should name the behaviour change`);
  }
  if (rank(actual) < rank(required)) {
    problem('VERSION_BUMP_TOO_SMALL', `${actual} bump ${fmt(a)} → ${fmt(b)}, but the changes require a ${required} bump (§9.2)`);
  }
  if ((actual === 'major' && (b.minor !== 0 || b.patch !== 0)) || (actual === 'minor' && b.patch !== 0)) {
    problem('VERSION_NOT_RESET', `${fmt(b)}: raising ${actual.toUpperCase()} resets the lower parts to 0 (semver)`);
  }
}

const fmt = (v: SemVer): string => `${v.major}.${v.minor}.${v.patch}${v.prerelease ? `-${v.prerelease}` : ''}`;

const examples = (changes: Change[]): string => changes.slice(0, 2).map((c) => `${c.kind} at ${c.location}`).join('; ');
