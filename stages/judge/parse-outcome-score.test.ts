import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOutcomeScore } from './parse-outcome-score.ts';

test('accepted answers: the score read from its position and the format recorded', () => {
  const rows: Array<{ input: string; score: number; format: string; finishReason?: string }> = [
    { input: '4', score: 4, format: 'strict' },
    { input: '1', score: 1, format: 'strict' },
    { input: '5\n', score: 5, format: 'strict' },
    { input: '3', score: 3, format: 'strict', finishReason: 'stop' },
    { input: 'Score: 4', score: 4, format: 'score-label' },
    { input: '**3**', score: 3, format: 'bold-marker' },
    { input: '**Score:** 4', score: 4, format: 'bold-marker+score-label' },
    { input: '4/5', score: 4, format: 'scale-echo' },
    { input: '2 / 5', score: 2, format: 'scale-echo' },
    { input: '4 out of 5', score: 4, format: 'scale-echo' },
    { input: 'Consistency (1–5): 5', score: 5, format: 'scale-echo+score-label' },
    { input: 'Score (1-5): 2', score: 2, format: 'scale-echo+score-label' },
    {
      input: '<think>The candidate names the same diagnosis but omits the severity, so 4 or 5? I will say 4.</think>\n4',
      score: 4,
      format: 'think-block',
    },
    { input: '```\n4\n```', score: 4, format: 'fence' },
    { input: '４', score: 4, format: 'full-width' },
    { input: '4\n\nScore: 4', score: 4, format: 'score-label' },
    { input: '`3`', score: 3, format: 'bold-marker' },
    { input: '评分：3', score: 3, format: 'chinese-marker+score-label' },
    { input: '评分：4分', score: 4, format: 'chinese-marker+score-label+trailing-note' },
    // Read as "several different numbers (4, 2)" before: the explanation after the score is a note.
    { input: '4\n\nThe candidate omits 2 key elements.', score: 4, format: 'trailing-note' },
    { input: 'Score: 4. The candidate misses 2 criteria.', score: 4, format: 'score-label+trailing-note' },
    { input: 'Rating: 4/5. The candidate omits 1 of the 3 criteria.', score: 4, format: 'scale-echo+score-label+trailing-note' },
    { input: 'Sure! Here is my rating:\n\n3', score: 3, format: 'preamble' },
    { input: 'I would rate this a 4.', score: 4, format: 'preamble' },
  ];
  for (const row of rows) {
    assert.deepEqual(parseOutcomeScore(row.input, row.finishReason), { ok: true, score: row.score, format: row.format }, row.input);
  }
});

test('faults say why and what to output', () => {
  const rows: Array<{ input: string; reason: RegExp; finishReason?: string }> = [
    { input: '', reason: /^the answer is empty; output a single integer 1–5$/ },
    { input: '<think>Comparing the two conclusions', reason: /only reasoning/ },
    { input: '4', finishReason: 'length', reason: /^truncated answer \(finish_reason: length\)/ },
    { input: 'The conclusions are consistent.', reason: /no score/ },
    { input: '3 or 4', reason: /several different numbers \(3, 4\)/ },
    { input: 'Score: 3\nScore: 4', reason: /several different scores \(3, 4\)/ },
    { input: '4.5', reason: /4\.5 is not an integer score \(half points are not on the scale\)/ },
    { input: 'Score: 3.5', reason: /3\.5 is not an integer score/ },
    { input: '7', reason: /score 7 is not in 1–5/ },
    { input: '0', reason: /score 0 is not in 1–5/ },
    { input: '10/10', reason: /score 10 is not in 1–5/ },
  ];
  for (const row of rows) {
    const r = parseOutcomeScore(row.input, row.finishReason);
    assert.equal(r.ok, false, row.input);
    assert.match(r.ok ? '' : r.reason, row.reason, row.input);
  }
});
