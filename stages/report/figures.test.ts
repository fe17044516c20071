import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { deviationFigure, figure1c, figure4, figure5, quantile } from './figures.ts';
import { PALETTE } from './figure-spec.ts';
import { figureFiles } from './figure-files.ts';
import { JUDGES, recorded, SUMMARY } from './testing/report-rows.ts';

describe('Figure 1(c) spec', () => {
  test('one point per (setting, model) with both PCC and accuracy from the default judge, in %, with CI whiskers', () => {
    const f = figure1c(SUMMARY, JUDGES);
    const [panel] = f.panels;
    assert.deepEqual(
      panel!.marks.map((m) => m.type),
      ['frame', 'ruleY', 'ruleX', 'dot', 'dot', 'text'],
    );
    const dots = panel!.marks[3]!;
    // GPT-5.4 has no PCC and simulated-oracle no accuracy: neither is plotted. Acc has no CI: its whisker is the point.
    assert.deepEqual(dots.data, [
      {
        setting: 'single-turn',
        model: 'Qwen3-8B',
        kind: 'real',
        accuracy: 65,
        pcc: 44.61,
        acc_low: 65,
        acc_high: 65,
        pcc_low: 44.07,
        pcc_high: 45.16,
      },
      {
        setting: 'multi-turn',
        model: 'Qwen3-8B',
        kind: 'real',
        accuracy: 28.73,
        pcc: 50,
        acc_low: 28.73,
        acc_high: 28.73,
        pcc_low: 45,
        pcc_high: 55,
      },
    ]);
    assert.deepEqual([dots.options.x, dots.options.y, dots.options.fx, dots.options.fill], ['accuracy', 'pcc', 'setting', 'model']);
    assert.deepEqual([panel!.marks[2]!.options.y1, panel!.marks[2]!.options.y2], ['pcc_low', 'pcc_high']);
    assert.deepEqual(panel!.marks[4]!.data, [], 'no simulated agent has both metrics here');
    assert.deepEqual(panel!.plot.x, { domain: [0, 100], label: 'Outcome accuracy (%) →', grid: true });
    assert.deepEqual((panel!.plot.fx as { domain: string[] }).domain, ['single-turn', 'multi-turn']);
    assert.deepEqual(f.legend, { label: 'Model', domain: ['Qwen3-8B'], range: [PALETTE[0]] });
    assert.doesNotMatch(f.title, /simulated/, 'no simulated agent is shown');
    assert.match(f.title, /judge: gpt-5\.4-mini/);
  });

  test('a figure showing a simulated agent says so in its title', () => {
    const sim = SUMMARY.map((r) => ({ ...r, simulated: true, model: `simulated-${r.model}` }));
    assert.match(figure1c(sim).title, /— simulated agents$/);
    // Simulated agents are hollow squares, real models filled circles.
    const mixed = figure1c([...SUMMARY, { ...SUMMARY[3]!, model: 'simulated-oracle', simulated: true, mean: 0.9 }]);
    const [, , , realDots, simDots] = mixed.panels[0]!.marks;
    assert.deepEqual(
      simDots!.data.map((d) => [d.model, d.kind, d.accuracy, d.pcc]),
      [['simulated-oracle', 'simulated', 90, 0]],
    );
    assert.deepEqual([simDots!.options.symbol, simDots!.options.fill, simDots!.options.stroke], ['square', 'white', 'model']);
    assert.ok(realDots!.data.every((d) => d.kind === 'real'));
  });
});

