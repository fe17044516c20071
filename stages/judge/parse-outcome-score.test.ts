import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOutcomeScore } from './parse-outcome-score.ts';

test('a single integer 1–5, however it is dressed', () => {
  const cases: Array<[string, number]> = [
    ['4', 4],
    ['1', 1],
    ['5\n', 5],
    ['Score: 4', 4],
    ['**3**', 3],
    ['4/5', 4],
    ['2 / 5', 2],
    ['4 out of 5', 4],
    ['Consistency (1–5): 5', 5],
    ['Score (1-5): 2', 2],
    ['<think>The candidate names the same diagnosis but omits the severity, so 4 or 5? I will say 4.</think>\n4', 4],
    ['４', 4],
    ['4\n\nScore: 4', 4],
    ['`3`', 3],
    ['评分：3', 3],
  ];
  for (const [raw, score] of cases) assert.deepEqual(parseOutcomeScore(raw), { ok: true, score }, raw);
});

test('invalid answers say why', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /empty/],
    ['<think>Comparing the two conclusions', /empty/],
    ['The conclusions are consistent.', /no score/],
    ['3 or 4', /several different numbers \(3, 4\)/],
    ['Score: 4. The candidate misses 2 criteria.', /several different numbers \(4, 2\)/],
    ['4.5', /4\.5 is not an integer/],
    ['7', /score 7 is not in 1–5/],
    ['0', /score 0 is not in 1–5/],
    ['10/10', /score 10 is not in 1–5/],
  ];
  for (const [raw, reason] of cases) {
    const r = parseOutcomeScore(raw);
    assert.equal(r.ok, false, raw);
    assert.match(r.ok ? '' : r.reason, reason, raw);
  }
});
