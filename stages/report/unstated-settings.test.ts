import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import dagDefinition from '../../dag.config.ts';
import { builtConfig } from '../../pipeline/testing/config-stages.ts';
import { clusterCiCell, fewClusters } from './cluster-ci.ts';
import { capSentence, cutoffSentence, unstatedSettings, otChoiceText, otSentence } from './unstated-settings.ts';
import { collectSettings, RunSettings, settingText, valuesText } from './run-settings.ts';
import { recorded } from './testing/report-rows.ts';

const dagConfig = builtConfig(dagDefinition, fileURLToPath(new URL('../..', import.meta.url)));

describe('open choices, read from the rows that used them', () => {
  test('dag.config.ts: every report stage reads the settings from run_settings, which reads every stage that records one; no report param holds a setting', () => {
    const stage = (name: string) => {
      const s = dagConfig.stages.find((x) => x.name === name);
      assert.ok(s, `dag.config.ts declares no stage ${name}`);
      return s;
    };
    for (const report of ['report_tables', 'report_figures', 'report_leaderboard', 'report_scorecard', 'report_index']) {
      assert.equal(stage(report).inputs?.run_settings, 'run_settings', `${report} reads run_settings`);
      const params = Object.keys(stage(report).params ?? {});
      for (const p of ['runParams', 'resamples', 'seed', 'level', 'lambda', 'cutoff'])
        assert.ok(!params.includes(p), `${report} takes ${p} as a param`);
    }
    const sources = stage('run_settings').inputs ?? {};
    for (const s of ['cdps', 'dialogues_multi', 'step_scores', 'outcome_scores', 'pathway_metrics', 'model_summary'])
      assert.equal(sources[s], s, `run_settings reads ${s}`);
  });

  test('the values recorded, as the sample records them: λ = 0.1, τa = τb = 1, score ≥ 4, ceil(2 × length + 4)', () => {
    const c = unstatedSettings(recorded());
    assert.deepEqual(c, { lambda: ['0.1'], tauA: ['1'], tauB: ['1'], cutoff: ['4'], capFactor: ['2'], capExtra: ['4'] });
    assert.equal(otChoiceText(c), 'λ = 0.1, τa = τb = 1');
    assert.equal(cutoffSentence(c), 'Outcome accuracy counts a judge score ≥ 4 (of 1–5) as correct; the paper states no cut-off.');
    assert.match(capSentence(c), /^Multi-turn dialogues end unfinished after ceil\(2 × length \+ 4\) doctor turns/);
  });

  test('other values are printed as recorded; τ apart when they differ', () => {
    const c = unstatedSettings(
      recorded({
        pathway_metrics: [{ judge: 'j', ot_lambda: 0.5, ot_tau_a: 0.5, ot_tau_b: 2 }],
        outcome_scores: [{ cutoff: 3 }],
        dialogues_multi: [{ cap_factor: 1.5, cap_extra: 3 }],
      }),
    );
    assert.equal(otChoiceText(c), 'λ = 0.5, τa = 0.5, τb = 2');
    assert.match(cutoffSentence(c), /score ≥ 3 \(of 1–5\)/);
    assert.match(capSentence(c), /after ceil\(1\.5 × length \+ 3\) doctor turns/);
  });

  test('rows holding more than one value are printed as mixed, most rows first', () => {
    const rows = [
      ...Array.from({ length: 3 }, () => ({ judge: 'j', ot_lambda: 0.5, ot_tau_a: 1, ot_tau_b: 1 })),
      { judge: 'j', ot_lambda: 0.1, ot_tau_a: 1, ot_tau_b: 1 },
    ];
    const c = unstatedSettings(recorded({ pathway_metrics: rows, outcome_scores: [{ cutoff: 4 }, { cutoff: 3 }] }));
    assert.equal(otChoiceText(c), 'λ: 0.5 and 0.1 (mixed), τa = τb = 1');
    assert.equal(
      cutoffSentence(c),
      "Outcome accuracy counts a judge score ≥ the row's cut-off, 3 and 4 (mixed) (of 1–5) as correct; the paper states no cut-off.",
    );
    assert.equal(valuesText(['1', '2', '3']), '1, 2 and 3 (mixed)');
    assert.equal(settingText('λ', []), 'λ: not recorded');
  });

  test('a run whose rows record nothing says so rather than printing a default', () => {
    const c = unstatedSettings(new RunSettings([]));
    assert.equal(otSentence(c), 'OT-PCC: no pathway_metrics row records λ or τ (no pathway was scored); the paper gives neither.');
    assert.equal(otChoiceText(c), 'λ: not recorded, τa: not recorded, τb: not recorded');
    assert.match(cutoffSentence(c), /no outcome_scores row records a cut-off/);
    assert.match(capSentence(c), /no dialogues_multi row records one/);
  });

  test('collectSettings: one row per distinct value with its row count; per-judge settings per judge; nulls skipped', () => {
    const rows = collectSettings({
      step_scores: [
        { judge: 'b', runs: 5 },
        { judge: 'a', runs: 5 },
        { judge: 'a', runs: 5 },
        { judge: 'a', runs: null },
      ],
      outcome_scores: [{ cutoff: 4 }, { cutoff: 4 }, {}],
    });
    assert.deepEqual(rows, [
      { stage: 'step_scores', setting: 'runs', judge: 'a', value: '5', rows: 2 },
      { stage: 'step_scores', setting: 'runs', judge: 'b', value: '5', rows: 1 },
      { stage: 'outcome_scores', setting: 'cutoff', judge: null, value: '4', rows: 2 },
    ]);
  });
});

describe('cluster CI cells', () => {
  test('marked with † and the number of guidelines below 10; "—" when undefined', () => {
    assert.equal(clusterCiCell(0.43, 0.46, 3), '(43.00–46.00) † 3 guidelines');
    assert.equal(clusterCiCell(0.43, 0.46, 9), '(43.00–46.00) † 9 guidelines');
    assert.equal(clusterCiCell(0.43, 0.46, 10), '(43.00–46.00)');
    assert.equal(clusterCiCell(null, null, 1), '—', 'one guideline: no CI, nothing to mark');
    assert.equal(clusterCiCell(0.43, 0.46, null), '(43.00–46.00)', 'unknown count: not claimed unreliable');
    assert.deepEqual([fewClusters(9), fewClusters(10), fewClusters(null)], [true, false, false]);
  });
});
