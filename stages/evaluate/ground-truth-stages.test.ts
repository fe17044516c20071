import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { buildFixture, HTN_TREE } from '../agents/testing/benchmark-cases.ts';
import { planCase } from '../agents/perturbation-agent.ts';
import { profileFromName } from '../agents/perturbation-profile.ts';
import thresholdStage from './threshold-analysis.stage.ts';
import thresholdLabelsStage from './threshold-labels.stage.ts';
import preferenceStage from './preference-agreement.stage.ts';
import simulatedPreferencesStage, { simulatedPreferenceRows } from './simulated-preferences.stage.ts';
import deviationStage from './deviation-profile.stage.ts';
import trueDeviationsStage from './true-deviations.stage.ts';
import { labelsFromMapping } from './threshold-labels.ts';
import { noisyChoice, trueChoice } from './simulated-preferences.ts';
import { cdpRow, fakeCtx, planPathway, runTable, treeRow } from './testing/stage-harness.ts';
import agentPlansStage, { agentPlanRows } from '../agents/agent-plans.stage.ts';
import type { Row } from '../../pipeline/stage.ts';

const fx = buildFixture();
const cdp = fx.htn.find((c) => c.steps.length === 3)!;
const cdps = [cdpRow(cdp)];
const trees = [treeRow('htn', HTN_TREE)];
const OMIT = 'simulated-omission-1',
  ORACLE = 'simulated-oracle',
  REDUNDANT = 'simulated-redundancy-1';
// Ground truth as the agent_plans stage writes it; a real model in the list gets no plan.
const agent_plans = agentPlanRows([OMIT, ORACLE, REDUNDANT, 'real-model'], cdps, trees);

test('agent_plans as the runner runs it, one unit per case × model: the same rows; a failed case and a real model get none', async () => {
  const failed = { cdp_id: 'broken', guideline_id: 'htn', error: 'upstream: no tree' };
  const models = [OMIT, ORACLE, REDUNDANT, 'real-model'].sort();
  const rows: Row[] = [];
  for (const model of models)
    for (const row of [...cdps, failed]) {
      const got = await agentPlansStage.run({ row, cross: model, joined: { trees }, whole: {} }, fakeCtx({ models }));
      rows.push(...(Array.isArray(got) ? got : [got]));
    }
  assert.equal(agentPlansStage.seesFailedRows, true, 'a failed case is mapped by the stage: no plan, no failure row');
  assert.deepEqual(rows, agent_plans);
  assert.equal(rows.length, 3);
});

test('agent_plans: one row per perturbation agent × case, with the true mapping and its deviation counts', () => {
  assert.deepEqual(
    agent_plans.map((r) => r.model),
    [OMIT, REDUNDANT, ORACLE].sort(),
    'real models have no plan',
  );
  const omit = agent_plans.find((r) => r.model === OMIT)!;
  assert.deepEqual(
    [omit.mapping, omit.m, omit.omission, omit.redundancy, omit.skipping, omit.reversal, omit.wrong_outcome],
    [[1], 3, 2, 0, 0, 0, false],
  );
  assert.deepEqual(omit.steps, [cdp.steps[1]!.condition]);
  const red = agent_plans.find((r) => r.model === REDUNDANT)!;
  assert.deepEqual([red.mapping, red.redundancy, (red.questions as string[]).length], [[0, null, 1, null, 2, null], 3, 6]);
  assert.equal(red.conclusion, cdp.conclusion);
});

test('the fixture plans are what the hand analysis below assumes', () => {
  assert.deepEqual(
    planCase(profileFromName(OMIT), cdp, HTN_TREE).mapping,
    [1],
    'rate 1 omits steps 0 and 2 (each with kept neighbours), never both neighbours of one',
  );
  assert.deepEqual(planCase(profileFromName(ORACLE), cdp, HTN_TREE).mapping, [0, 1, 2]);
  assert.deepEqual(planCase(profileFromName(REDUNDANT), cdp, HTN_TREE).mapping, [0, null, 1, null, 2, null]);
});

