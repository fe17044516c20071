import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import dagDefinition from '../../dag.config.ts';
import { builtConfig } from '../../pipeline/testing/config-stages.ts';
import { OT_DEFAULTS } from '../metrics/ot.ts';
import { clusterCiCell, fewClusters } from './cluster-ci.ts';
import { capSentence, cutoffSentence, openChoices, otChoiceText, type RunParams } from './open-choices.ts';

const dagConfig = builtConfig(dagDefinition, fileURLToPath(new URL('../..', import.meta.url)));
const declared = (name: string) => {
  const s = dagConfig.stages.find((x) => x.name === name);
  assert.ok(s, `dag.config.ts declares no stage ${name}`);
  return (s.params ?? {}) as Record<string, unknown>;
};

describe('open choices', () => {
  test('dag.config.ts: the report stages state exactly the λ, τ, cut-off and turn cap the computing stages use', () => {
    const used = openChoices({
      pathway_metrics: declared('pathway_metrics'),
      outcome_scores: declared('outcome_scores'),
      dialogues_multi: declared('dialogues_multi'),
    } as RunParams);
    for (const report of ['report_tables', 'report_scorecard']) {
      const stated = openChoices(declared(report).runParams as RunParams | undefined);
      const fix = 'give it param runParams with the params of pathway_metrics, outcome_scores and dialogues_multi';
      assert.deepEqual(stated, used, `${report} would print other values than the run uses; ${fix}`);
    }
  });

  test("defaults are the computing stages' own: λ = 0.1, τa = τb = 1, score ≥ 4, ceil(2 × length + 4)", () => {
    assert.deepEqual(openChoices(), { lambda: 0.1, tauA: 1, tauB: 1, cutoff: 4, capFactor: 2, capExtra: 4 });
    assert.equal(openChoices().lambda, OT_DEFAULTS.lambda);
    assert.deepEqual(openChoices({ pathway_metrics: { lambda: 1 }, outcome_scores: { cutoff: 5 } }), {
      lambda: 1,
      tauA: 1,
      tauB: 1,
      cutoff: 5,
      capFactor: 2,
      capExtra: 4,
    });
  });

  test('text: τ shown once when equal, both when not, ∞ for a balanced marginal', () => {
    assert.equal(otChoiceText(openChoices()), 'λ = 0.1, τa = τb = 1');
    assert.equal(otChoiceText(openChoices({ pathway_metrics: { tauA: 0.5, tauB: Infinity } })), 'λ = 0.1, τa = 0.5, τb = ∞');
    const cutoff = cutoffSentence(openChoices());
    assert.equal(cutoff, 'Outcome accuracy counts a judge score ≥ 4 (of 1–5) as correct; the paper states no cut-off.');
    const cap = capSentence(openChoices({ dialogues_multi: { capFactor: 1.5 } }));
    assert.match(cap, /^Multi-turn dialogues end unfinished after ceil\(1\.5 × length \+ 4\) doctor turns/);
  });

  test('bad values are refused, naming the param', () => {
    const lambda0 = /runParams\.pathway_metrics\.lambda must be a finite number > 0, got 0;/;
    assert.throws(() => openChoices({ pathway_metrics: { lambda: 0 } }), lambda0);
    assert.throws(() => openChoices({ pathway_metrics: { lambda: Infinity } }), /lambda must be a finite number > 0/);
    const tauB = /pathway_metrics\.tauB must be a number > 0 \(Infinity = balanced\), got -1/;
    assert.throws(() => openChoices({ pathway_metrics: { tauB: -1 } }), tauB);
    assert.throws(
      () => openChoices({ outcome_scores: { cutoff: '4' as unknown as number } }),
      /runParams\.outcome_scores\.cutoff must be a number, got "4"; pass the value the outcome_scores stage uses/,
    );
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
