/**
 * The MEGA-CDP pipeline as a DAG. Each stage names the module that computes it; open that file
 * to read the stage. A stage declares its params and their defaults in its module; the values here
 * override them. Params, defaults included, enter each stage's key: change one here or a default
 * there and `cdp run` reruns that stage and what depends on it, nothing else. An unknown param is
 * refused before anything runs.
 *
 * Models come from the models file (models.json at the root, `--models FILE` or CDP_MODELS;
 * see stages/models/models-file.ts), or CDP_LLM_BASE_URL + CDP_LLM_MODEL for one model in every
 * role. With no evaluated model configured, the simulated agents and judges play every role,
 * named "simulated"; with real ones they run only with `--simulated`.
 */
import { fileURLToPath } from 'node:url';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { defineDag, stage, files } from './pipeline/index.ts';
import type { Project } from './pipeline/cli/load.ts';
import type { ThreadPool } from './pipeline/threads/pool.ts';
import { runModels } from './stages/models/run-roster.ts';
import { embeddingJudgeSpecs } from './stages/models/embedding-judges.ts';
import { llmCallsViews } from './stages/models/llm-views.ts';
import { crossedWidth, widthFor } from './stages/models/stage-width.ts';
import { cliCommands as projectCommands } from './stages/cli-commands.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const embeddingJudges = embeddingJudgeSpecs();
export const models = runModels({ root, extra: embeddingJudges });
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
// A smoke run: `cdp run --limit N` evaluates N test cases (CDP_LIMIT).
const limit = process.env.CDP_LIMIT ? Number(process.env.CDP_LIMIT) : null;
const limitProblems =
  limit === null || (Number.isInteger(limit) && limit > 0)
    ? []
    : [`--limit (CDP_LIMIT) must be a positive whole number of test cases, got "${process.env.CDP_LIMIT}"`];
// §3.1: the cases QC flags (checks, and the builder's inspection when configured) are not evaluated.
const excludeFlagged = true;
// The guideline corpus: a directory of guidelines/, optional trees/ and guidelines.csv (README,
// Construction), given by --corpus DIR (CDP_CORPUS); the bundled sample by default. Kept
// relative to the project when it lies inside it, so a copied project's artifacts stay its own.
const corpusAbs = resolve(root, process.env.CDP_CORPUS || 'data/sample');
const corpusRel = relative(root, corpusAbs);
const corpus = corpusRel && !corpusRel.startsWith('..') && !isAbsolute(corpusRel) ? corpusRel : corpusAbs;
const sampleCorpus = corpus === 'data/sample';
// Reports belong to their store: reports/ for the default store, <store>/reports for another one,
// or the directory given by --reports (CDP_REPORTS).
const outDir = process.env.CDP_REPORTS || (process.env.CDP_STORE ? join(process.env.CDP_STORE, 'reports') : 'reports');

// One unit per (test CDP × model), with the case's vignette, guideline and tree.
const taskInputs = { cdps: 'test_cases', vignettes: 'vignettes', guidelines: 'guidelines', trees: 'trees' };
// Predictions made elsewhere, copied to data/imports/ by `cdp import predictions FILE`; predicted_pathways
// reads them only when there are some, so a run without imports declares exactly what it did before.
const importsDir = join(root, 'data', 'imports');
const imported = existsSync(importsDir) && readdirSync(importsDir).some((f) => f.endsWith('.jsonl'));

const perCaseAndModel = {
  input: 'cdps',
  cross: { param: 'models', as: 'model' },
  join: { vignettes: 'cdp_id', guidelines: 'guideline_id', trees: 'guideline_id' },
};
// One unit per (pathway × judge).
const perPathwayAndJudge = { input: 'predicted_pathways', cross: { param: 'judges', as: 'judge' } };
// The simulated agents' ground truth, as data: their plans (stages/agents/agent-plans.stage.ts).
const groundTruth = { predicted_pathways: 'predicted_pathways', agent_plans: 'agent_plans' };

