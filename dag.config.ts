/**
 * The MEGA-CDP pipeline as a DAG, built from the command's options (pipeline/dag/options.ts: the
 * corpus, the models file, --limit, --simulated, the store and its reports; never the
 * environment). Each stage names the module that computes it; open that file to read the stage. A
 * stage declares its params and their defaults in its module; the values here override them.
 * Params, defaults included, enter each stage's key: change one here or a default there and
 * `cdp run` reruns that stage and what depends on it, nothing else. An unknown param is refused
 * before anything runs.
 *
 * Models come from the models file (models.json at the root, or `--models FILE`, which the store
 * remembers; see stages/models/models-file.ts), or CDP_LLM_BASE_URL + CDP_LLM_MODEL for one model
 * in every role. With no evaluated model configured, the simulated agents and judges play every
 * role, named "simulated"; with real ones they run only with `--simulated`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineDag, stage, files, configInput, projectPath, type Options, type StageDecl } from './pipeline/index.ts';
import type { Project } from './pipeline/cli/load.ts';
import type { ThreadPool } from './pipeline/threads/pool.ts';
import { BUNDLED_SAMPLE, modelsOf } from './stages/models/run-roster.ts';
import { llmCallsViews } from './stages/models/llm-views.ts';
import { crossedWidth, widthFor } from './stages/models/stage-width.ts';
import { cliCommands as projectCommands } from './stages/commands/index.ts';

// The guideline corpus when none is given and the store remembers none: the bundled sample. A
// corpus is a directory of guidelines/, optional trees/ and guidelines.csv (README, Construction),
// kept relative to the project when it lies inside it, so a copied project's artifacts stay its own.
const corpusOf = (o: Options) => projectPath(o.root, o.corpus ?? join(o.root, BUNDLED_SAMPLE));

/** Predictions made elsewhere, in the store (`cdp import predictions FILE` copies them to <store>/imports/). */
function importsOf(o: Options): { dir: string; any: boolean; legacy: string[] } {
  const list = (d: string) => (existsSync(d) ? readdirSync(d).filter((f) => f.endsWith('.jsonl')) : []);
  // The folder is read while the DAG is built: its listing is an input of the no-op fingerprint.
  const dir = configInput(join(o.store, 'imports'));
  const legacy = list(join(o.root, 'data', 'imports')).map((f) => join('data', 'imports', f));
  return { dir: projectPath(o.root, dir), any: list(dir).length > 0, legacy };
}

/** What the stages are wired with, decided once from the options: the roster, the corpus, the report folder, the imports. */
function wiringOf(options: Options) {
  const root = options.root;
  const models = modelsOf(options);
  // The roster as typed values (stages/roster/): each model's answer-relevant settings travel with it
  // into the params, so they key exactly the units that call it.
  const { builder, evaluated, patient, simulatedPatient, judges } = models;
  // How many units of an LLM stage are in flight: from the declared concurrency of the models it
  // calls (stages/models/stage-width.ts), a lane per crossed model; stand-ins share a width of 8.
  const widthOf = (model: { name: string } | null) => ({ concurrency: widthFor(models.roster, model?.name ?? null) });
  const widthAcross = (crossed: readonly { name: string }[]) =>
    crossedWidth(
      models.roster,
      crossed.map((m) => m.name),
    );
  // A smoke run: `cdp run --limit N` evaluates N test cases.
  const limit = options.limit;
  // §3.1: the cases QC flags (checks, and the builder's inspection when configured) are not evaluated.
  const excludeFlagged = true;
  const corpus = corpusOf(options);
  const sampleCorpus = corpus === BUNDLED_SAMPLE;
  // Reports belong to their store: reports/ for the default store, <store>/reports for another one, or --reports DIR.
  const outDir = projectPath(root, options.reports);

  // One unit per (test CDP × model), with the case's vignette, guideline and tree.
  const taskInputs = { cdps: 'test_cases', vignettes: 'vignettes', guidelines: 'guidelines', trees: 'trees' };
  // predicted_pathways reads the store's imports only when there are some, so a run without
  // imports declares exactly what it did before.
  const imports = importsOf(options);

  const perCaseAndModel = {
    input: 'cdps',
    cross: { param: 'models', as: 'model' },
    join: { vignettes: 'cdp_id', guidelines: 'guideline_id', trees: 'guideline_id' },
  };
  // One unit per (pathway × judge).
  const perPathwayAndJudge = { input: 'predicted_pathways', cross: { param: 'judges', as: 'judge' } };
  // The simulated agents' ground truth, as data: their plans (stages/agents/agent-plans.stage.ts).
  const groundTruth = { predicted_pathways: 'predicted_pathways', agent_plans: 'agent_plans' };

  return {
    root,
    models,
    builder,
    evaluated,
    patient,
    simulatedPatient,
    judges,
    limit,
    excludeFlagged,
    corpus,
    sampleCorpus,
    outDir,
    taskInputs,
    imports,
    perCaseAndModel,
    perPathwayAndJudge,
    groundTruth,
    widthOf,
    widthAcross,
  };
}
type Wiring = ReturnType<typeof wiringOf>;