describe('Figure 4 spec', () => {
  const row = (judge: string, t: number, f1: number, over: object = {}) => ({
    source: 'simulated-plan',
    simulated: true,
    setting: 'all',
    judge,
    model: null,
    t,
    f1,
    best_t: judge === 'simulated-tfidf' ? 0.5 : 0,
    best_f1: judge === 'simulated-tfidf' ? 0.9 : 0.8,
    ...over,
  });
  const rows = [
    row('simulated-tfidf', 0, 0.7),
    row('simulated-tfidf', 0.5, 0.9),
    row('simulated-tfidf', 1, 0.1),
    row('simulated-token-f1', 1, 0.2),
    row('simulated-token-f1', 0, 0.8),
    row('simulated-token-f1', 0.5, 0.6),
    row('simulated-token-f1', 0, 0.3, { model: 'm' }),
    row('simulated-token-f1', 0, 0.3, { setting: 'single' }),
  ];

  test('one curve per model plus the pooled one (setting all), sorted by t, panels by judge; a dot at each pooled best threshold', () => {
    const f = figure4(rows, JUDGES);
    const [, perModel, pooled, dot] = f.panels[0]!.marks;
    assert.deepEqual(
      pooled!.data.map((d) => [d.judge, d.model, d.t, d.f1]),
      [
        ['simulated-token-f1', 'pooled', 0, 0.8],
        ['simulated-token-f1', 'pooled', 0.5, 0.6],
        ['simulated-token-f1', 'pooled', 1, 0.2],
        ['simulated-tfidf', 'pooled', 0, 0.7],
        ['simulated-tfidf', 'pooled', 0.5, 0.9],
        ['simulated-tfidf', 'pooled', 1, 0.1],
      ].filter(([j]) => j === 'simulated-token-f1'),
      'one similarity judge by default',
    );
    assert.deepEqual(
      perModel!.data.map((d) => [d.judge, d.model, d.t, d.f1]),
      [['simulated-token-f1', 'm', 0, 0.3]],
      'the single-setting row is left out',
    );
    assert.deepEqual([perModel!.options.stroke, perModel!.options.z, perModel!.options.fx], ['model', 'model', 'judge']);
    assert.ok((pooled!.options.strokeWidth as number) > (perModel!.options.strokeWidth as number));
    assert.deepEqual(dot!.data, [{ source: 'simulated-plan', judge: 'simulated-token-f1', t: 0, f1: 0.8 }]);
    assert.deepEqual(f.legend!.domain, ['m', 'pooled']);
    assert.equal(f.legend!.range.at(-1), '#000000');
    assert.deepEqual((f.panels[0]!.plot.y as { domain: number[] }).domain, [0, 1]);
    assert.match(f.title, /labels from simulated agents/);
    // With an LLM judge in the run, it is shown beside the one similarity judge.
    const withLlm = figure4([...rows, row('gpt-5.4-mini', 0, 0.5), row('gpt-5.4-mini', 0, 0.4, { model: 'm' })], JUDGES);
    assert.deepEqual((withLlm.panels[0]!.plot.fx as { domain: string[] }).domain, ['gpt-5.4-mini', 'simulated-token-f1']);
  });
});

describe('Figure 5 spec', () => {
  const cdps = [
    ['test', 1],
    ['test', 2],
    ['test', 2],
    ['test', 10],
    ['non-test', 2],
    ['non-test', 3],
    ['non-test', 12],
  ].map(([split, length], i) => ({ cdp_id: `c${i}`, split, length }));

  test('bars count CDPs per (split, length); they sum to the number of CDPs', () => {
    const f = figure5(cdps, [{ split: 'full', statistic: 'P95', value: 10.6 }]);
    const bars = f.panels[0]!.marks[0]!.data;
    assert.deepEqual(
      bars.map((b) => [b.split, b.length, b.count]),
      [
        ['test', 1, 1],
        ['test', 2, 2],
        ['non-test', 2, 1],
        ['non-test', 3, 1],
        ['test', 10, 1],
        ['non-test', 12, 1],
      ],
    );
    assert.equal(
      bars.reduce((s, b) => s + (b.count as number), 0),
      cdps.length,
    );
    assert.deepEqual(f.legend!.domain, ['test', 'non-test']);
  });

  test('the inset shows lengths ≥ ⌈P95⌉ (from cdp_length_stats when present, else NumPy-style P95 of the lengths)', () => {
    const withStats = figure5(cdps, [{ split: 'full', statistic: 'P95', value: 10.6 }]);
    assert.equal(withStats.panels.length, 2);
    assert.equal(withStats.panels[1]!.boxed, true);
    assert.deepEqual(
      withStats.panels[1]!.marks[0]!.data.map((b) => b.length),
      [12],
    );
    assert.deepEqual((withStats.panels[1]!.plot.x as { domain: number[] }).domain, [10, 13]);
    // numpy.percentile([1, 2, 2, 2, 3, 10, 12], 95) = 11.4
    assert.ok(Math.abs(quantile([1, 2, 2, 2, 3, 10, 12], 0.95) - 11.4) < 1e-12);
    const computed = figure5(cdps);
    assert.deepEqual(
      computed.panels[1]!.marks[0]!.data.map((b) => b.length),
      [12],
    );
    assert.match(computed.caption, /lengths ≥ 12 \(⌈P95⌉ of the full set, P95 = 11\.4\)/);
    assert.deepEqual(
      figure5(cdps, [{ split: 'full', statistic: 'P95', value: 9.2 }]).panels[1]!.marks[0]!.data.map((b) => b.length),
      [10, 12],
    );
  });
});

