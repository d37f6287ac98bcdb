// The version rules of §9 applied to the document: its version is the newest numbered changelog row,
// its major the base path's (`/api/public/v1`). The bump itself is judged by the OpenAPI checker's rules
// (specs/diff/version.ts) on the same terms; the changelog adds its own: released rows stay, newest first.
import type { Change, VersionReport } from '../diff/index.js';
import { compareCore, parseSemVer } from '../diff/semver.js';
import { checkVersion } from '../diff/version.js';
import { type ApiDocument, SEMVER_ROW } from './api-document.js';

export const changelogProblemCodes = {
  CHANGELOG_ROW_REMOVED: 'a released version no longer has its changelog row',
  CHANGELOG_NOT_DESCENDING: 'the numbered changelog rows are not newest first',
  CHANGELOG_ENTRY_EMPTY: 'a new changelog row says nothing',
  CHANGELOG_ROW_EDITED: 'the text of a released version changed (note)',
  REQUIREMENT_QUOTE_CHANGED: 'a catalog entry quotes a sentence the new document no longer has, as `requirements check` reports it (note)',
  REQUIREMENT_UNQUOTED: 'a new normative sentence no catalog entry quotes, as `requirements check` reports it (note)',
} as const;

type Code = keyof typeof changelogProblemCodes;

/** The part of a document the version rules of specs/diff/version.ts read. */
const asDescription = (doc: ApiDocument) => ({
  info: { version: doc.version ?? '' },
  servers: doc.major === undefined ? [] : [{ url: `/api/public/v${doc.major}` }],
});

export function checkDocumentVersion(a: ApiDocument, b: ApiDocument, changes: Change[]): VersionReport {
  const report = checkVersion(asDescription(a), asDescription(b), changes);
  const reword = (m: string) => m.replace(/info\.version/g, 'the document version (newest changelog row)');
  report.problems = report.problems.map((p) => ({ ...p, message: reword(p.message) }));
  report.notes = report.notes.map((n) => ({ ...n, message: reword(n.message) }));
  const problem = (code: Code, message: string) => report.problems.push({ code, message });
  const note = (code: Code, message: string) => report.notes.push({ code, message });

  const numbered = (doc: ApiDocument) => doc.changelog.filter((r) => SEMVER_ROW.test(r.version));
  const released = new Map(numbered(a).map((r) => [r.version, r]));
  const rows = numbered(b);
  for (const [version, old] of released) {
    const now = rows.find((r) => r.version === version);
    if (!now) problem('CHANGELOG_ROW_REMOVED', `changelog row ${version} removed: released versions keep their row (§9)`);
    else if (now.change !== old.change) note('CHANGELOG_ROW_EDITED', `changelog row ${version} reworded: make sure it still says what ${version} changed`);
  }
  for (let i = 1; i < rows.length; i += 1) {
    const [newer, older] = [parseSemVer(rows[i - 1]!.version), parseSemVer(rows[i]!.version)];
    if (newer && older && compareCore(newer, older) <= 0) {
      problem('CHANGELOG_NOT_DESCENDING',
        `changelog row ${rows[i]!.version} (line ${rows[i]!.line}) is listed below ${
          rows[i - 1]!.version
        }: the newest row comes first and is the document's version`);
    }
  }
  for (const row of b.changelog.filter((r) => !released.has(r.version) && !a.changelog.some((o) => o.version === r.version && o.change === r.change))) {
    if (row.change.trim() === '') problem('CHANGELOG_ENTRY_EMPTY', `changelog row ${row.version} (line ${row.line}) has no text: say what changed`);
  }
  report.ok = report.problems.length === 0;
  return report;
}
