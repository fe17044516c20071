import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { deviationFigure, figure1c, figure4, figure5, quantile } from './figures.ts';
import { PALETTE } from './figure-spec.ts';
import { SUMMARY } from './test-rows.ts';

describe('Figure 1(c) spec', () => {
  test('one point per (setting, model) with both PCC and accuracy from the default judge, in %', () => {
    const f = figure1c(SUMMARY);
    const [panel] = f.panels;
    assert.deepEqual(panel!.marks.map((m) => m.type), ['frame', 'dot']);
    const dots = panel!.marks[1]!;
    // GPT-5.4 has no PCC and simulated-oracle no accuracy: neither is plotted.
    assert.deepEqual(dots.data, [
      { setting: 'single-turn', model: 'Qwen3-8B', accuracy: 65, pcc: 44.61 },
      { setting: 'multi-turn', model: 'Qwen3-8B', accuracy: 28.73, pcc: 50 },
    ]);
    assert.deepEqual([dots.options.x, dots.options.y, dots.options.fx, dots.options.fill], ['accuracy', 'pcc', 'setting', 'model']);
    assert.deepEqual(panel!.plot.x, { domain: [0, 100], label: 'Outcome accuracy (%) →', grid: true });
    assert.deepEqual((panel!.plot.fx as { domain: string[] }).domain, ['single-turn', 'multi-turn']);
    assert.deepEqual(f.legend, { label: 'Model', domain: ['Qwen3-8B'], range: [PALETTE[0]] });
    assert.doesNotMatch(f.title, /simulated/, 'no simulated agent is shown');
    assert.match(f.title, /judge: gpt-5\.4-mini/);
  });

  test('a figure showing a simulated agent says so in its title', () => {
    const sim = SUMMARY.map((r) => ({ ...r, simulated: true, model: `simulated-${r.model}` }));
    assert.match(figure1c(sim).title, /— simulated agents$/);
  });
});

describe('Figure 4 spec', () => {
  const row = (judge: string, t: number, f1: number, over: object = {}) => ({ source: 'simulated-plan', simulated: true, setting: 'all', judge, model: null, t, f1, best_t: judge === 'simulated-tfidf' ? 0.5 : 0, best_f1: judge === 'simulated-tfidf' ? 0.9 : 0.8, ...over });
  const rows = [
    row('simulated-tfidf', 0, 0.7), row('simulated-tfidf', 0.5, 0.9), row('simulated-tfidf', 1, 0.1),
    row('simulated-token-f1', 1, 0.2), row('simulated-token-f1', 0, 0.8), row('simulated-token-f1', 0.5, 0.6),
    row('simulated-token-f1', 0, 0.3, { model: 'm' }), row('simulated-token-f1', 0, 0.3, { setting: 'single' }),
  ];

  test('pooled curves only (model null, setting all), one line per judge sorted by t, a dot at each judge\'s best threshold', () => {
    const f = figure4(rows);
    const [, line, dot] = f.panels[0]!.marks;
    assert.deepEqual(line!.data.map((d) => [d.judge, d.t, d.f1]), [
      ['simulated-token-f1', 0, 0.8], ['simulated-token-f1', 0.5, 0.6], ['simulated-token-f1', 1, 0.2],
      ['simulated-tfidf', 0, 0.7], ['simulated-tfidf', 0.5, 0.9], ['simulated-tfidf', 1, 0.1],
    ]);
    assert.deepEqual([line!.options.stroke, line!.options.z], ['judge', 'judge']);
    assert.deepEqual(dot!.data, [{ source: 'simulated-plan', judge: 'simulated-token-f1', t: 0, f1: 0.8 }, { source: 'simulated-plan', judge: 'simulated-tfidf', t: 0.5, f1: 0.9 }]);
    assert.deepEqual(f.legend!.domain, ['simulated-token-f1', 'simulated-tfidf']);
    assert.deepEqual((f.panels[0]!.plot.y as { domain: number[] }).domain, [0, 1]);
    assert.match(f.title, /labels from simulated agents/);
  });
});

describe('Figure 5 spec', () => {
  const cdps = [['test', 1], ['test', 2], ['test', 2], ['test', 10], ['non-test', 2], ['non-test', 3], ['non-test', 12]].map(([split, length], i) => ({ cdp_id: `c${i}`, split, length }));

  test('bars count CDPs per (split, length); they sum to the number of CDPs', () => {
    const f = figure5(cdps, [{ split: 'full', statistic: 'P95', value: 10.6 }]);
    const bars = f.panels[0]!.marks[0]!.data;
    assert.deepEqual(bars.map((b) => [b.split, b.length, b.count]), [['test', 1, 1], ['test', 2, 2], ['non-test', 2, 1], ['non-test', 3, 1], ['test', 10, 1], ['non-test', 12, 1]]);
    assert.equal(bars.reduce((s, b) => s + (b.count as number), 0), cdps.length);
    assert.deepEqual(f.legend!.domain, ['test', 'non-test']);
  });

  test('the inset shows lengths ≥ ⌈P95⌉ (from cdp_length_stats when present, else NumPy-style P95 of the lengths)', () => {
    const withStats = figure5(cdps, [{ split: 'full', statistic: 'P95', value: 10.6 }]);
    assert.equal(withStats.panels.length, 2);
    assert.equal(withStats.panels[1]!.boxed, true);
    assert.deepEqual(withStats.panels[1]!.marks[0]!.data.map((b) => b.length), [12]);
    assert.deepEqual((withStats.panels[1]!.plot.x as { domain: number[] }).domain, [10, 13]);
    // numpy.percentile([1, 2, 2, 2, 3, 10, 12], 95) = 11.4
    assert.ok(Math.abs(quantile([1, 2, 2, 2, 3, 10, 12], 0.95) - 11.4) < 1e-12);
    const computed = figure5(cdps);
    assert.deepEqual(computed.panels[1]!.marks[0]!.data.map((b) => b.length), [12]);
    assert.match(computed.caption, /lengths ≥ 12 \(⌈P95⌉ of the full set, P95 = 11\.4\)/);
    assert.deepEqual(figure5(cdps, [{ split: 'full', statistic: 'P95', value: 9.2 }]).panels[1]!.marks[0]!.data.map((b) => b.length), [10, 12]);
  });
});

describe('deviation profile spec', () => {
  test('per model and setting, deviations per case of each type, stacked in a fixed order', () => {
    const f = deviationFigure([
      { setting: 'single', model: 'simulated-omission-0.3', source: 'simulated-plan', cases: 40, omission: 46, redundancy: 0, skipping: 0, reversal: 0 },
      { setting: 'multi', model: 'simulated-oracle', source: 'simulated-plan', cases: 40, omission: 0, redundancy: 0, skipping: 0, reversal: 0 },
      { setting: 'multi', model: 'simulated-empty', source: 'simulated-plan', cases: 0, omission: 0, redundancy: 0, skipping: 0, reversal: 0 },
    ]);
    const bars = f.panels[0]!.marks[0]!;
    assert.equal(bars.type, 'barY');
    assert.equal(bars.data.length, 8, 'four types × two (setting, model) cells with cases');
    assert.deepEqual(bars.data.filter((d) => d.model === 'simulated-omission-0.3').map((d) => [d.type, d.per_case]), [['omission', 1.15], ['redundancy', 0], ['skipping', 0], ['reversal', 0]]);
    assert.deepEqual(f.legend!.domain, ['omission', 'redundancy', 'skipping', 'reversal']);
    assert.match(f.title, /simulated perturbation agents/);
  });
});
