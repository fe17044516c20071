import { test } from 'node:test';
import assert from 'node:assert/strict';
import { correlationTable } from './correlation-table.ts';
import { correlations } from './correlation.ts';
import { kendallW } from './kendall-w.ts';
import { createRng } from './rng.ts';

test('Table 2 layout: metric groups then judge groups, paper pair order, W on the first row', () => {
  const rng = createRng(3);
  const n = 200;
  const base = Float64Array.from({ length: n }, () => rng.nextFloat());
  const scores: Record<string, Record<string, Float64Array>> = {};
  for (const j of ['gpt', 'qwen', 'bert']) {
    scores[j] = {};
    for (const m of ['DTW', 'OT', 'LNDS']) {
      const sign = m === 'LNDS' ? -1 : 1; // PCS runs the other way
      scores[j]![m] = Float64Array.from(base, (x) => sign * x + 0.3 * rng.nextFloat());
    }
  }
  const rows = correlationTable(scores, {
    judges: ['gpt', 'qwen', 'bert'],
    metrics: ['DTW', 'OT', 'LNDS'],
    invert: ['LNDS'],
    labels: { gpt: 'GPT', qwen: 'Qwen', bert: 'BERT' },
  });
  assert.deepEqual(
    rows.map((r) => `${r.fixed}: ${r.pair}`),
    [
      'DTW: GPT vs Qwen',
      'DTW: BERT vs GPT',
      'DTW: Qwen vs BERT',
      'OT: GPT vs Qwen',
      'OT: BERT vs GPT',
      'OT: Qwen vs BERT',
      'LNDS: GPT vs Qwen',
      'LNDS: BERT vs GPT',
      'LNDS: Qwen vs BERT',
      'GPT: DTW vs OT',
      'GPT: LNDS vs DTW',
      'GPT: OT vs LNDS',
      'Qwen: DTW vs OT',
      'Qwen: LNDS vs DTW',
      'Qwen: OT vs LNDS',
      'BERT: DTW vs OT',
      'BERT: LNDS vs DTW',
      'BERT: OT vs LNDS',
    ],
  );
  assert.deepEqual(
    rows.map((r) => r.kendall_w === null),
    [false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true],
  );
  // Spot checks against direct calls; LNDS enters negated, so its correlations with DTW are positive.
  const lndsVsDtw = rows[10]!;
  const direct = correlations(
    Float64Array.from(scores.gpt!.LNDS!, (x) => -x),
    scores.gpt!.DTW!,
  );
  assert.equal(lndsVsDtw.pearson_r, direct.pearson);
  assert.equal(lndsVsDtw.kendall_tau, direct.kendallTauB);
  assert.ok(lndsVsDtw.spearman_rho > 0.5);
  assert.equal(rows[0]!.kendall_w, kendallW([scores.gpt!.DTW!, scores.qwen!.DTW!, scores.bert!.DTW!]));
  assert.equal(rows[0]!.n, n);
});

test('a missing judge × metric is named', () => {
  assert.throws(
    () => correlationTable({ a: { X: new Float64Array(3) } }, { judges: ['a', 'b'], metrics: ['X'] }),
    /no scores for judge b, metric X/,
  );
});
