// The score of the document diff on edits it was not designed from (fixtures/document/held-out.json).
import { expect, it } from 'vitest';
import { heldOutCases, scoreCase } from './held-out.js';

it('held-out edits: the verdict and the required bump are right for at least 19 of 20, none passed as wording', () => {
  const scores = heldOutCases.map(scoreCase);
  const wrong = scores.filter((s) => !s.verdict || !s.bump).map((s) => `${s.name}: got ok=${s.got.ok} required=${s.got.required}`);
  const verdicts = scores.filter((s) => s.verdict).length;
  const bumps = scores.filter((s) => s.bump).length;
  console.log(`held-out: ${verdicts}/${scores.length} verdicts, ${bumps}/${scores.length} bumps right${wrong.length ? `\n  ${wrong.join('\n  ')}` : ''}`);
  expect(scores.filter((s) => s.passedAsWording).map((s) => s.name)).toEqual([]);
  expect(scores.filter((s) => s.verdict && s.bump).length).toBeGreaterThanOrEqual(19);
});