/** §3.1 Guideline-to-case construction: the corpus, trees, paths, vignettes, narratives, QC. */
function constructionStages(w: Wiring): StageDecl[] {
  const { builder, excludeFlagged, sampleCorpus, widthOf } = w;
  return [
    // §3.1 Guideline-to-case construction
    stage('corpus', { module: 'stages/ingest/corpus.stage.ts', inputs: { files: 'corpus_files' } }),
    stage('corpus_trees', { module: 'stages/construct/corpus-trees.stage.ts', inputs: { files: 'corpus_files' } }),
    stage('guidelines', {
      module: 'stages/ingest/guidelines.stage.ts',
      inputs: { corpus: 'corpus' },
      forEach: 'corpus',
      concurrency: 1,
    }),
    stage('trees', {
      module: 'stages/construct/trees.stage.ts',
      inputs: { guidelines: 'guidelines', corpus_trees: 'corpus_trees' },
      forEach: { input: 'guidelines', join: { corpus_trees: 'guideline_id' } },
      params: { builder: builder.trees },
      ...widthOf(builder.trees),
    }),
    stage('tree_nodes', { module: 'stages/construct/tree-nodes.stage.ts', inputs: { trees: 'trees' }, forEach: 'trees' }),
    // The paper held out 440 of 2,274 guidelines (≈ 0.19), a corpus's default; on the six-guideline sample that
    // would leave one test guideline, so the sample holds out half (in expectation: a guideline is
    // test when its hash score < 0.5, stages/construct/split.ts). Seed 156 is the first seed that
    // gives the sample the test set the former sampler drew (2 en + 1 zh); seed 42 would give 5 of 6.
    stage('cdps', {
      module: 'stages/construct/cdps.stage.ts',
      inputs: { trees: 'trees', guidelines: 'guidelines' },
      params: { testFraction: sampleCorpus ? 0.5 : 440 / 2274, seed: 156 },
    }),
    stage('cdp_length_stats', { module: 'stages/construct/cdp-length-stats.stage.ts', inputs: { cdps: 'cdps' } }),
    stage('vignettes', {
      module: 'stages/construct/vignettes.stage.ts',
      inputs: { cdps: 'cdps' },
      forEach: 'cdps',
      params: { writer: builder.vignettes },
      ...widthOf(builder.vignettes),
    }),
    stage('narratives', {
      module: 'stages/construct/narratives.stage.ts',
      inputs: { cdps: 'cdps', vignettes: 'vignettes' },
      forEach: { input: 'cdps', join: { vignettes: 'cdp_id' } },
      params: { writer: builder.narratives },
      ...widthOf(builder.narratives),
    }),
    stage('qc', {
      module: 'stages/construct/qc.stage.ts',
      inputs: { cdps: 'cdps', vignettes: 'vignettes', narratives: 'narratives', tree_nodes: 'tree_nodes' },
      forEach: { input: 'cdps', join: { vignettes: 'cdp_id', narratives: 'cdp_id', tree_nodes: 'guideline_id' } },
    }),
    stage('qc_inspection', {
      module: 'stages/construct/qc-inspection.stage.ts',
      inputs: { qc: 'qc', cdps: 'cdps', vignettes: 'vignettes' },
      forEach: { input: 'qc', join: { cdps: 'cdp_id', vignettes: 'cdp_id' } },
      // Inspected by the builder model when one is configured; offline there is no inspector.
      params: { inspector: builder.inspector },
      ...widthOf(builder.inspector),
    }),
    stage('qc_summary', {
      module: 'stages/construct/qc-summary.stage.ts',
      inputs: { qc: 'qc', qc_inspection: 'qc_inspection', cdps: 'cdps', vignettes: 'vignettes', narratives: 'narratives' },
      params: { excludeFlagged },
    }),
  ];
}