describe('deviation profile spec', () => {
  test('per model and setting, deviations per case of each type, stacked in a fixed order', () => {
    const f = deviationFigure([
      {
        setting: 'single',
        model: 'simulated-omission-0.3',
        source: 'simulated-plan',
        cases: 40,
        omission: 46,
        redundancy: 0,
        skipping: 0,
        reversal: 0,
      },
      {
        setting: 'multi',
        model: 'simulated-oracle',
        source: 'simulated-plan',
        cases: 40,
        omission: 0,
        redundancy: 0,
        skipping: 0,
        reversal: 0,
      },
      {
        setting: 'multi',
        model: 'simulated-empty',
        source: 'simulated-plan',
        cases: 0,
        omission: 0,
        redundancy: 0,
        skipping: 0,
        reversal: 0,
      },
    ]);
    const bars = f.panels[0]!.marks[0]!;
    assert.equal(bars.type, 'barY');
    assert.equal(bars.data.length, 8, 'four types × two (setting, model) cells with cases');
    assert.deepEqual(
      bars.data.filter((d) => d.model === 'simulated-omission-0.3').map((d) => [d.type, d.per_case]),
      [
        ['omission', 1.15],
        ['redundancy', 0],
        ['skipping', 0],
        ['reversal', 0],
      ],
    );
    assert.deepEqual(f.legend!.domain, ['omission', 'redundancy', 'skipping', 'reversal']);
    assert.match(f.title, /simulated perturbation agents/);
  });
});

describe('figures with nothing to show', () => {
  test('no ground truth (a run of real models only): Figure 4 and the deviation profile are absent with the reason, and no file is written', () => {
    const f4 = figure4([]);
    assert.match(f4.absent ?? '', /^no ground truth in this run: threshold_analysis has no rows/);
    const dev = deviationFigure([]);
    assert.match(dev.absent ?? '', /^no ground truth in this run: deviation_profile has no rows/);
    const files = figureFiles([f4, dev]);
    assert.deepEqual(
      files.map((f) => [f.path, f.content, f.absent === f4.absent || f.absent === dev.absent]),
      [
        ['figures/figure4_threshold_f1.svg', null, true],
        ['figures/figure4_threshold_f1.png', null, true],
        ['figures/figure4_threshold_f1.vl.json', null, true],
        ['figures/figure_deviation_profile.svg', null, true],
        ['figures/figure_deviation_profile.png', null, true],
        ['figures/figure_deviation_profile.vl.json', null, true],
      ],
    );
    assert.equal(figure1c([]).absent?.startsWith('no model has both a DTW-PCC and an outcome accuracy'), true);
    assert.equal(figure1c(SUMMARY).absent, undefined, 'a figure with points is drawn');
  });

  test('Figure 1(c) states the CI its rows recorded', () => {
    assert.match(
      figure1c(SUMMARY, [], recorded({ model_summary: [{ resamples: 300, seed: 1, level: 0.8 }] })).caption,
      /Whiskers on both: the 80% case-bootstrap CI, 300 resamples, seed 1\. /,
    );
  });
});
