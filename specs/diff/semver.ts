// Semantic versions (semver.org 2.0.0) as far as the version rules of §9.2 need them.

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseSemVer(text: unknown): SemVer | undefined {
  const m = typeof text === 'string' ? SEMVER.exec(text) : null;
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), prerelease: m[4] ?? '' };
}

/** Compares the MAJOR.MINOR.PATCH cores only; pre-releases of one core count as that core. */
export function compareCore(a: SemVer, b: SemVer): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

export type Level = 'major' | 'minor' | 'patch' | 'none';
export const LEVELS: readonly Level[] = ['none', 'patch', 'minor', 'major'];
export const rank = (level: Level): number => LEVELS.indexOf(level);
export const higher = (a: Level, b: Level): Level => (rank(a) >= rank(b) ? a : b);

/** Which part rose from `a` to `b` (`none` when the cores are equal). */
export function bumpOf(a: SemVer, b: SemVer): Level {
  if (b.major !== a.major) return 'major';
  if (b.minor !== a.minor) return 'minor';
  return b.patch !== a.patch ? 'patch' : 'none';
}