/** §3.2 Task settings, and the perturbation agents' plans. */
function taskStages(w: Wiring): StageDecl[] {
  const { evaluated, patient, simulatedPatient, limit, excludeFlagged, taskInputs, perCaseAndModel, widthAcross } = w;
  return [
    // §3.2 Task settings, on the test split without the cases QC flagged (or N of them with --limit N)
    stage('test_cases', {
      module: 'stages/tasks/test-cases.stage.ts',
      // A case without a usable vignette or narrative is no test case (construction-failures.ts).
      inputs: { cdps: 'cdps', qc: 'qc', qc_inspection: 'qc_inspection', vignettes: 'vignettes', narratives: 'narratives' },
      params: { limit, excludeFlagged },
      covers: 'cdp_id',
      // No test case: the run ends with exit code 4 and says so (README, exit codes).
      requiresRows:
        'no test case is left to evaluate: QC excluded them all or their construction failed (see qc_summary), or no guideline is in the test split',
    }),
    // The record of that exclusion: every flagged test case, by whom and why (exported with the cases).
    stage('excluded_cases', {
      module: 'stages/tasks/excluded-cases.stage.ts',
      inputs: { cdps: 'cdps', qc: 'qc', qc_inspection: 'qc_inspection', vignettes: 'vignettes', narratives: 'narratives' },
      params: { excludeFlagged },
    }),
    stage('predictions_single', {
      module: 'stages/tasks/predictions-single.stage.ts',
      inputs: taskInputs,
      forEach: perCaseAndModel,
      params: { models: evaluated },
      ...widthAcross(evaluated),
      covers: 'cdp_id',
    }),
    stage('dialogues_multi', {
      module: 'stages/tasks/dialogues-multi.stage.ts',
      inputs: taskInputs,
      forEach: perCaseAndModel,
      params: { models: evaluated, patient, simulatedPatient },
      ...widthAcross(evaluated),
      covers: 'cdp_id',
    }),

    // The perturbation agents' plans: ground truth for §4.3–4.4 and the deviation figure.
    // One unit per (test case × simulated model), crossed in name order (the rows agent by agent).
    stage('agent_plans', {
      module: 'stages/agents/agent-plans.stage.ts',
      inputs: { cdps: 'test_cases', trees: 'trees' },
      forEach: { input: 'cdps', join: { trees: 'guideline_id' }, cross: { param: 'models', as: 'model' } },
      params: { models: [...new Set(evaluated.filter((m) => m.simulated).map((m) => m.name))].sort() },
      covers: 'cdp_id',
    }),
  ];
}

/** The pathway each answer states: one unit per test case; with imports, whole (they are held to the whole test set at once). */
function predictedPathways(imported: boolean): StageDecl {
  const answers = { predictions_single: 'predictions_single', dialogues_multi: 'dialogues_multi', cdps: 'cdps', narratives: 'narratives' };
  if (imported)
    return stage('predicted_pathways', {
      module: 'stages/evaluate/predicted-pathways.stage.ts',
      // Imports are held to this run's test cases (imported-rows.ts).
      inputs: { ...answers, test_cases: 'test_cases', imported_predictions: 'imported_predictions' },
    });
  return stage('predicted_pathways', {
    module: 'stages/evaluate/predicted-pathways-per-case.stage.ts',
    inputs: { test_cases: 'test_cases', ...answers },
    forEach: {
      input: 'test_cases',
      join: { predictions_single: 'cdp_id', dialogues_multi: 'cdp_id', cdps: 'cdp_id', narratives: 'cdp_id' },
    },
    covers: 'cdp_id',
  });
}

