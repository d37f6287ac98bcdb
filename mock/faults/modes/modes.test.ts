// The failure-mode catalog: every mode yields faults, every fault names known, testable
// requirements and a unique `mode:<category>:<mode>:<element>`, every category is present, and a
// mode fault starts like any other and changes what the mock answers.
import { describe, expect, it } from 'vitest';
import { isKnownRequirement, requirementById } from '../../../specs/requirements.js';
import { start } from '../../index.js';
import { elementsOf } from './elements.js';
import { CATEGORIES, modeFaults, MODES } from './index.js';

describe('the failure-mode catalog', () => {
  const faults = modeFaults();

  it('every mode yields at least one fault, and every category has modes', () => {
    const empty = MODES.filter((m) => !faults.some((f) => f.category === m.category && f.mode === m.mode)).map((m) => `${m.category}:${m.mode}`);
    expect(empty).toEqual([]);
    expect(CATEGORIES.filter((c) => !MODES.some((m) => m.category === c))).toEqual([]);
  });

  it('names are unique and shell-safe, each fault names known testable requirements', () => {
    expect(new Set(faults.map((f) => f.name)).size).toBe(faults.length);
    expect(faults.filter((f) => /\s/.test(f.name)).map((f) => f.name)).toEqual([]);
    const bad = faults.flatMap((f) =>
      f.requirements.length === 0
        ? [`${f.name}: none`]
        : f.requirements.filter((id) => !isKnownRequirement(id) || requirementById(id)!.level === 'not-testable').map((id) => `${f.name}: ${id}`)
    );
    expect(bad).toEqual([]);
  });

  it('every element kind the modes use is enumerated from the surface', () => {
    for (const m of MODES) expect(elementsOf(m.kind).length, m.kind).toBeGreaterThan(0);
  });

  it('a mode fault starts and changes an answer', async () => {
    const mock = await start({ fault: 'mode:requests:not-found-outside-envelope:getAssignment', seed: 1 });
    try {
      const res = await fetch(`${mock.url}/api/public/v1/assignments/00000000-0000-4000-8000-000000000000`, {
        headers: { authorization: `Bearer ${mock.settings.CONFORMANCE_API_KEY}` },
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    } finally {
      await mock.close();
    }
  });
});