describe('threshold labels', () => {
  test('a reference step’s best match is correct iff the true mapping says so (ties to the first predicted step)', () => {
    const C = [
      [0.9, 0.2, 0.1],
      [0.1, 0.3, 0.8],
      [0.4, 0.4, 0.2],
    ];
    assert.deepEqual(labelsFromMapping(C, [0, null, 1]), [
      { reference_step: 0, best_candidate: 0, score: 0.9, correct: true },
      { reference_step: 1, best_candidate: 2, score: 0.8, correct: true },
      { reference_step: 2, best_candidate: 0, score: 0.4, correct: false },
    ]);
    assert.deepEqual(labelsFromMapping([[], []], []), []);
  });

  test('threshold_analysis: hand-computed F1 curve, best threshold and stable region from two agents’ plans', async () => {
    const score = (model: string, C: number[][], over: object = {}) => ({
      setting: 'single',
      model,
      cdp_id: cdp.cdp_id,
      judge: 'j',
      C,
      m: C.length,
      n: C[0]!.length,
      ...over,
    });
    const step_scores = [
      score(ORACLE, [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ]),
      score(OMIT, [[0.2], [0.9], [0.1]]),
      score('real-model', [[1], [1], [1]]),
      score(
        ORACLE,
        [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        { setting: 'multi' },
      ),
    ];
    const predicted_pathways = [
      planPathway(ORACLE, cdp, HTN_TREE, 'single'),
      planPathway(OMIT, cdp, HTN_TREE, 'single'),
      { ...planPathway(ORACLE, cdp, HTN_TREE, 'multi'), candidate: ['Asked something else?', 'b', 'c'] },
    ];
    // threshold_labels as the runner runs it: one unit, the case, joined to its scores, pathways and plans.
    const unit = { row: cdps[0]!, joined: { step_scores, predicted_pathways, agent_plans }, whole: {} };
    const threshold_labels = (await thresholdLabelsStage.run(unit, fakeCtx({}))) as Row[];
    assert.deepEqual(
      threshold_labels.map((r) => [r.setting, r.model, r.scores, r.correct, r.left_out, r.simulated]),
      [
        ['single', ORACLE, [1, 1, 1], [true, true, true], null, true],
        // Omission agent, plan [1]: row 0's best is 0.2 (wrong), row 1's 0.9 (correct), row 2's 0.1 (wrong).
        ['single', OMIT, [0.2, 0.9, 0.1], [false, true, false], null, true],
        ['single', 'real-model', null, null, 'no ground truth (not a perturbation agent, or case unknown)', true],
        ['multi', ORACLE, null, null, 'pathway differs from the plan', true],
      ],
    );
    const failedScores = [
      { ...step_scores[0]!, error: 'judge: no answer', C: null },
      { ...step_scores[1]!, n: 0, C: [] },
    ];
    assert.deepEqual(
      ((await thresholdLabelsStage.run({ ...unit, joined: { ...unit.joined, step_scores: failedScores } }, fakeCtx({}))) as Row[]).map(
        (r) => r.left_out,
      ),
      ['failure row', 'empty pathway'],
    );
    assert.deepEqual(await thresholdLabelsStage.run({ ...unit, row: { ...cdps[0]!, error: 'upstream: no vignette' } }, fakeCtx({})), []);
    const logs: string[] = [];
    const rows = await runTable(thresholdStage, { threshold_labels }, {}, logs);
    assert.deepEqual(await runTable(thresholdStage, { threshold_labels: [...threshold_labels].reverse() }, {}), rows, 'order-free');
    assert.ok(rows.every((r) => r.source === 'simulated-plan' && r.simulated === true));
    const curve = rows.filter((r) => r.setting === 'all' && r.model === null);
    assert.equal(curve.length, 21, 'grid 0, 0.05, …, 1');
    const f1 = (t: number) => curve.find((r) => Math.abs((r.t as number) - t) < 1e-9)!.f1 as number;
    // Labels: oracle 3 × (1, correct); omission (0.2, wrong), (0.9, correct), (0.1, wrong).
    assert.ok(Math.abs(f1(0.1) - 8 / 10) < 1e-12);
    assert.ok(Math.abs(f1(0.15) - 8 / 9) < 1e-12);
    assert.equal(f1(0.25), 1);
    assert.equal(f1(0.9), 1);
    assert.ok(Math.abs(f1(0.95) - 6 / 7) < 1e-12);
    assert.deepEqual(
      [curve[0]!.n, curve[0]!.positives, curve[0]!.best_t, curve[0]!.best_f1, curve[0]!.stable_low, curve[0]!.stable_high],
      [6, 4, 0.25, 1, 0.25, 0.9],
    );
    // Per model: the oracle is perfect everywhere (best at 0); the omission agent's region is 0.25–0.9; common = their overlap.
    assert.deepEqual([curve[0]!.common_low, curve[0]!.common_high], [0.25, 0.9]);
    assert.deepEqual([...new Set(rows.map((r) => `${r.setting}/${r.model}`))].sort(), [
      'all/null',
      `all/${OMIT}`,
      `all/${ORACLE}`,
      'single/null',
      `single/${OMIT}`,
      `single/${ORACLE}`,
    ]);
    assert.ok(logs.some((l) => /1 pathway\(s\) left out: no ground truth/.test(l)));
    assert.ok(logs.some((l) => /1 pathway\(s\) left out: pathway differs from the plan/.test(l)));
  });
});

describe('simulated preferences', () => {
  test('the true choice prefers fewer deviations; noisy raters are deterministic and flip at the noise rate', () => {
    assert.deepEqual([trueChoice(0, 2), trueChoice(3, 2), trueChoice(1, 1)], ['A', 'B', 'tie']);
    assert.equal(noisyChoice('A', 0, 42, 'p', 'r'), 'A');
    for (let k = 0; k < 20; k++) assert.notEqual(noisyChoice('A', 1, 42, `p${k}`, 'r'), 'A');
    assert.equal(noisyChoice('B', 0.5, 42, 'p1', 'r1'), noisyChoice('B', 0.5, 42, 'p1', 'r1'));
    const flips = Array.from({ length: 2000 }, (_, k) => noisyChoice('tie', 0.1, 7, `pair${k}`, 'r')).filter((c) => c !== 'tie').length;
    assert.ok(flips > 140 && flips < 260, `≈ 200 of 2000 flipped, got ${flips}`);
  });

  test('simulated_preferences: one row per pair of agents whose pathways are their plans, true choice from the deviation counts', async () => {
    const predicted_pathways = [
      ...[OMIT, ORACLE, REDUNDANT].map((m) => planPathway(m, cdp, HTN_TREE, 'single')),
      // Not the plan (a step dropped): no ground truth, so in no pair.
      { ...planPathway(REDUNDANT, cdp, HTN_TREE, 'multi'), candidate: [] },
      { ...planPathway(ORACLE, cdp, HTN_TREE, 'multi'), model: 'real-model' },
    ];
    const unit = { row: cdps[0]!, joined: { predicted_pathways, agent_plans }, whole: {} };
    const rows = (await simulatedPreferencesStage.run(unit, fakeCtx({ raterNoise: 0, seed: 42 }))) as Row[];
    // True deviations: omission agent 2, oracle 0, redundancy agent 3; pairs by model name.
    assert.deepEqual(
      rows.map((r) => [r.pair_id, r.group, r.model_a, r.model_b, r.deviations_a, r.deviations_b, r.truth, r.choice_1, r.choice_2]),
      [
        [`single|${cdp.cdp_id}|${OMIT}|${ORACLE}`, 'single', OMIT, ORACLE, 2, 0, 'B', 'B', 'B'],
        [`single|${cdp.cdp_id}|${OMIT}|${REDUNDANT}`, 'single', OMIT, REDUNDANT, 2, 3, 'A', 'A', 'A'],
        [`single|${cdp.cdp_id}|${ORACLE}|${REDUNDANT}`, 'single', ORACLE, REDUNDANT, 0, 3, 'A', 'A', 'A'],
      ],
    );
    assert.ok(rows.every((r) => r.simulated === true && r.cdp_id === cdp.cdp_id));
    // Each rater's choice is its own seeded draw: the same as noisyChoice for that pair and rater.
    const noisy = (await simulatedPreferencesStage.run(unit, fakeCtx({ raterNoise: 0.5, seed: 7 }))) as Row[];
    for (const r of noisy) {
      assert.equal(r.choice_1, noisyChoice(r.truth as never, 0.5, 7, String(r.pair_id), 'simulated-rater-1'));
      assert.equal(r.choice_2, noisyChoice(r.truth as never, 0.5, 7, String(r.pair_id), 'simulated-rater-2'));
    }
    const failed = { ...cdps[0]!, error: 'upstream: no vignette' };
    assert.deepEqual(await simulatedPreferencesStage.run({ ...unit, row: failed }, fakeCtx({ raterNoise: 0, seed: 42 })), []);
    assert.throws(
      () => simulatedPreferenceRows(predicted_pathways, agent_plans, { raterNoise: 1.5, seed: 1 }),
      /raterNoise must be in \[0, 1\], got 1.5/,
    );
  });

  test('preference_agreement: the same rows whatever order the cases’ pairs come in', async () => {
    const other = fx.htn.find((c) => c.steps.length === 4) ?? fx.htn.find((c) => c.cdp_id !== cdp.cdp_id)!;
    const cases = [cdp, other];
    const plans = agentPlanRows([OMIT, ORACLE, REDUNDANT], cases.map(cdpRow), trees);
    // The second case only in the single-turn setting: coming first, its pairs must not put that group first.
    const settingsOf = (c: typeof cdp) => (c === cdp ? (['single', 'multi'] as const) : (['single'] as const));
    const pathwaysOf = (c: typeof cdp) =>
      settingsOf(c).flatMap((setting) => [OMIT, ORACLE, REDUNDANT].map((m) => planPathway(m, c, HTN_TREE, setting)));
    const perCase = cases.map((c) =>
      simulatedPreferenceRows(
        pathwaysOf(c),
        plans.filter((p) => p.cdp_id === c.cdp_id),
        { raterNoise: 0.3, seed: 5 },
      ),
    );
    // Scores that make the PCC's choices differ from pair to pair, so the sums see every pair.
    const pathway_metrics = cases.flatMap((c, i) =>
      (['single', 'multi'] as const).flatMap((setting) =>
        [OMIT, ORACLE, REDUNDANT].map((model, k) => {
          const x = ((i * 7 + k * 3 + (setting === 'multi' ? 1 : 0)) % 5) / 10;
          return { setting, model, cdp_id: c.cdp_id, judge: 'j', dtw_pcc: x, ot_pcc: 0.4 - x, lnds_pcs: x / 2 };
        }),
      ),
    );
    const forward = await runTable(preferenceStage, { pathway_metrics, simulated_preferences: perCase.flat() }, {});
    const backward = await runTable(preferenceStage, { pathway_metrics, simulated_preferences: [...perCase].reverse().flat() }, {});
    assert.equal(forward.filter((r) => r.group === 'overall' && r.metric === 'dtw_pcc')[0]!.pairs, 9, '3 pairs in 3 case × setting');
    assert.deepEqual(
      forward.filter((r) => r.metric === 'dtw_pcc').map((r) => [r.group, r.pairs]),
      [
        ['multi', 3],
        ['single', 6],
        ['overall', 9],
      ],
    );
    assert.deepEqual(backward, forward);
  });

  test('preference_agreement: PCC choices against noise-free raters, hand-computed agreement and κ', async () => {
    const predicted_pathways = [OMIT, ORACLE, REDUNDANT].map((m) => planPathway(m, cdp, HTN_TREE, 'single'));
    const metric = (model: string, dtw: number, lnds: number) => ({
      setting: 'single',
      model,
      cdp_id: cdp.cdp_id,
      judge: 'j',
      dtw_pcc: dtw,
      ot_pcc: dtw,
      lnds_pcs: lnds,
    });
    const pathway_metrics = [metric(OMIT, 0.5, 0.3), metric(ORACLE, 0, 1), metric(REDUNDANT, 0.2, 0.9)];
    const simulated_preferences = simulatedPreferenceRows(predicted_pathways, agent_plans, { raterNoise: 0, seed: 42 });
    const rows = await runTable(preferenceStage, { pathway_metrics, simulated_preferences }, {});
    // True deviations: omission agent 2 (two omissions), oracle 0, redundancy agent 3.
    // Pairs (by name): omission–oracle → B, omission–redundancy → A, oracle–redundancy → A.
    // PCC: 0.5 vs 0 → B ✓, 0.5 vs 0.2 → B ✗, 0 vs 0.2 → A ✓ → 2/3; LNDS negated gives the same choices.
    assert.deepEqual(
      rows.map((r) => [r.metric, r.group]),
      [
        ['dtw_pcc', 'single'],
        ['dtw_pcc', 'overall'],
        ['ot_pcc', 'single'],
        ['ot_pcc', 'overall'],
        ['lnds_pcs', 'single'],
        ['lnds_pcs', 'overall'],
      ],
    );
    for (const r of rows) {
      assert.equal(r.pairs, 3);
      assert.ok(Math.abs((r.agreement as number) - 2 / 3) < 1e-12);
      assert.deepEqual([r.inter_annotator, r.kappa, r.kappa_n, r.source, r.simulated, r.judge], [1, 1, 3, 'simulated-raters', true, 'j']);
    }
  });
});

test('deviation_profile: true deviation counts per agent, real models left out', async () => {
  const predicted_pathways = [
    ...[OMIT, ORACLE, REDUNDANT].map((m) => planPathway(m, cdp, HTN_TREE, 'single')),
    { ...planPathway(ORACLE, cdp, HTN_TREE, 'single'), model: 'gpt-5.4' },
    { ...planPathway(OMIT, cdp, HTN_TREE, 'multi'), usable: false },
  ];
  // true_deviations as the runner runs it: one unit, the case, joined to its pathways and plans.
  const unit = { row: cdps[0]!, joined: { predicted_pathways, agent_plans }, whole: {} };
  const true_deviations = (await trueDeviationsStage.run(unit, fakeCtx({}))) as Row[];
  assert.deepEqual(
    true_deviations.map((r) => [r.setting, r.model, r.omission, r.redundancy, r.skipping, r.reversal, r.wrong_outcome, r.simulated]),
    [
      ['single', OMIT, 2, 0, 0, 0, false, true],
      ['single', ORACLE, 0, 0, 0, 0, false, true],
      ['single', REDUNDANT, 0, 3, 0, 0, false, true],
    ],
    'the real model and the unusable pathway have no row',
  );
  assert.deepEqual(await trueDeviationsStage.run({ ...unit, row: { ...cdps[0]!, error: 'upstream: no vignette' } }, fakeCtx({})), []);
  const rows = await runTable(deviationStage, { true_deviations }, {});
  assert.deepEqual(await runTable(deviationStage, { true_deviations: [...true_deviations].reverse() }, {}), rows, 'order-free');
  // Summed over cases: a second case of the omission agent, its conclusion wrong.
  const twice = await runTable(
    deviationStage,
    { true_deviations: [...true_deviations, { ...true_deviations[0]!, cdp_id: 'other', wrong_outcome: true }] },
    {},
  );
  assert.deepEqual(
    twice.filter((r) => r.model === OMIT).map((r) => [r.cases, r.omission, r.total, r.wrong_outcomes]),
    [[2, 4, 4, 1]],
  );
  assert.deepEqual(
    rows.map((r) => [r.setting, r.model, r.cases, r.omission, r.redundancy, r.skipping, r.reversal, r.total, r.wrong_outcomes]),
    [
      ['single', OMIT, 1, 2, 0, 0, 0, 2, 0],
      ['single', ORACLE, 1, 0, 0, 0, 0, 0, 0],
      ['single', REDUNDANT, 1, 0, 3, 0, 0, 3, 0],
    ],
  );
});
