// Every stage module declares its inputs, and dag.config.ts must bind exactly them: renaming
// model_summary's input `outcome_scores:` to `outcome_score:` once ran green and wrote 140 rows
// instead of 182, with no accuracy cells. Now it, a missing required input and a forEach over an
// input the module does not drive by are refused before anything runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import dagDefinition from '../dag.config.ts';
import { builtConfig } from '../pipeline/testing/config-stages.ts';
import { resolveDag, DagConfigError, files } from '../pipeline/index.ts';
import type { DagConfig, StageDecl } from '../pipeline/dag/define.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = builtConfig(dagDefinition, root);

function edited(name: string, edit: (s: StageDecl) => StageDecl): DagConfig {
  return { ...config, stages: config.stages.map((s) => (s.name === name ? edit(s) : s)) };
}

async function refused(c: DagConfig): Promise<string[]> {
  try {
    await resolveDag(c, root);
  } catch (err) {
    assert.ok(err instanceof DagConfigError, String(err));
    return err.problems;
  }
  assert.fail('resolveDag accepted the config');
}

test("model_summary's input renamed outcome_scores → outcome_score is refused by name, with the did-you-mean", async () => {
  const renamed = edited('model_summary', (s) => {
    const { outcome_scores, ...rest } = s.inputs!;
    return { ...s, inputs: { ...rest, outcome_score: outcome_scores! } };
  });
  assert.deepEqual(await refused(renamed), [
    "stage 'model_summary': input 'outcome_score' is not an input of stages/evaluate/model-summary.stage.ts (did you mean 'outcome_scores'?); its inputs: pathway_metrics, outcome_scores, predicted_pathways",
    "stage 'model_summary': required input 'outcome_scores' is not given; bind it in dag.config.ts (inputs: { outcome_scores: '<source or stage>' })",
  ]);
});

test('a missing required input is refused by name; an optional one may be left out', async () => {
  const without = (stage: string, input: string) =>
    edited(stage, (s) => ({ ...s, inputs: Object.fromEntries(Object.entries(s.inputs!).filter(([k]) => k !== input)) }));
  assert.deepEqual(await refused(without('preference_agreement', 'simulated_preferences')), [
    "stage 'preference_agreement': required input 'simulated_preferences' is not given; bind it in dag.config.ts (inputs: { simulated_preferences: '<source or stage>' })",
  ]);
  assert.deepEqual(await refused(without('report_index', 'qc_summary')), [
    "stage 'report_index': required input 'qc_summary' is not given; bind it in dag.config.ts (inputs: { qc_summary: '<source or stage>' })",
  ]);
  // Imported predictions are bound only when there are some (to the whole-table module, as the
  // wiring does then, with the store's imports as a source); without corpus trees every tree is built.
  const imports = {
    ...edited('predicted_pathways', (s) => ({
      name: s.name,
      module: 'stages/evaluate/predicted-pathways.stage.ts',
      inputs: { ...s.inputs, imported_predictions: 'imported_predictions' },
    })),
    sources: { ...config.sources, imported_predictions: files('data/store/imports/*.jsonl') },
  };
  const noCorpusTrees = edited('trees', (s) => ({ ...s, inputs: { guidelines: 'guidelines' }, forEach: 'guidelines' }));
  for (const c of [without('predicted_pathways', 'imported_predictions'), imports, noCorpusTrees]) await resolveDag(c, root);
});

test('forEach over, or joining, an input the module does not declare so is refused', async () => {
  const overVignettes = edited('predictions_single', (s) => ({
    ...s,
    forEach: {
      input: 'vignettes',
      cross: { param: 'models', as: 'model' },
      join: { cdps: 'cdp_id', guidelines: 'guideline_id', trees: 'guideline_id' },
    },
  }));
  assert.deepEqual(await refused(overVignettes), [
    "stage 'predictions_single' maps over 'vignettes', which stages/tasks/predictions-single.stage.ts declares 'joined', not as its driving input (it drives: cdps); map over that one",
    "stage 'predictions_single' joins 'cdps', which stages/tasks/predictions-single.stage.ts declares 'drives' (joined inputs: vignettes, guidelines, trees); leave it out of forEach.join",
  ]);
  const unjoined = edited('qc', (s) => ({ ...s, forEach: { input: 'cdps', join: { vignettes: 'cdp_id', narratives: 'cdp_id' } } }));
  assert.deepEqual(await refused(unjoined), [
    "stage 'qc': stages/construct/qc.stage.ts takes input 'tree_nodes' joined to each unit, but forEach.join does not join it; add join: { tree_nodes: '<column>' }",
  ]);
  const wholeJoined = edited('step_scores', (s) => ({
    ...s,
    inputs: { ...s.inputs, cdps: 'cdps' },
    forEach: { input: 'predicted_pathways', cross: { param: 'judges', as: 'judge' }, join: { cdps: 'cdp_id' } },
  }));
  assert.deepEqual(await refused(wholeJoined), [
    "stage 'step_scores': input 'cdps' is not an input of stages/evaluate/step-scores.stage.ts; its inputs: predicted_pathways",
  ]);
});

test('every stage module under stages/ declares its inputs, and no run defaults an input to empty', async () => {
  const modules = readdirSync(join(root, 'stages'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.stage.ts'))
    .map((f) => join(root, 'stages', f));
  assert.ok(modules.length >= 30, `${modules.length} stage modules`);
  for (const file of modules) {
    const impl = ((await import(file)) as { default: { inputs?: Record<string, string> } }).default;
    const name = relative(root, file);
    assert.equal(typeof impl.inputs, 'object', `${name} declares its inputs`);
    const source = readFileSync(file, 'utf8');
    // `run({ x = [] })`, `inputs.x ?? []`, `joined.x?.` read a missing input as empty: the declaration says what is there.
    for (const hidden of [/run\(\s*\{[^}]*=\s*\[\]/, /\binputs\.\w+\s*\?\?/, /\b(joined|whole)\.\w+\?\./]) {
      assert.doesNotMatch(source, hidden, `${name} defaults a missing input`);
    }
  }
  // And the DAG binds every stage's declared inputs as declared (resolveDag refuses anything else).
  const dag = await resolveDag(config, root);
  for (const [name, s] of dag.stages) {
    const declared = s.impl.inputs!;
    const required = Object.keys(declared).filter((k) => !declared[k]!.startsWith('optional '));
    assert.deepEqual(
      required.filter((k) => !(k in (s.decl.inputs ?? {}))),
      [],
      `${name} has every required input bound`,
    );
  }
});
