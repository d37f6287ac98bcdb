// The registrations are read from the source by the compiler, and a run from dist/ reads the
// build's manifest of them while every suite file is as it was read.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { idListsIn, registrationsIn } from './registration-reader.js';
import { type RegistrationsManifest, registrationsManifest, suiteRegistrations } from './registrations.js';

const suitesDir = fileURLToPath(new URL('../..', import.meta.url));

describe('the registration reader', () => {
  test('reads each check() call: ids, title, concern, file and line', () => {
    const source = "import { check } from './harness/check.js';\n\ncheck(['A-B', 'C-D'], 't', f);\ncheck([\n  'E-F',\n], \"u\", g);";
    expect(registrationsIn('suites/x.check.ts', source)).toEqual([
      { requirements: ['A-B', 'C-D'], title: 't', concern: 'x', file: 'suites/x.check.ts', line: 3 },
      { requirements: ['E-F'], title: 'u', concern: 'x', file: 'suites/x.check.ts', line: 4 },
    ]);
  });

  test("resolves spreads of the same file's constants, declared before or after, as const or not", () => {
    const source = [
      "const IDS = ['B-ONE', 'B-TWO'] as const;",
      "check(['A-ONE', ...IDS, ...LATER], 'title', async () => {});",
      "check([...NOWHERE], 'other', async () => {});",
      "const LATER = ['C-ONE', ...IDS];",
    ].join('\n');
    expect(registrationsIn('suites/x.check.ts', source).map((r) => r.requirements)).toEqual([
      ['A-ONE', 'B-ONE', 'B-TWO', 'C-ONE', 'B-ONE', 'B-TWO'],
      ['<unknown constant NOWHERE>'],
    ]);
  });

  test('keeps a template title as written, and finds registrations inside loops and blocks', () => {
    const source = "for (const m of ms) {\n  if (m.x) {\n    check([\n      'A-B',\n    ], `refused: ${m.name} leaves no trace`, (c) => run(c, m));\n  }\n}";
    expect(registrationsIn('suites/refusals.check.ts', source)).toEqual([
      { requirements: ['A-B'], title: 'refused: ${m.name} leaves no trace', concern: 'refusals', file: 'suites/refusals.check.ts', line: 3 },
    ]);
    expect(idListsIn('suites/refusals.check.ts', source)).toEqual(["\n      'A-B',\n    "]);
  });

  test("fills in the parts of a template title the file fixes, a constant object's texts", () => {
    const source =
      "const why = { 'no-key': 'sent without Authorization' } as const;\nfor (const m of ms) check(['A-B'], `refused: ${m.name} ${why['no-key']} leaves no trace`, f);";
    expect(registrationsIn('suites/refusals.check.ts', source)[0]?.title).toBe('refused: ${m.name} sent without Authorization leaves no trace');
  });

  test('an id list element that is not a string or a spread of a constant is named as such', () => {
    expect(registrationsIn('suites/x.check.ts', "check([id()], 't', f);")[0]?.requirements).toEqual(['<not an id: id()>']);
  });
});

describe('the registrations manifest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'registrations-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('as the build writes it, it holds what the reader reads', async () => {
    const manifest = JSON.parse(await registrationsManifest(suitesDir)) as RegistrationsManifest;
    expect(Object.keys(manifest.files).length).toBeGreaterThanOrEqual(12);
    expect(manifest.registrations).toEqual(await suiteRegistrations(suitesDir, join(dir, 'none.json')));
  });

  test('is read while every suite file is as it was read, and passed over once one changed', async () => {
    const manifest = JSON.parse(await registrationsManifest(suitesDir)) as RegistrationsManifest;
    const marked = { ...manifest, registrations: manifest.registrations.map((r) => ({ ...r, title: `${r.title} (from the manifest)` })) };
    const path = join(dir, 'registrations.json');
    writeFileSync(path, JSON.stringify(marked));
    expect((await suiteRegistrations(suitesDir, path)).every((r) => r.title.endsWith('(from the manifest)'))).toBe(true);
    const [first] = Object.keys(manifest.files);
    writeFileSync(path, JSON.stringify({ ...marked, files: { ...marked.files, [first!]: 'an older hash' } }));
    expect(await suiteRegistrations(suitesDir, path)).toEqual(manifest.registrations);
  });
});