export default defineDag({
  sources: {
    corpus_files: files(`${corpus}/guidelines/**/*.{pdf,md,txt}`, `${corpus}/trees/*.json`, `${corpus}/guidelines.csv`),
    // The paper's published tables (transcribed), for the reproduction scorecard.
    published_tables: files('data/published/table*.csv'),
    // The folder's README keeps this source non-empty, and its directory watched: an import is seen like any
    // other change of a source file.
    imported_predictions: files('data/imports/*.jsonl', 'data/imports/README.md'),
  },
  // Stop before anything runs: a models file that does not validate, a role nobody plays.
  problems: [
    ...models.problems,
    ...limitProblems,
    ...(existsSync(join(corpusAbs, 'guidelines'))
      ? []
      : [`the corpus ${corpusAbs} has no guidelines/ directory; pass --corpus DIR (CDP_CORPUS) with DIR/guidelines/<id>.{pdf,md,txt}`]),
  ],
  warnings: models.warnings,
  stages: [
    // §3.1 Guideline-to-case construction
    stage('corpus', { module: 'stages/ingest/corpus.stage.ts', inputs: { files: 'corpus_files' } }),
    stage('corpus_trees', { module: 'stages/construct/corpus-trees.stage.ts', inputs: { files: 'corpus_files' } }),
    stage('guidelines', { module: 'stages/ingest/guidelines.stage.ts', inputs: { corpus: 'corpus' }, forEach: 'corpus', concurrency: 1 }),
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

    // §3.3 CDP-oriented evaluation, §4.3–4.5, Appendices B and D
    // One unit per test case; with imports, whole (they are held to the whole test set at once).
    stage(
      'predicted_pathways',
      imported
        ? {
            module: 'stages/evaluate/predicted-pathways.stage.ts',
            inputs: {
              predictions_single: 'predictions_single',
              dialogues_multi: 'dialogues_multi',
              cdps: 'cdps',
              narratives: 'narratives',
              // Imports are held to this run's test cases (imported-rows.ts).
              test_cases: 'test_cases',
              imported_predictions: 'imported_predictions',
            },
          }
        : {
            module: 'stages/evaluate/predicted-pathways-per-case.stage.ts',
            inputs: {
              test_cases: 'test_cases',
              predictions_single: 'predictions_single',
              dialogues_multi: 'dialogues_multi',
              cdps: 'cdps',
              narratives: 'narratives',
            },
            forEach: {
              input: 'test_cases',
              join: { predictions_single: 'cdp_id', dialogues_multi: 'cdp_id', cdps: 'cdp_id', narratives: 'cdp_id' },
            },
            covers: 'cdp_id',
          },
    ),
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
    stage('threshold_analysis', {
      module: 'stages/evaluate/threshold-analysis.stage.ts',
      inputs: { step_scores: 'step_scores', ...groundTruth },
    }),
    stage('preference_agreement', {
      module: 'stages/evaluate/preference-agreement.stage.ts',
      inputs: { pathway_metrics: 'pathway_metrics', ...groundTruth },
    }),
    stage('deviation_profile', { module: 'stages/evaluate/deviation-profile.stage.ts', inputs: groundTruth }),

    // What the reports state about the run, as data: the settings its stages recorded in their rows,
    // and who produced it (the corpus, the builders, the models in their roles, the case counts).
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
        corpus: { dir: corpus, bundled: sampleCorpus },
        // Whether each model is a stand-in, for the rows that do not say (the writers', the patient's).
        models: [builder.trees, builder.vignettes, builder.narratives, builder.inspector, patient, simulatedPatient].flatMap((m) =>
          m ? [{ name: m.name, simulated: m.simulated }] : [],
        ),
      },
    }),

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
  ],
});

/**
 * The run's LLM client: the models above, offline stand-ins answering for simulated names.
 * Loaded only when a stage runs, so a no-op run never pays for it.
 */
export async function llmClient(project: Project, opts: { mode?: 'live' | 'estimate'; threads?: ThreadPool } = {}) {
  const { runLlm } = await import('./stages/models/run-llm-client.ts');
  return runLlm(project.ws.store, models, { cacheDir: project.ws.llmCache, mode: opts.mode, threads: opts.threads });
}

/** The warehouse views of the LLM call log (llm_calls), without creating a client. */
export const llmViews = (project: Project) => llmCallsViews(project.ws.store, project.ws.llmCache);

/** Commands this project adds to `cdp` (models, ingest, pathway-metrics, notebooks). */
export const cliCommands = projectCommands;