/** §3.3 CDP-oriented evaluation, §4.3–4.5, Appendices B and D. */
function evaluationStages(w: Wiring): StageDecl[] {
  const { judges, imports, perPathwayAndJudge, groundTruth, widthAcross } = w;
  return [
    // §3.3 CDP-oriented evaluation, §4.3–4.5, Appendices B and D
    predictedPathways(imports.any),
    stage('step_scores', {
      module: 'stages/evaluate/step-scores.stage.ts',
      inputs: { predicted_pathways: 'predicted_pathways' },
      forEach: perPathwayAndJudge,
      params: { judges },
      ...widthAcross(judges),
      covers: 'cdp_id',
    }),
    stage('outcome_scores', {
      module: 'stages/evaluate/outcome-scores.stage.ts',
      inputs: { predicted_pathways: 'predicted_pathways' },
      forEach: perPathwayAndJudge,
      params: { judges },
      ...widthAcross(judges),
      covers: 'cdp_id',
    }),
    stage('pathway_metrics', {
      module: 'stages/evaluate/pathway-metrics.stage.ts',
      inputs: { step_scores: 'step_scores' },
      forEach: 'step_scores',
      covers: 'cdp_id',
    }),
    stage('model_summary', {
      module: 'stages/evaluate/model-summary.stage.ts',
      inputs: { pathway_metrics: 'pathway_metrics', outcome_scores: 'outcome_scores', predicted_pathways: 'predicted_pathways' },
      // Failed calls and unreadable answers score worst (SR over every test case, §4.1); see README.
      params: { failurePolicy: 'worst', commonCases: false },
    }),
    // Table 2 compares the run's judges (the real ones first), never a fixed list.
    stage('correlations', {
      module: 'stages/evaluate/correlations.stage.ts',
      inputs: { pathway_metrics: 'pathway_metrics' },
      params: { judges },
    }),
    // The simulated step labels, case by case: a new guideline labels only its cases' pathways.
    stage('threshold_labels', {
      module: 'stages/evaluate/threshold-labels.stage.ts',
      inputs: { test_cases: 'test_cases', step_scores: 'step_scores', ...groundTruth },
      forEach: { input: 'test_cases', join: { step_scores: 'cdp_id', predicted_pathways: 'cdp_id', agent_plans: 'cdp_id' } },
    }),
    stage('threshold_analysis', {
      module: 'stages/evaluate/threshold-analysis.stage.ts',
      inputs: { threshold_labels: 'threshold_labels' },
    }),
    // The simulated raters' pairs, case by case: a new guideline labels only its cases' pairs.
    stage('simulated_preferences', {
      module: 'stages/evaluate/simulated-preferences.stage.ts',
      inputs: { test_cases: 'test_cases', ...groundTruth },
      forEach: { input: 'test_cases', join: { predicted_pathways: 'cdp_id', agent_plans: 'cdp_id' } },
      covers: 'cdp_id',
    }),
    stage('preference_agreement', {
      module: 'stages/evaluate/preference-agreement.stage.ts',
      inputs: { pathway_metrics: 'pathway_metrics', simulated_preferences: 'simulated_preferences' },
    }),
    // The agents' true deviations, case by case: a new guideline counts only its cases' pathways.
    stage('true_deviations', {
      module: 'stages/evaluate/true-deviations.stage.ts',
      inputs: { test_cases: 'test_cases', ...groundTruth },
      forEach: { input: 'test_cases', join: { predicted_pathways: 'cdp_id', agent_plans: 'cdp_id' } },
    }),
    stage('deviation_profile', { module: 'stages/evaluate/deviation-profile.stage.ts', inputs: { true_deviations: 'true_deviations' } }),
  ];
}

/** What the reports state about the run, as data: the settings its rows recorded, and who produced it. */
function runRecordStages(w: Wiring): StageDecl[] {
  const { builder, patient, simulatedPatient, corpus, sampleCorpus } = w;
  return [
    // The settings its stages recorded in their rows, and who produced it (the corpus, the
    // builders, the models in their roles, the case counts).
    stage('run_settings', {
      module: 'stages/report/run-settings.stage.ts',
      inputs: {
        cdps: 'cdps',
        dialogues_multi: 'dialogues_multi',
        step_scores: 'step_scores',
        outcome_scores: 'outcome_scores',
        pathway_metrics: 'pathway_metrics',
        model_summary: 'model_summary',
      },
    }),
    stage('run_facts', {
      module: 'stages/report/run-facts.stage.ts',
      inputs: {
        guidelines: 'guidelines',
        trees: 'trees',
        vignettes: 'vignettes',
        narratives: 'narratives',
        qc_inspection: 'qc_inspection',
        cdps: 'cdps',
        test_cases: 'test_cases',
        predictions_single: 'predictions_single',
        dialogues_multi: 'dialogues_multi',
        predicted_pathways: 'predicted_pathways',
        step_scores: 'step_scores',
      },
      params: {
        // The reports name the corpus where it was read (a moved corpus reruns only this stage and
        // the reports that print it; its files key the same, so nothing else).
        corpus: { dir: corpus, bundled: sampleCorpus },
        // Whether each model is a stand-in, for the rows that do not say (the writers', the patient's).
        models: [builder.trees, builder.vignettes, builder.narratives, builder.inspector, patient, simulatedPatient].flatMap((m) =>
          m ? [{ name: m.name, simulated: m.simulated }] : [],
        ),
      },
    }),
  ];
}

/** The paper's tables and figures, the reproduction scorecard, the leaderboard, an index. */
function reportStages(w: Wiring): StageDecl[] {
  const { evaluated, judges, outDir } = w;
  return [
    // Reports: the paper's tables and figures, the reproduction scorecard, an index (reports/)
    stage('report_tables', {
      module: 'stages/report/tables.stage.ts',
      inputs: {
        model_summary: 'model_summary',
        correlations: 'correlations',
        cdp_length_stats: 'cdp_length_stats',
        run_settings: 'run_settings',
      },
      params: { outDir, judges },
    }),
    stage('report_figures', {
      module: 'stages/report/figures.stage.ts',
      inputs: {
        model_summary: 'model_summary',
        threshold_analysis: 'threshold_analysis',
        cdps: 'cdps',
        cdp_length_stats: 'cdp_length_stats',
        deviation_profile: 'deviation_profile',
        run_settings: 'run_settings',
      },
      params: { outDir, judges, pngFontFiles: ['data/fonts/DejaVuSans.ttf'] },
    }),
    // Models ranked, with paired differences between neighbours (stages/report/leaderboard.ts).
    stage('report_leaderboard', {
      module: 'stages/report/leaderboard.stage.ts',
      // The per-case values behind the means, so the paired differences use exactly their cases (policy-values.ts).
      inputs: {
        model_summary: 'model_summary',
        pathway_metrics: 'pathway_metrics',
        outcome_scores: 'outcome_scores',
        predicted_pathways: 'predicted_pathways',
        run_settings: 'run_settings',
      },
      params: { outDir, judges, pngFontFiles: ['data/fonts/DejaVuSans.ttf'] },
    }),
    stage('report_scorecard', {
      module: 'stages/report/scorecard.stage.ts',
      inputs: { published: 'published_tables', model_summary: 'model_summary', run_settings: 'run_settings', run_facts: 'run_facts' },
      // Only models that declare the paper model they stand for are compared with its numbers.
      params: { outDir, judges, models: evaluated },
    }),
    stage('report_index', {
      module: 'stages/report/index.stage.ts',
      inputs: {
        report_tables: 'report_tables',
        report_figures: 'report_figures',
        report_scorecard: 'report_scorecard',
        report_leaderboard: 'report_leaderboard',
        qc_summary: 'qc_summary',
        run_settings: 'run_settings',
        run_facts: 'run_facts',
      },
      params: { outDir },
    }),
  ];
}

export default defineDag(
  (options) => {
    const w = wiringOf(options);
    const { root, models, corpus, imports } = w;
    return {
      sources: {
        // Paths relative to the corpus: the same corpus at another place keys the same, so moving it reruns nothing.
        corpus_files: files({ base: corpus }, 'guidelines/**/*.{pdf,md,txt}', 'trees/*.json', 'guidelines.csv'),
        // The paper's published tables (transcribed), for the reproduction scorecard.
        published_tables: files('data/published/table*.csv'),
        ...(imports.any ? { imported_predictions: files(`${imports.dir}/*.jsonl`) } : {}),
      },
      // Stop before anything runs: a models file that does not validate, a role nobody plays.
      problems: [
        ...models.problems,
        ...(existsSync(resolve(root, corpus, 'guidelines'))
          ? []
          : [`the corpus ${resolve(root, corpus)} has no guidelines/ directory; pass --corpus DIR with DIR/guidelines/<id>.{pdf,md,txt}`]),
      ],
      warnings: [
        ...models.warnings,
        ...(imports.legacy.length
          ? [
              `${imports.legacy.join(', ')}: data/imports/ is no longer read (imports belong to a store); import again with \`cdp import predictions FILE\` to put them in ${imports.dir}/`,
            ]
          : []),
      ],
      stages: [...constructionStages(w), ...taskStages(w), ...evaluationStages(w), ...runRecordStages(w), ...reportStages(w)],
    };
  },
  { corpus: BUNDLED_SAMPLE },
);

/**
 * The run's LLM client: the models above, offline stand-ins answering for simulated names.
 * Loaded only when a stage runs, so a no-op run never pays for it.
 */
export async function llmClient(project: Project, opts: { mode?: 'live' | 'estimate'; threads?: ThreadPool } = {}) {
  const { runLlm } = await import('./stages/models/run-llm-client.ts');
  const models = modelsOf(project.options);
  return runLlm(project.ws.store, models, { cacheDir: project.ws.llmCache, mode: opts.mode, threads: opts.threads });
}

/** The warehouse views of the LLM call log (llm_calls), without creating a client. */
export const llmViews = (project: Project) => llmCallsViews(project.ws.store, project.ws.llmCache);

/** Commands this project adds to `cdp` (models, ingest, pathway-metrics, notebooks). */
export const cliCommands = projectCommands;
